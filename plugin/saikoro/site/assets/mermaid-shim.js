/* saikoro: make mkdocs-material use our Mermaid, loaded only when a page draws one, and
 * make its flowcharts readable at every width.
 *
 * Material loads Mermaid from a CDN unless a global `mermaid` exists; this defines one
 * whose render() loads the self-hosted copy (next to this file) or the configured URL.
 *
 * Readability: Material draws each chart into a closed shadow root, scaled down to the
 * column (a 3,000 px chart would have 2 px text). render() therefore
 *   - tries the other direction (TD <-> LR) when a chart does not fit the column at the
 *     smallest readable scale, and keeps the narrower drawing;
 *   - returns a bind function (Material calls it with the shadow root) that draws the
 *     chart at column width but never below MIN_SCALE (11 px text): wider charts scroll
 *     horizontally, with a visible cue, inside `.saikoro-flow-chart`;
 *   - opens the chart full-screen with zoom buttons on click, Enter or Space.
 * Each rendered chart's shadow root is kept as `host.saikoroShadow` (tests measure it). */
(function () {
  "use strict";
  if (typeof window.mermaid !== "undefined" && !(window.mermaid instanceof Element)) return;
  var configured = __SAIKORO_MERMAID_URL__;
  var here = document.currentScript && document.currentScript.src;
  var url = configured || new URL("mermaid.min.js", here || document.baseURI).href;
  var FONT = 16;            // Mermaid's label size in the drawing's own units
  var MIN_SCALE = 11.5 / FONT;  // never draw labels below ~11 px on screen
  var options = null;
  var loading = null;

  function load() {
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
    return loading;
  }

  function viewBox(svg) {
    var m = /viewBox="\s*([-\d.]+)[\s,]+([-\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(svg);
    return m ? { w: parseFloat(m[3]), h: parseFloat(m[4]) } : null;
  }

  function column() {
    var el = document.querySelector(".md-content__inner") || document.body;
    return el.clientWidth || window.innerWidth;
  }

  function otherDirection(text) {
    var m = /^(\s*(?:flowchart|graph)\s+)(TD|TB|LR)\b/.exec(text);
    if (!m) return null;
    return m[1] + (m[2] === "LR" ? "TD" : "LR") + text.slice(m[0].length);
  }

  var dialog = null;
  function openFull(svgText, box) {
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.className = "saikoro-flow-dialog";
      dialog.setAttribute("aria-label", "フローチャート（拡大表示）");
      dialog.innerHTML =
        '<div class="saikoro-flow-tools">' +
        '<button type="button" data-zoom="out" aria-label="縮小">−</button>' +
        '<button type="button" data-zoom="fit" aria-label="画面に合わせる">全体</button>' +
        '<button type="button" data-zoom="in" aria-label="拡大">＋</button>' +
        '<button type="button" data-zoom="close" aria-label="閉じる">閉じる ×</button></div>' +
        '<div class="saikoro-flow-pane"><div class="saikoro-flow-big"></div></div>';
      document.body.appendChild(dialog);
      dialog.saikoroRoot = dialog.querySelector(".saikoro-flow-big").attachShadow({ mode: "open" });
      dialog.addEventListener("click", function (event) {
        var b = event.target.closest && event.target.closest("button[data-zoom]");
        if (!b) return;
        var z = b.getAttribute("data-zoom");
        if (z === "close") dialog.close();
        else zoom(z);
      });
      dialog.addEventListener("keydown", function (event) {
        if (event.key === "+" || event.key === "=") zoom("in");
        else if (event.key === "-") zoom("out");
        else if (event.key === "0") zoom("fit");
      });
    }
    dialog.saikoroRoot.innerHTML = svgText;
    dialog.saikoroBox = box;
    var pane = dialog.querySelector(".saikoro-flow-pane");
    dialog.showModal();
    // "全体" shows the whole chart; it opens at readable size, centred on the start
    dialog.saikoroFit = Math.min(1.5, (pane.clientWidth - 16) / box.w);
    setZoom(Math.max(MIN_SCALE, dialog.saikoroFit));
    pane.scrollTop = 0;
    pane.scrollLeft = Math.max(0, (pane.scrollWidth - pane.clientWidth) / 2);
  }
  function setZoom(z) {
    var svg = dialog.saikoroRoot.querySelector("svg");
    if (!svg) return;
    dialog.saikoroZoom = z;
    svg.style.maxWidth = "none";
    svg.style.width = Math.round(dialog.saikoroBox.w * z) + "px";
    svg.style.height = Math.round(dialog.saikoroBox.h * z) + "px";
  }
  function zoom(how) {
    var z = dialog.saikoroZoom || 1;
    if (how === "in") z = Math.min(4, z * 1.25);
    else if (how === "out") z = Math.max(0.2, z / 1.25);
    else z = dialog.saikoroFit;
    setZoom(z);
  }

  // Draw the chart in `shadow` at column width, never below MIN_SCALE; mark overflow.
  function bind(shadow, svgText, box) {
    var host = shadow.host;
    host.saikoroShadow = shadow;
    var svg = shadow.querySelector("svg");
    var frame = host.closest(".saikoro-flow-chart");
    if (!svg || !box || !frame) return;
    svg.removeAttribute("height");
    svg.style.maxWidth = "none";
    function fit() {
      var room = frame.clientWidth;
      if (!room) return;
      var scale = Math.max(MIN_SCALE, Math.min(1, room / box.w));
      svg.style.width = Math.floor(box.w * scale) + "px";
      svg.style.height = Math.floor(box.h * scale) + "px";
      var wide = box.w * scale > room + 1;
      frame.classList.toggle("saikoro-scrolls", wide);
      frame.setAttribute("data-scale", scale.toFixed(3));
    }
    fit();
    // a chart that scrolls starts centred: top-down charts begin at the top middle
    frame.scrollLeft = Math.max(0, (frame.scrollWidth - frame.clientWidth) / 2);
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(fit).observe(frame);
    frame.setAttribute("tabindex", "0");
    frame.setAttribute("role", "button");
    frame.setAttribute("aria-label", "フローチャート：クリックまたは Enter で拡大表示");
    function open(event) {
      if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      openFull(svgText, box);
    }
    frame.addEventListener("click", open);
    frame.addEventListener("keydown", open);
  }

  function bound(result) {
    var box = viewBox(result.svg);
    return {
      svg: result.svg,
      fn: function (shadow) {
        if (result.fn) result.fn(shadow);
        bind(shadow, result.svg, box);
      }
    };
  }

  var shim = {
    initialize: function (o) {
      // tighter spacing than Mermaid's default (50 px between nodes and ranks)
      options = Object.assign({}, o, {
        flowchart: Object.assign({ nodeSpacing: 30, rankSpacing: 40, padding: 10, wrappingWidth: 480 }, (o && o.flowchart) || {})
      });
    },
    render: function (id, text) {
      return load().then(function (real) {
        return real.render(id, text).then(function (first) {
          var alt = otherDirection(text);
          var box = viewBox(first.svg);
          if (!alt || !box || box.w * MIN_SCALE <= column()) return bound(first);
          return real.render(id + "-alt", alt).then(function (second) {
            var other = viewBox(second.svg);
            return bound(other && other.w < box.w ? second : first);
          }, function () { return bound(first); });
        });
      });
    }
  };
  window.mermaid = shim;
})();
