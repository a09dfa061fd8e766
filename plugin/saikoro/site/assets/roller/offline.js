// @ts-check
// Offline: the service worker at the site root and the offer to keep the book.

import { BASE, CONFIG, MSG, ROOT, RUNTIME_URL, size } from "./config.js";
import { state } from "./engine.js";
import { closest } from "./widgets.js";

// ---- offline: the service worker at the site root ---------------------------------------
// Registered after the page has loaded (it fetches its own small script, nothing else).
// The worker keeps what the page fetches through it; after a roll it keeps the engine's
// files from the browser's HTTP cache (no second download); the whole book is fetched
// only when the reader taps the offer 「オフライン用に保存（2.4 MB）」, shown under the free
// roller and under the first result of a page. Under `mkdocs serve` (serviceWorker: null)
// a worker left by a built copy of the site on the same origin is removed, so live reload
// sees fresh pages.
export const offline = (() => {
  const status = { state: "off", engine: false, site: false, done: 0, total: 0, failed: 0 };
  const supported = "serviceWorker" in navigator && window.isSecureContext;
  let registration = null;
  let asked = { engine: false, site: false };

  function offerText() {
    return MSG.offlineOffer + (CONFIG.offlineBytes ? "（" + size(CONFIG.offlineBytes) + "）" : "");
  }

  function label() {
    document.querySelectorAll(".saikoro-offline").forEach((el) => {
      let text = "";
      if (status.site) text = MSG.offlineReady;
      else if (status.state === "saving") text = MSG.offlineSaving + " " + status.done + " / " + status.total;
      if (status.failed && status.state !== "saving") text += (text ? "。" : "") + MSG.offlinePartial;
      const canOffer = !status.site && status.state !== "saving" && registration;
      el.textContent = text;
      if (canOffer) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "saikoro-offline-save";
        button.textContent = offerText();
        button.title = MSG.offlineOfferTitle;
        el.appendChild(button);
      }
      /** @type {HTMLElement} */ (el).hidden = !text && !canOffer;
    });
  }

  // After the first result of a page: the offer under the block rolled in (the free
  // roller has its own line).
  function offerAfter(target) {
    if (!registration || status.site || document.querySelector(".saikoro-offline-offer")) return;
    if (closest(target, ".saikoro-free")) return;
    let block = target;
    while (block.parentElement && !block.parentElement.classList.contains("md-typeset")) {
      block = block.parentElement;
    }
    if (!block.parentElement) return;
    const p = document.createElement("p");
    p.className = "saikoro-offline saikoro-offline-offer";
    p.setAttribute("aria-live", "polite");
    block.insertAdjacentElement("afterend", p);
    label();
  }

  function post(scope) {
    const target = (navigator.serviceWorker && navigator.serviceWorker.controller) ||
      (registration && registration.active);
    if (!target) return false;
    target.postMessage({ type: "warm", scope });
    return true;
  }

  function warm(scope) {
    if (asked[scope]) return;
    if (post(scope)) asked[scope] = true;
  }

  // The engine just loaded: the worker keeps its files (from the HTTP cache: no network).
  function engineReady() {
    if (registration && !status.engine) warm("engine");
  }

  function onMessage(event) {
    const data = event.data || {};
    if (data.type !== "saikoro-offline") return;
    status.done = Number(data.done) || 0;
    status.total = Number(data.total) || 0;
    status.failed = Number(data.failed) || 0;
    if (data.finished) {
      if (!status.failed) status[data.scope === "site" ? "site" : "engine"] = true;
      if (data.scope === "site" && !status.failed) status.engine = true;
      if (data.scope === "site") asked.site = false; // a failed save may be tapped again
      status.state = "ready";
    } else if (data.scope === "site") {
      status.state = "saving";
    }
    label();
    document.dispatchEvent(new CustomEvent("saikoro:offline", { detail: Object.assign({}, status) }));
  }

  function remove() {
    if (window.caches && window.isSecureContext) {
      caches.keys().then((names) => {
        names.filter((n) => n.startsWith("saikoro-")).forEach((n) => caches.delete(n));
      }, () => {});
    }
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.getRegistrations().then((all) => {
      const ours = all.filter((r) => {
        const worker = r.active || r.waiting || r.installing;
        return worker && new URL(worker.scriptURL).pathname.endsWith("/saikoro-sw.js");
      });
      return Promise.all(ours.map((r) => r.unregister())).then((gone) => {
        // a page an old worker served is stale: load it once more from the server
        if (gone.some(Boolean) && navigator.serviceWorker.controller && !sessionStorage.getItem("saikoro:sw-gone")) {
          sessionStorage.setItem("saikoro:sw-gone", "1");
          location.reload();
        }
      });
    }, () => {});
  }

  // What an earlier visit kept (the worker marks a scope complete in its cache).
  function kept() {
    const mark = (scope) => caches.match(new URL("__saikoro/complete-" + scope, ROOT).href).then(Boolean, () => false);
    return Promise.all([mark("engine"), mark("site")]).then(([engine, site]) => {
      status.engine = status.engine || engine || site;
      status.site = status.site || site;
    });
  }

  function start() {
    if (!CONFIG.serviceWorker) {
      status.state = "off";
      remove();
      return;
    }
    if (!supported) {
      status.state = "unsupported";
      return;
    }
    navigator.serviceWorker.addEventListener("message", onMessage);
    document.addEventListener("click", (event) => {
      if (!closest(event.target, ".saikoro-offline-save")) return;
      status.state = "saving";
      status.failed = 0;
      label();
      warm("site");
    });
    document.addEventListener("saikoro:result", (event) => offerAfter(event.target));
    const register = () => {
      navigator.serviceWorker
        .register(new URL(CONFIG.serviceWorker, BASE).href, { scope: ROOT.href, updateViaCache: "none" })
        .then((r) => {
          registration = r;
          status.state = "registered";
          return navigator.serviceWorker.ready;
        })
        .then((r) => {
          registration = r;
          status.state = "active";
          return kept();
        })
        .then(() => {
          label();
          if (state === "ready") engineReady();
        })
        .catch((error) => {
          status.state = "failed";
          status.error = String((error && error.message) || error);
        });
    };
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
    window.addEventListener("appinstalled", () => warm("site"));
  }

  return { start, engineReady, label, status, warm };
})();

// Whether this device keeps the engine already (a later visit): then loading it costs no
// network.
export function engineKept() {
  if (!window.caches || !CONFIG.serviceWorker) return Promise.resolve(false);
  const wasm = new URL("micropython.wasm", RUNTIME_URL).href;
  return caches.match(wasm, { ignoreSearch: true }).then(Boolean, () => false);
}
