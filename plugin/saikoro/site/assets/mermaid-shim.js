/* saikoro: make mkdocs-material use our Mermaid, loaded only when a page draws one.
 * Material loads Mermaid from a CDN unless a global `mermaid` exists; this defines one
 * whose render() loads the self-hosted copy (next to this file) or the configured URL. */
(function () {
  "use strict";
  if (typeof window.mermaid !== "undefined" && !(window.mermaid instanceof Element)) return;
  var configured = __SAIKORO_MERMAID_URL__;
  var here = document.currentScript && document.currentScript.src;
  var url = configured || new URL("mermaid.min.js", here || document.baseURI).href;
  var options = null;
  var loading = null;
  var shim = {
    initialize: function (o) { options = o; },
    render: function (id, text) {
      if (!loading) {
        loading = new Promise(function (resolve, reject) {
          var script = document.createElement("script");
          script.src = url;
          script.onload = function () {
            var real = window.mermaid;
            if (!real || real === shim) { reject(new Error("mermaid did not load")); return; }
            if (options) real.initialize(options);
            resolve(real);
          };
          script.onerror = function () { window.mermaid = shim; reject(new Error("cannot load " + url)); };
          document.head.appendChild(script);
        });
      }
      return loading.then(function (real) { return real.render(id, text); });
    }
  };
  window.mermaid = shim;
})();
