// @ts-check
// The engine: one module Web Worker per visit, loaded by policy, asked to roll.

import { BASE, CONFIG, MSG, RUNTIME_URL, VERSION, size } from "./config.js";
import { offline } from "./offline.js";

// ---- the engine (one worker per visit) -------------------------------------------------
export let worker = null;
export let state = "idle"; // idle | loading | ready | failed
export let failure = "";
export let loadTimer = 0;
export let nextId = 1;
export const pending = new Map(); // id -> {resolve, timer}
export const timings = { loadStarted: null, ready: null, workerReadyMs: null, phases: null };
export const progress = { loaded: 0, total: 0, download: 0 };

export function setState(next) {
  state = next;
  document.documentElement.setAttribute("data-saikoro-engine", next);
}

export function settleAll(message) {
  for (const [id, entry] of pending) {
    clearTimeout(entry.timer);
    pending.delete(id);
    entry.resolve({ ok: false, message });
  }
}

export function stopWorker() {
  clearTimeout(loadTimer);
  if (worker) worker.terminate();
  worker = null;
}

export function fail(message) {
  stopWorker();
  failure = message;
  setState("failed");
  settleAll(message);
}

export function startRollTimer(_id, entry) {
  entry.timer = setTimeout(() => {
    // A runaway computation: stop the worker; the next roll starts a fresh one.
    stopWorker();
    setState("idle");
    settleAll(MSG.rollTimeout);
  }, CONFIG.rollTimeout);
}

// Loading outputs show how far the download has come (a <progress> bar; the text says
// "preparing" once every byte is in and MicroPython starts).
export function showProgress() {
  const total = progress.total;
  const fraction = total ? Math.min(1, progress.loaded / total) : 0;
  document.querySelectorAll(".saikoro-output.saikoro-loading").forEach((output) => {
    let bar = output.querySelector("progress");
    if (!bar) {
      bar = document.createElement("progress");
      bar.className = "saikoro-progress";
      bar.max = 100;
      bar.setAttribute("aria-label", "ダイスエンジンの読み込み");
      output.appendChild(bar);
    }
    bar.value = Math.round(fraction * 100);
    if (total && fraction >= 1 && output.firstChild && output.firstChild.nodeType === 3) {
      output.firstChild.textContent = MSG.starting;
    }
  });
}

export function onMessage(event) {
  const data = event.data || {};
  if (data.type === "progress") {
    progress.loaded = Number(data.loaded) || 0;
    if (!progress.total && data.total) progress.total = Number(data.total) || 0;
    showProgress();
  } else if (data.type === "ready") {
    clearTimeout(loadTimer);
    timings.ready = performance.now();
    timings.workerReadyMs = data.ms;
    timings.phases = data.phases;
    setState("ready");
    for (const [id, entry] of pending) startRollTimer(id, entry);
    document.dispatchEvent(new CustomEvent("saikoro:ready"));
    offline.engineReady();
  } else if (data.type === "failed") {
    fail(MSG.failed + data.message);
  } else if (data.type === "result") {
    const entry = pending.get(data.id);
    if (!entry) return;
    clearTimeout(entry.timer);
    pending.delete(data.id);
    entry.resolve(data);
  }
}

// The systems this page rolls (their engine bundles load with the engine).
export function pageSystems() {
  const systems = new Set();
  document.querySelectorAll(".saikoro-roller[data-system], .saikoro-grid[data-system]").forEach((el) => {
    const system = el.getAttribute("data-system");
    if (system && CONFIG.engine[system]) systems.add(system);
  });
  /** @type {NodeListOf<HTMLSelectElement>} */ (
    document.querySelectorAll(".saikoro-free .saikoro-system")).forEach((select) => {
    if (select.value && CONFIG.engine[select.value]) systems.add(select.value);
  });
  return [...systems];
}

export function bundleBytes(systems) {
  return ["core", ...systems].reduce((sum, name) => sum + ((CONFIG.engine[name] || {}).bytes || 0), 0);
}

// What the loading text says: how much there is to download (about 0.3 MB).
export function loadingText() {
  return progress.download ? MSG.loading.replace("…", "（" + size(progress.download) + "）…") : MSG.loading;
}

export function load() {
  if (state === "loading" || state === "ready") return;
  if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") {
    fail(MSG.unsupported);
    return;
  }
  setState("loading");
  progress.loaded = 0;
  const wanted = pageSystems();
  progress.total = (CONFIG.runtime.bytes || 0) + bundleBytes(wanted);
  progress.download = (CONFIG.runtime.download || 0) + bundleBytes(wanted);
  timings.loadStarted = performance.now();
  try {
    worker = new Worker(new URL("worker.js" + VERSION, BASE), { type: "module" });
  } catch (error) {
    fail(MSG.failed + ((error && error.message) || error));
    return;
  }
  worker.onmessage = onMessage;
  worker.onerror = (event) => {
    event.preventDefault();
    fail(MSG.worker);
  };
  const systems = pageSystems();
  const bundles = {};
  for (const [name, entry] of Object.entries(CONFIG.engine || {})) {
    bundles[name] = new URL(entry.url, BASE).href;
  }
  worker.postMessage({
    type: "init",
    runtimeURL: RUNTIME_URL,
    query: VERSION,
    hostURL: new URL("mphost.mjs" + VERSION, BASE).href,
    bundles,
    systems,
    total: progress.total,
  });
  loadTimer = setTimeout(() => fail(MSG.timeout), CONFIG.loadTimeout);
}

// A system's ruling options as the JSON text the worker reads: "" for none; a JSON
// string (a widget's data-options) is passed on as it is, an object is serialised.
export function optionsText(options) {
  if (!options) return "";
  if (typeof options === "string") return options;
  return Object.keys(options).length ? JSON.stringify(options) : "";
}

export function roll(command, system, options, dice) {
  command = String(command || "");
  if (!command.trim()) return Promise.resolve({ ok: false, message: MSG.empty });
  if (command.length > CONFIG.maxLength) return Promise.resolve({ ok: false, message: MSG.tooLong });
  load();
  if (state === "failed") return Promise.resolve({ ok: false, message: failure });
  return new Promise((resolve) => {
    const id = nextId++;
    const entry = { resolve, timer: 0 };
    pending.set(id, entry);
    worker.postMessage({
      type: "roll",
      id,
      command,
      system: system || "",
      options: system ? optionsText(options) : "",
      dice: dice ? JSON.stringify(dice) : "",
    });
    if (state === "ready") startRollTimer(id, entry);
  });
}
