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
    share: "共有リンク",
    replay: "共有された結果を再現",
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

  function roll(command, system, options, dice) {
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

  const shown = new WeakMap(); // widget -> {text, classes, command, system, options, dice}

  // A result's text as lines: each result of a repeated roll (`x3 2D6`: "#1\n(2D6) ...",
  // blank line, "#2\n...") is one line; other line breaks are kept (white-space: pre-line).
  function render(el, text) {
    el.textContent = "";
    String(text).split(/\n\n+/).forEach((block) => {
      const line = document.createElement("span");
      line.className = "saikoro-line";
      line.textContent = block.replace(/^(#\d+)\n/, "$1 ");
      el.appendChild(line);
    });
  }

  function historyList(widget) {
    let list = widget.querySelector(".saikoro-history");
    if (!list) {
      list = document.createElement("ol");
      list.className = "saikoro-history";
      list.setAttribute("aria-label", "これまでの結果");
      widget.appendChild(list);
    }
    return list;
  }

  // The result on show moves to the widget's short history (newest first).
  function pushHistory(widget) {
    const last = shown.get(widget);
    if (!last) return;
    shown.delete(widget);
    const list = historyList(widget);
    const item = document.createElement("li");
    render(item, last.text);
    item.saikoroEntry = last;
    if (last.classes.length) item.classList.add(...last.classes);
    list.insertBefore(item, list.firstChild);
    while (list.children.length > HISTORY) list.removeChild(list.lastChild);
  }

  function ensureButton(widget, output, cls, label, title) {
    if (widget.querySelector("." + cls)) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = cls;
    button.textContent = label;
    button.title = title;
    const after = widget.querySelector(".saikoro-copy") || output;
    after.insertAdjacentElement("afterend", button);
  }

  // ---- history kept for the visit (sessionStorage), per page and widget --------------
  const STORE = "saikoro:rolls:";
  function baseKey(widget) {
    if (widget.classList.contains("saikoro-free")) return "free";
    return (widget.getAttribute("data-command") || "") + "|" + (widget.getAttribute("data-system") || "");
  }
  function storeKey(widget) {
    const base = baseKey(widget);
    const same = [...document.querySelectorAll(".saikoro-roller")].filter((w) => baseKey(w) === base);
    return STORE + location.href.split("#")[0] + "|" + base + "|" + same.indexOf(widget);
  }
  function save(widget) {
    const entries = [];
    const current = shown.get(widget);
    if (current) entries.push(current);
    widget.querySelectorAll(".saikoro-history li").forEach((li) => li.saikoroEntry && entries.push(li.saikoroEntry));
    try {
      sessionStorage.setItem(storeKey(widget), JSON.stringify(entries.slice(0, HISTORY + 1)));
    } catch (_) {
      // storage full or disabled: the history is simply not kept
    }
  }
  function restore(widget) {
    if (widget.saikoroRestored) return;
    widget.saikoroRestored = true;
    let entries = null;
    try {
      entries = JSON.parse(sessionStorage.getItem(storeKey(widget)) || "null");
    } catch (_) {
      entries = null;
    }
    if (!Array.isArray(entries)) return;
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i];
      if (entry && typeof entry.text === "string") display(widget, entry, false);
    }
  }

  // ---- share links: #roll=<command>&system=<id>&options=<json>&dice=<sides.value,...> --
  function shareURL(entry) {
    const params = new URLSearchParams();
    params.set("roll", entry.command);
    if (entry.system) params.set("system", entry.system);
    if (entry.options) params.set("options", entry.options);
    params.set("dice", (entry.dice || []).map((d) => d[0] + "." + d[1]).join(","));
    return location.href.split("#")[0] + "#" + params.toString();
  }

  function display(widget, entry, store) {
    const output = widget.querySelector(".saikoro-output");
    if (!output) return;
    pushHistory(widget);
    output.classList.remove(...RESULT_CLASSES);
    output.classList.add(...entry.classes);
    render(output, entry.text);
    shown.set(widget, entry);
    ensureButton(widget, output, "saikoro-copy", MSG.copy, "結果をクリップボードにコピー");
    if (entry.command && entry.dice) {
      ensureButton(widget, output, "saikoro-share", MSG.share, "この結果を再現するリンクをコピー");
      widget.setAttribute("data-share-url", shareURL(entry));
    }
    if (store) save(widget);
  }

  function show(widget, result, request) {
    const output = widget.querySelector(".saikoro-output");
    if (!output) return;
    if (!result.ok) {
      pushHistory(widget);
      output.classList.remove(...RESULT_CLASSES);
      output.classList.add("saikoro-error");
      output.textContent = result.message;
      save(widget);
      return;
    }
    const entry = {
      text: result.text,
      classes: classesOf(result),
      command: request.command,
      system: request.system || "",
      options: request.options || "",
      dice: result.dice || null,
    };
    display(widget, entry, true);
  }

  async function rollWidget(widget, dice) {
    const { command, system, options } = request(widget);
    const output = widget.querySelector(".saikoro-output");
    if (state !== "ready" && command.trim() && command.length <= CONFIG.maxLength && output) {
      output.classList.remove(...RESULT_CLASSES);
      output.classList.add("saikoro-loading");
      output.textContent = MSG.loading;
    }
    widget.setAttribute("aria-busy", "true");
    const result = await roll(command, system, options, dice);
    widget.removeAttribute("aria-busy");
    show(widget, result, { command, system, options });
    widget.dispatchEvent(new CustomEvent("saikoro:result", { bubbles: true, detail: result }));
  }

  async function copy(widget, button, text) {
    if (text === undefined) {
      const entry = shown.get(widget);
      const output = widget.querySelector(".saikoro-output");
      text = entry ? entry.text : output ? output.textContent : "";
    }
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
    const label = button.textContent;
    button.textContent = ok ? MSG.copied : MSG.copyFailed;
    setTimeout(() => (button.textContent = label), 1500);
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
    const shareButton = closest(event.target, ".saikoro-share");
    if (shareButton) {
      const widget = closest(shareButton, ".saikoro-roller");
      if (widget) copy(widget, shareButton, widget.getAttribute("data-share-url") || "");
      return;
    }
    const replayButton = closest(event.target, ".saikoro-replay");
    if (replayButton) {
      const widget = closest(replayButton, ".saikoro-roller");
      if (widget && replayButton.saikoroShared) replay(widget, replayButton.saikoroShared);
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
  document.addEventListener("pointerdown", intent, { passive: true });
  document.addEventListener("focusin", intent);

  // Phones and constrained connections: no engine byte (13 MB) before the reader taps or
  // focuses a roller, whatever the policy says about preloading.
  function constrained() {
    const connection = navigator.connection || {};
    const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    return Boolean(
      coarse || connection.saveData || /(^|-)2g$|^3g$/.test(connection.effectiveType || ""),
    );
  }
  const DEFERRED = constrained();

  // A share link (#roll=...&dice=...) names a command and the dice it rolled: the same
  // result is replayed, on the widget that rolls that command (or the free-form roller).
  function sharedRoll() {
    const hash = location.hash.slice(1);
    if (!hash.startsWith("roll=")) return null;
    const params = new URLSearchParams(hash);
    const dice = (params.get("dice") || "").split(",").filter(Boolean).map((d) => d.split(".").map(Number));
    if (dice.some((d) => d.length !== 2 || !d.every(Number.isInteger))) return null;
    return {
      command: params.get("roll") || "",
      system: params.get("system") || "",
      options: params.get("options") || "",
      dice,
    };
  }

  function replayTarget(shared) {
    const widgets = [...document.querySelectorAll(".saikoro-roller")];
    const fixed = widgets.find((w) => !w.classList.contains("saikoro-free")
      && w.getAttribute("data-command") === shared.command
      && (w.getAttribute("data-system") || "") === shared.system);
    if (fixed) return fixed;
    const free = widgets.find((w) => w.classList.contains("saikoro-free"));
    if (!free) return null;
    const input = free.querySelector(".saikoro-command");
    const select = free.querySelector(".saikoro-system");
    if (input) input.value = shared.command;
    if (select && [...select.options].some((o) => o.value === shared.system)) select.value = shared.system;
    return free;
  }

  async function replay(widget, shared) {
    const prompt = widget.querySelector(".saikoro-replay");
    if (prompt) prompt.remove();
    widget.scrollIntoView({ block: "center" });
    const output = widget.querySelector(".saikoro-output");
    if (output && state !== "ready") {
      output.classList.remove(...RESULT_CLASSES);
      output.classList.add("saikoro-loading");
      output.textContent = MSG.loading;
    }
    const result = await roll(shared.command, shared.system, shared.options, shared.dice);
    show(widget, result, shared);
    if (output) output.classList.add("saikoro-replayed");
    widget.dispatchEvent(new CustomEvent("saikoro:result", { bubbles: true, detail: result }));
  }

  function offerReplay() {
    const shared = sharedRoll();
    if (!shared) return;
    const widget = replayTarget(shared);
    if (!widget || widget.saikoroReplayed) return;
    widget.saikoroReplayed = true;
    if (!DEFERRED) {
      replay(widget, shared);
      return;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "saikoro-replay";
    button.textContent = MSG.replay + "（" + shared.command + "）";
    button.saikoroShared = shared;
    widget.appendChild(button);
  }

  // ---- loading policy, run for every page (first load and each instant navigation) -----
  let observer = null;

  function scan() {
    if (observer) observer.disconnect();
    const widgets = document.querySelectorAll(".saikoro-roller");
    widgets.forEach(restore);
    offerReplay();
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

  window.saikoroRoller = {
    load,
    roll,
    config: CONFIG,
    deferred: DEFERRED,
    base: BASE.href,
    timings,
    get state() {
      return state;
    },
  };
})();
