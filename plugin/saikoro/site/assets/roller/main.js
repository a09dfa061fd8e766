// @ts-check
// saikoro dice roller: the page side. One classic script on every page (these modules,
// bundled by saikoro.site._roller.roller_script), kept small: it loads
// nothing until a page has a roller (.saikoro-roller) and the loading policy says so.
// The engine runs in one module Web Worker (worker.js) kept for the whole visit, so it
// survives mkdocs-material's instant navigation. Every URL is derived from this script's
// own URL, so the site works under any sub-path. Everything is bound by event delegation
// on document, or re-run for each page shown (document$), so instant navigation works.
//
// What a reader can do here:
// - tap any roll button, any cell of an odds table (.saikoro-pick: that cell's command),
//   or a chip of the free-form roller (the page's commands);
// - set their own value of an ability once (a stepper on a difficulty card, or a PC of
//   the scenario's party): every card of that scope rolls with it and its row is marked;
// - keep rolling offline: a service worker (saikoro-sw.js at the site root) keeps what
//   the page fetched through it, and the whole book when the reader taps
//   「オフライン用に保存（2.4 MB）」 (nothing big is fetched without a tap).
//
// The loading policy, run for every page shown; the page's roller object.

import { BASE, CONFIG } from "./config.js";
import { load, progress, roll, state, timings } from "./engine.js";
import { DEFERRED, offerReplay, undefer } from "./events.js";
import { engineKept, offline } from "./offline.js";
import { ownApply, ownValues } from "./own.js";
import { applyPersonal } from "./personal.js";
import { restore } from "./widgets.js";

// ---- loading policy, run for every page (first load and each instant navigation) -----
export let observer = null;

export function scan() {
  if (observer) observer.disconnect();
  const widgets = document.querySelectorAll(".saikoro-roller");
  document.querySelectorAll(".saikoro-own").forEach((row) => ownApply(row, ownValues(row, true), false));
  applyPersonal();
  widgets.forEach(restore);
  offerReplay();
  offline.label();
  if (!widgets.length || state === "loading" || state === "ready") return;
  if (DEFERRED) return; // loads on the first tap or focus (see intent)
  if (CONFIG.policy === "eager") {
    if (state === "idle") load();
  } else if (CONFIG.policy === "visible" && state === "idle") {
    if (!("IntersectionObserver" in window)) {
      load();
      return;
    }
    observer = observer || new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        if (state === "idle") load();
      }
    }, { rootMargin: "200px" });
    widgets.forEach((widget) => observer.observe(widget));
  }
}

if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => scan());
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
else scan();
offline.start();
// A later visit: the engine is kept on the device, so it starts as soon as the page is
// idle (no network, a few seconds of work) and the first tap rolls at once.
engineKept().then((kept) => {
  if (!kept) return;
  undefer();
  const start = () => {
    if (state === "idle" && CONFIG.policy !== "click" && document.querySelector(".saikoro-roller")) load();
  };
  if ("requestIdleCallback" in window) requestIdleCallback(start, { timeout: 2000 });
  else setTimeout(start, 500);
  scan();
});

window.saikoroRoller = {
  load,
  roll,
  config: CONFIG,
  get deferred() {
    return DEFERRED;
  },
  base: BASE.href,
  timings,
  progress,
  offline: offline.status,
  get state() {
    return state;
  },
};
