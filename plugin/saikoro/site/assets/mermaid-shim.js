/* saikoro: make mkdocs-material use our Mermaid, loaded only when a chart nears the
 * viewport, and make its flowcharts readable at every width.
 *
 * Material loads Mermaid from a CDN unless a global `mermaid` exists; this defines one
 * whose render() waits until the chart it draws is within NEAR px of the viewport (an
 * IntersectionObserver on the chart's <pre>), then loads the self-hosted copy (next to
 * this file) or the configured URL. A page whose charts are all far below the fold
 * fetches no Mermaid until the reader scrolls; a chart folded in a <details> (the rules
 * pages fold theirs) is drawn when it is opened; printing (beforeprint) and
 * `window.saikoroFlows.drawAll()` (saikoro pdf) open the folds and draw every chart at once.
 *
 * Readability: Material draws each chart into a closed shadow root, scaled down to the
 * column (a 3,000 px chart would have 2 px text). render() therefore
 *   - tries the other direction (TD <-> LR) when a chart does not fit the column at the
 *     smallest readable scale, and keeps the narrower drawing;
 *   - returns a bind function (Material calls it with the shadow root) that draws the
 *     chart at column width but never below MIN_SCALE (12 px text): wider charts scroll
 *     horizontally, with a visible cue, inside `.saikoro-flow-chart`, starting at the
 *     chart's first node;
 *   - opens the chart full-screen, fitted to the screen, with zoom buttons on click
 *     (tap), Enter or Space.
 * Each rendered chart's shadow root is kept as `host.saikoroShadow` (tests measure it). */
