/* saikoro: copy an enemy to ココフォリア (the clipboard JSON is the button's data-ccfolia
 * attribute). Event delegation on document, so it keeps working after instant navigation. */
(function () {
  "use strict";
  function say(button, text) {
    var box = button.parentNode && button.parentNode.querySelector(".saikoro-copied");
    if (box) box.textContent = text;
  }
  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.saikoro-ccfolia");
    if (!button) return;
    var text;
    try { text = JSON.stringify(JSON.parse(button.getAttribute("data-ccfolia") || "")); }
    catch (e) { say(button, "データが読めません"); return; }
    var copy = navigator.clipboard && window.isSecureContext
      ? navigator.clipboard.writeText(text) : fallbackCopy(text);
    copy.then(function () { say(button, "コピーしました。ココフォリアの部屋に貼り付けてください。"); },
              function () { say(button, "コピーできませんでした（ブラウザが許可していません）"); });
  });
})();
/* saikoro: exact values kept out of the page (see saikoro/site/_exact.py). An element with
 * data-exact="<key>" gets data-probability="n/d" from the page's <page>.odds.json, fetched
 * once per page on the first hover, focus or opening of an odds element; a long
 * distribution table (<details data-lazy="<key>">) is built from it when opened.
 * `window.saikoroExact.load()` does the same on request (returns a Promise). */
(function () {
  "use strict";
  var cache = {};
  function source() {
    var marker = document.querySelector(".saikoro-exact-src");
    return marker ? new URL(marker.getAttribute("data-src"), location.href).href : null;
  }
  function load() {
    var src = source();
    if (!src) return Promise.resolve(null);
    if (!cache[src]) {
      cache[src] = fetch(src).then(function (r) {
        if (!r.ok) throw new Error(src + ": HTTP " + r.status);
        return r.json();
      }).then(function (data) { fill(data); return data; });
      cache[src].catch(function () { delete cache[src]; });
    }
    return cache[src];
  }
  function fill(data) {
    document.querySelectorAll("[data-exact]").forEach(function (el) {
      var v = data.exact[el.getAttribute("data-exact")];
      if (v) el.setAttribute("data-probability", v);
    });
    document.querySelectorAll("[data-exact-mean]").forEach(function (el) {
      var v = data.exact[el.getAttribute("data-exact-mean")];
      if (v) el.setAttribute("data-mean", v);
    });
  }
  function build(details, data) {
    var spec = data.tables[details.getAttribute("data-lazy")];
    if (!spec || details.querySelector("table")) return;
    var table = document.createElement("table");
    var head = table.createTHead().insertRow();
    spec.head.forEach(function (h) { var th = document.createElement("th"); th.textContent = h; head.appendChild(th); });
    var body = table.createTBody();
    // each value's text is the site's own (spec.shown, written at build time)
    spec.rows.forEach(function (row, r) {
      var tr = body.insertRow();
      row.forEach(function (cell, i) {
        var td = tr.insertCell();
        if (i === 0) { td.textContent = cell; return; }
        if (cell === null) { td.textContent = "–"; return; }
        td.setAttribute("data-probability", cell);
        if (cell.length <= 24) td.title = cell;
        td.textContent = (spec.shown && spec.shown[r] && spec.shown[r][i - 1]) || cell;
      });
    });
    var note = details.querySelector(".saikoro-lazy-note");
    if (note) note.remove();
    details.appendChild(table);
  }
  function wake(event) {
    var t = event.target;
    if (!t || !t.closest || !t.closest(".saikoro-odds, .saikoro-grid, .saikoro-chase, .saikoro-target")) return;
    load().catch(function () {});
  }
  document.addEventListener("pointerover", wake, { passive: true });
  document.addEventListener("focusin", wake);
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.matches || !details.matches("details[data-lazy]") || !details.open) return;
    load().then(function (data) { if (data) build(details, data); }, function () {
      var note = details.querySelector(".saikoro-lazy-note");
      if (note) note.textContent = "表を読み込めませんでした。";
    });
  }, true);
  window.saikoroExact = { load: load };
})();
/* saikoro: the scenario index sorts by a column when its heading is pressed. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("table.saikoro-index th button");
    if (!button) return;
    var th = button.parentNode;
    var table = th.closest("table");
    var column = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.getAttribute("data-type") === "number";
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("th[aria-sort]").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    function key(row) {
      var v = row.cells[column].getAttribute("data-sort") || "";
      return numeric ? (v === "" ? Infinity : Number(v)) : v;
    }
    rows.sort(function (a, b) {
      var x = key(a), y = key(b);
      var c = numeric ? x - y : String(x).localeCompare(String(y), "ja");
      return ascending ? c : -c;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
})();
/* saikoro: accessibility of the theme's own markup (axe-core finds these on every page).
 * The search dialog gets a name; the table of contents' sub-lists are named 「目次：…」
 * (the site's navigation has a group of the same name: the rulings page's 「GETB」 and
 * the book's) and numbered where two headings share a title, as landmarks must be
 * unique (a code block's button bar is numbered too); a box that
 * scrolls sideways can be focused, so a keyboard can scroll it. Runs again after each
 * instant navigation (Material's document$) and when the window is resized. */
(function () {
  "use strict";
  function named() {
    var search = document.querySelector(".md-search[role='dialog']");
    if (search && !search.getAttribute("aria-label")) search.setAttribute("aria-label", "検索");
    document.querySelectorAll("nav.md-code__nav").forEach(function (nav, i) {
      if (!nav.getAttribute("aria-label")) nav.setAttribute("aria-label", "コードの操作（" + (i + 1) + "）");
    });
    document.querySelectorAll(".md-nav--secondary").forEach(function (toc) {
      var count = {};
      toc.querySelectorAll("nav.md-nav[aria-label]").forEach(function (nav) {
        var name = nav.getAttribute("data-saikoro-name") || nav.getAttribute("aria-label");
        nav.setAttribute("data-saikoro-name", name);
        count[name] = (count[name] || 0) + 1;
        nav.setAttribute("aria-label", "目次：" + name + (count[name] > 1 ? "（" + count[name] + "）" : ""));
      });
    });
  }
  var SCROLLERS = ".md-typeset__scrollwrap, .md-typeset pre > code, .saikoro-chase, .saikoro-index-box";
  function focusable() {
    document.querySelectorAll(SCROLLERS).forEach(function (el) {
      var wide = el.scrollWidth > el.clientWidth + 1;
      if (wide && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("data-saikoro-focus", "");
      } else if (!wide && el.hasAttribute("data-saikoro-focus")) {
        el.removeAttribute("tabindex");
        el.removeAttribute("data-saikoro-focus");
      }
    });
  }
  function all() { named(); focusable(); }
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(function () { all(); });
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", all);
  } else {
    all();
  }
  var timer = null;
  window.addEventListener("resize", function () {
    clearTimeout(timer);
    timer = setTimeout(focusable, 200);
  });
})();
/* saikoro: a link to something folded (a rules page's flowchart in a <details>) opens
 * the fold, in every browser, on load and on each navigation to an anchor. */
(function () {
  "use strict";
  function unfold() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    var opened = false;
    for (var el = target && target.parentElement; el; el = el.parentElement) {
      if (el.tagName === "DETAILS" && !el.open) { el.open = true; opened = true; }
    }
    if (opened) target.scrollIntoView();
  }
  window.addEventListener("hashchange", unfold);
  document.addEventListener("click", function (event) {
    var a = event.target.closest && event.target.closest("a[href^='#']");
    if (a) setTimeout(unfold, 0);
  });
  if (location.hash) unfold();
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(function () { if (location.hash) unfold(); });
  }
})();
