// saikoro dice roller: the page side. A classic script on every page, kept tiny: it loads
// nothing until a page has a roller (.saikoro-roller) and the loading policy says so.
// The engine runs in one module Web Worker (worker.js) kept for the whole visit, so it
// survives mkdocs-material's instant navigation. Every URL is derived from this script's
// own URL, so the site works under any sub-path.
(function () {
  "use strict";
  if (window.saikoroRoller) return;

  const CONFIG = Object.assign(
    { policy: "visible", pyodideURL: null, version: "", loadTimeout: 120000, rollTimeout: 10000, maxLength: 500 },
    /*@saikoro-config*/null
  );
  const script =
    document.currentScript || document.querySelector('script[src*="assets/saikoro/roller.js"]');
  const BASE = new URL(".", script ? script.src : location.href);
  const PYODIDE_URL = new URL(CONFIG.pyodideURL || "pyodide/", BASE).href;
  const VERSION = CONFIG.version ? "?v=" + encodeURIComponent(CONFIG.version) : "";
  const HISTORY = 5;

  const MSG = {
    loading: "エンジンを読み込み中…",
    unsupported:
      "このブラウザは Web Worker か WebAssembly に対応していないため、ダイスを振れません",
    timeout:
      "ダイスエンジンの読み込みが時間切れになりました（通信が遅いか遮断されています）。もう一度押すと再試行します",
    failed: "ダイスエンジンを読み込めませんでした（オフラインか、通信が遮断されています）: ",
    worker: "ダイスエンジンのワーカーを起動できませんでした（オフラインか、ファイルが見つかりません）",
    rollTimeout: "計算に時間がかかりすぎたため中断しました",
    empty: "コマンドを入力してください",
    tooLong: "コマンドが長すぎます（" + CONFIG.maxLength + "文字まで）",
    copy: "コピー",
    copied: "コピーしました",
    copyFailed: "コピーできませんでした",
  };

  // ---- the engine (one worker per visit) -------------------------------------------------
  let worker = null;
  let state = "idle"; // idle | loading | ready | failed
  let failure = "";
  let loadTimer = 0;
  let nextId = 1;
  const pending = new Map(); // id -> {resolve, timer}
  const timings = { loadStarted: null, ready: null, workerReadyMs: null, phases: null };

  function setState(next) {
    state = next;
    document.documentElement.setAttribute("data-saikoro-engine", next);
  }

  function settleAll(message) {
    for (const [id, entry] of pending) {
      clearTimeout(entry.timer);
      pending.delete(id);
      entry.resolve({ ok: false, message });
    }
  }

  function stopWorker() {
    clearTimeout(loadTimer);
    if (worker) worker.terminate();
    worker = null;
  }

  function fail(message) {
    stopWorker();
    failure = message;
    setState("failed");
    settleAll(message);
  }

  function startRollTimer(id, entry) {
    entry.timer = setTimeout(() => {
      // A runaway computation: stop the worker; the next roll starts a fresh one.
      stopWorker();
      setState("idle");
      settleAll(MSG.rollTimeout);
    }, CONFIG.rollTimeout);
  }

  function onMessage(event) {
    const data = event.data || {};
    if (data.type === "ready") {
      clearTimeout(loadTimer);
      timings.ready = performance.now();
      timings.workerReadyMs = data.ms;
      timings.phases = data.phases;
      setState("ready");
      for (const [id, entry] of pending) startRollTimer(id, entry);
      document.dispatchEvent(new CustomEvent("saikoro:ready"));
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

  function load() {
    if (state === "loading" || state === "ready") return;
    if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") {
      fail(MSG.unsupported);
      return;
    }
    setState("loading");
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
    const systems = new Set();
    document.querySelectorAll(".saikoro-roller[data-system]").forEach((widget) => {
      if (widget.getAttribute("data-system")) systems.add(widget.getAttribute("data-system"));
    });
    worker.postMessage({
      type: "init",
      pyodideURL: PYODIDE_URL,
      engineURL: new URL("engine.zip" + VERSION, BASE).href,
      systems: [...systems],
    });
    loadTimer = setTimeout(() => fail(MSG.timeout), CONFIG.loadTimeout);
  }

  // A system's ruling options as the JSON text the worker reads: "" for none; a JSON
  // string (a widget's data-options) is passed on as it is, an object is serialised.
  function optionsText(options) {
    if (!options) return "";
    if (typeof options === "string") return options;
    return Object.keys(options).length ? JSON.stringify(options) : "";
  }

  function roll(command, system, options) {
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
      });
      if (state === "ready") startRollTimer(id, entry);
    });
  }

  // ---- widgets -------------------------------------------------------------------------
  const RESULT_CLASSES = ["saikoro-success", "saikoro-failure", "saikoro-critical", "saikoro-fumble",
    "saikoro-error", "saikoro-loading"];

  // What a widget rolls. data-options (a scenario's ruling options) belong to the
  // widget's data-system: the free-form roller applies them only while that system is
  // the one chosen in its <select>.
  function request(widget) {
    const options = widget.getAttribute("data-options") || "";
    const own = widget.getAttribute("data-system") || "";
    if (widget.classList.contains("saikoro-free")) {
      const input = widget.querySelector(".saikoro-command");
      const select = widget.querySelector(".saikoro-system");
      const system = select ? select.value : "";
      return {
        command: input ? input.value.trim() : "",
        system,
        options: system && system === own ? options : "",
      };
    }
    return { command: widget.getAttribute("data-command") || "", system: own, options };
  }

  function classesOf(result) {
    if (!result.ok) return ["saikoro-error"];
    const classes = [];
    if (result.success) classes.push("saikoro-success");
    if (result.failure) classes.push("saikoro-failure");
    if (result.critical) classes.push("saikoro-critical");
    if (result.fumble) classes.push("saikoro-fumble");
    return classes;
  }

  const shown = new WeakMap(); // widget -> {text, classes} of the result it shows now

  // The result on show moves to the widget's short history (newest first).
  function pushHistory(widget) {
    const last = shown.get(widget);
    if (!last) return;
    shown.delete(widget);
    let list = widget.querySelector(".saikoro-history");
    if (!list) {
      list = document.createElement("ol");
      list.className = "saikoro-history";
      list.setAttribute("aria-label", "これまでの結果");
      widget.appendChild(list);
    }
    const item = document.createElement("li");
    item.textContent = last.text;
    if (last.classes.length) item.classList.add(...last.classes);
    list.insertBefore(item, list.firstChild);
    while (list.children.length > HISTORY) list.removeChild(list.lastChild);
  }

  function ensureCopy(widget, output) {
    if (widget.querySelector(".saikoro-copy")) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "saikoro-copy";
    button.textContent = MSG.copy;
    button.title = "結果をクリップボードにコピー";
    output.insertAdjacentElement("afterend", button);
  }

  function show(widget, result) {
    const output = widget.querySelector(".saikoro-output");
    if (!output) return;
    const classes = classesOf(result);
    pushHistory(widget);
    output.classList.remove(...RESULT_CLASSES);
    output.classList.add(...classes);
    output.textContent = result.ok ? result.text : result.message;
    if (result.ok) {
      shown.set(widget, { text: result.text, classes });
      ensureCopy(widget, output);
    }
  }

  async function rollWidget(widget) {
    const { command, system, options } = request(widget);
    const output = widget.querySelector(".saikoro-output");
    if (state !== "ready" && command.trim() && command.length <= CONFIG.maxLength && output) {
      output.classList.remove(...RESULT_CLASSES);
      output.classList.add("saikoro-loading");
      output.textContent = MSG.loading;
    }
    widget.setAttribute("aria-busy", "true");
    const result = await roll(command, system, options);
    widget.removeAttribute("aria-busy");
    show(widget, result);
    widget.dispatchEvent(new CustomEvent("saikoro:result", { bubbles: true, detail: result }));
  }

  async function copy(widget, button) {
    const output = widget.querySelector(".saikoro-output");
    const text = output ? output.textContent : "";
    let ok = true;
    try {
      await navigator.clipboard.writeText(text);
    } catch (_) {
      const area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      try {
        ok = document.execCommand("copy");
      } catch (_) {
        ok = false;
      }
      area.remove();
    }
    button.textContent = ok ? MSG.copied : MSG.copyFailed;
    setTimeout(() => (button.textContent = MSG.copy), 1500);
  }

  function closest(target, selector) {
    return target && target.closest ? target.closest(selector) : null;
  }

  // Event delegation on document: works for widgets added later (instant navigation).
  document.addEventListener("click", (event) => {
    const copyButton = closest(event.target, ".saikoro-copy");
    if (copyButton) {
      const widget = closest(copyButton, ".saikoro-roller");
      if (widget) copy(widget, copyButton);
      return;
    }
    const button = closest(event.target, ".saikoro-roll");
    const widget = button && closest(button, ".saikoro-roller");
    if (widget) rollWidget(widget);
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing || event.keyCode === 229) return; // IME confirm
    const input = closest(event.target, ".saikoro-command");
    const widget = input && closest(input, ".saikoro-roller");
    if (!widget) return;
    event.preventDefault();
    rollWidget(widget);
  });

  function intent(event) {
    if (CONFIG.policy !== "click" && state === "idle" && closest(event.target, ".saikoro-roller")) load();
  }
  document.addEventListener("pointerover", intent, { passive: true });
  document.addEventListener("focusin", intent);

  // ---- loading policy, run for every page (first load and each instant navigation) -----
  let observer = null;

  function scan() {
    if (observer) observer.disconnect();
    const widgets = document.querySelectorAll(".saikoro-roller");
    if (!widgets.length || state === "loading" || state === "ready") return;
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

  window.saikoroRoller = {
    load,
    roll,
    config: CONFIG,
    base: BASE.href,
    timings,
    get state() {
      return state;
    },
  };
})();