(function () {
  "use strict";
  if (typeof window.mermaid !== "undefined" && !(window.mermaid instanceof Element)) return;
  var configured = __SAIKORO_MERMAID_URL__;
  var here = document.currentScript && document.currentScript.src;
  var url = configured || new URL("mermaid.min.js", here || document.baseURI).href;
  var FONT = 16;            // Mermaid's label size in the drawing's own units
  var MIN_SCALE = 12 / FONT;  // never draw labels below 12 px on screen
  var PRINT_MIN_SCALE = 0.5;  // on paper, down to 6 pt labels to fit the paper's chart height
  var fits = [];            // each drawn chart's fit(): run again when print starts or ends
  var NEAR = 200;           // start drawing a chart this far (px) before it scrolls in
  var options = null;
  var loading = null;
  var claimed = typeof WeakSet !== "undefined" ? new WeakSet() : null;
  var waiting = [];         // charts not drawn yet: {el, go}
  var watcher = null;
  var everything = false;   // drawAll() was asked: draw the rest at once

  // The <pre class="mermaid"> Material is about to replace for render(id, text): Material
  // mounts charts in document order and calls render() before it mounts the next one,
  // so it is the first not yet claimed whose text is `text`.
  function chartOf(text) {
    var all = document.querySelectorAll("pre.mermaid");
    for (var i = 0; i < all.length; i++) {
      var el = all[i];
      if (claimed && claimed.has(el)) continue;
      if (el.textContent === text) { if (claimed) claimed.add(el); return el; }
    }
    return null;
  }

  // A promise resolved when `el` nears the viewport (at once without an observer).
  function near(el) {
    if (!el || everything || typeof IntersectionObserver === "undefined") return Promise.resolve();
    return new Promise(function (resolve) {
      var item = { el: el, go: resolve };
      waiting.push(item);
      if (!watcher) {
        watcher = new IntersectionObserver(function (entries) {
          entries.forEach(function (entry) {
            if (!entry.isIntersecting) return;
            watcher.unobserve(entry.target);
            for (var i = 0; i < waiting.length; i++) {
              if (waiting[i].el === entry.target) { waiting.splice(i, 1)[0].go(); break; }
            }
          });
        }, { rootMargin: NEAR + "px 0px" });
      }
      watcher.observe(el);
    });
  }

  // Draw every chart still waiting (print, PDF); resolves once none is left to draw.
  function drawAll() {
    everything = true;
    // folded charts open: a print or a PDF shows every chart
    document.querySelectorAll("details.saikoro-flow-fold:not([open])").forEach(function (d) { d.open = true; });
    var rest = waiting.splice(0, waiting.length);
    rest.forEach(function (item) { if (watcher) watcher.unobserve(item.el); item.go(); });
    return new Promise(function (resolve) {
      (function check() {
        if (!document.querySelector("pre.mermaid")) resolve();
        else setTimeout(check, 50);
      })();
    });
  }
  // Fit every drawn chart again (print: the stylesheet caps a chart's height on paper).
  function refit() { fits.forEach(function (fit) { fit(); }); }
  window.saikoroFlows = {
    drawAll: drawAll, refit: refit, pending: function () { return waiting.length; }
  };
  window.addEventListener("beforeprint", function () { drawAll(); refit(); });
  window.addEventListener("afterprint", refit);
  if (window.matchMedia) {
    var printing = window.matchMedia("print");
    if (printing.addEventListener) printing.addEventListener("change", refit);
  }

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
    // it opens fitted: the whole chart on the screen ("全体"); ＋ and pinch zoom in
    var style = getComputedStyle(pane);
    var padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    var padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    dialog.saikoroFit = Math.min(1.5, (pane.clientWidth - padX - 2) / box.w,
                                 (pane.clientHeight - padY - 2) / box.h);
    setZoom(dialog.saikoroFit);
    pane.scrollTop = 0;
    pane.scrollLeft = 0;
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

  // The x centre (in the drawing's units) of the chart's first node, or null.
  function startX(svg, text) {
    var m = /^\s*(?:flowchart|graph)\s+\w+\s*\n\s*([A-Za-z0-9_]+)/.exec(text);
    if (!m) return null;
    var nodes = svg.querySelectorAll("g.node");
    for (var i = 0; i < nodes.length; i++) {
      if ((nodes[i].id || "").indexOf("-" + m[1] + "-") < 0) continue;
      var t = /translate\(\s*([-\d.]+)/.exec(nodes[i].getAttribute("transform") || "");
      return t ? parseFloat(t[1]) : null;
    }
    return null;
  }

  // Draw the chart in `shadow` at column width, never below MIN_SCALE; mark overflow.
  // A chart wider than the column opens scrolled to its first node (a top-down chart's
  // start need not be in the middle), not to its middle. In print the frame's max-height
  // (the paper's chart height, saikoro.css) caps the chart too, down to PRINT_MIN_SCALE:
  // a tall chart fits under the scenario's overview instead of taking a page of its own.
  function bind(shadow, svgText, box, text) {
    var host = shadow.host;
    host.saikoroShadow = shadow;
    var svg = shadow.querySelector("svg");
    var frame = host.closest(".saikoro-flow-chart");
    if (!svg || !box || !frame) return;
    svg.removeAttribute("height");
    svg.style.maxWidth = "none";
    var scale = 1;
    function fit() {
      var room = frame.clientWidth;
      if (!room) return;
      var cap = parseFloat(getComputedStyle(frame).maxHeight);  // NaN ("none") on screen
      var fitted = Math.min(1, room / box.w);
      if (cap > 0) fitted = Math.min(fitted, (cap - 16) / box.h);
      scale = Math.max(cap > 0 ? PRINT_MIN_SCALE : MIN_SCALE, fitted);
      // rounded up: never drawn a fraction of a pixel below the readable scale
      svg.style.width = Math.ceil(box.w * scale) + "px";
      svg.style.height = Math.ceil(box.h * scale) + "px";
      var wide = box.w * scale > room + 1;
      frame.classList.toggle("saikoro-scrolls", wide);
      frame.setAttribute("data-scale", scale.toFixed(3));
    }
    fit();
    fits.push(fit);
    var x = startX(svg, text);
    var vb = svg.viewBox && svg.viewBox.baseVal;
    var centre = x === null || !vb ? box.w / 2 : x - vb.x;
    frame.scrollLeft = Math.max(0, Math.min(frame.scrollWidth - frame.clientWidth,
                                            centre * scale - frame.clientWidth / 2));
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(fit).observe(frame);
    frame.setAttribute("tabindex", "0");
    frame.setAttribute("role", "button");
    frame.setAttribute("aria-label", "フローチャートを拡大表示");
    function open(event) {
      if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      openFull(svgText, box);
    }
    frame.addEventListener("click", open);
    frame.addEventListener("keydown", open);
  }

  function bound(result, text) {
    var box = viewBox(result.svg);
    return {
      svg: result.svg,
      fn: function (shadow) {
        if (result.fn) result.fn(shadow);
        bind(shadow, result.svg, box, text);
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
      return near(chartOf(text)).then(load).then(function (real) {
        return real.render(id, text).then(function (first) {
          var alt = otherDirection(text);
          var box = viewBox(first.svg);
          if (!alt || !box || box.w * MIN_SCALE <= column()) return bound(first, text);
          return real.render(id + "-alt", alt).then(function (second) {
            var other = viewBox(second.svg);
            return other && other.w < box.w ? bound(second, alt) : bound(first, text);
          }, function () { return bound(first, text); });
        });
      });
    }
  };
  window.mermaid = shim;
})();
