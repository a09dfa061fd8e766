/* saikoro: the search index on first use of search. mkdocs-material requests
 * search/search_index.json (XMLHttpRequest) as soon as its bundle runs, on every page; this
 * runs just before the bundle and holds that one request back until the reader shows an
 * interest in search: focus on the search field (a tap on the search icon, the f, s or /
 * keys), the search dialog opening, a pointer over the search field, or a ?q= link. Every
 * other request passes untouched; without the bundle's request nothing happens. */
(function () {
  "use strict";
  var X = window.XMLHttpRequest && XMLHttpRequest.prototype;
  if (!X || X.saikoroLazySearch) return;
  X.saikoroLazySearch = true;
  var open = X.open, send = X.send, abort = X.abort, wanted = false, held = [];
  var INDEX = /\/search\/search_index\.json(?:[?#]|$)/;
  function want() {
    if (wanted) return;
    wanted = true;
    document.documentElement.setAttribute("data-saikoro-search", "loading");
    held.splice(0).forEach(function (entry) { send.apply(entry[0], entry[1]); });
  }
  X.open = function (method, url) {
    this.saikoroHeld = INDEX.test(String(url));
    return open.apply(this, arguments);
  };
  X.send = function () {
    if (this.saikoroHeld && !wanted) { held.push([this, arguments]); return; }
    return send.apply(this, arguments);
  };
  X.abort = function () {
    var self = this;
    held = held.filter(function (entry) { return entry[0] !== self; });
    return abort.apply(this, arguments);
  };
  function inSearch(target) {
    return !!(target && target.closest &&
      target.closest(".md-search, [data-md-component=search], label[for=__search]"));
  }
  document.addEventListener("focusin", function (e) { if (inSearch(e.target)) want(); }, true);
  document.addEventListener("pointerover", function (e) { if (inSearch(e.target)) want(); },
    { capture: true, passive: true });
  document.addEventListener("pointerdown", function (e) { if (inSearch(e.target)) want(); },
    { capture: true, passive: true });
  document.addEventListener("change", function (e) {
    if (e.target && e.target.id === "__search" && e.target.checked) want();
  }, true);
  if (/[?&]q=/.test(location.search)) want();
  window.saikoroSearch = { load: want, get wanted() { return wanted; } };
})();
