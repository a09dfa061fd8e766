// saikoro dice roller: the page side. A classic script on every page, kept small: it loads
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
(function () {
  "use strict";
  if (window.saikoroRoller) return;

  const CONFIG = Object.assign(
    {
      policy: "intent",
      version: "",
      loadTimeout: 120000,
      rollTimeout: 10000,
      maxLength: 500,
      runtime: { bytes: 0, download: 0 },
      engine: {},
      serviceWorker: null,
      offlineBytes: 0,
    },
    /*@saikoro-config*/null
  );
  const script =
    document.currentScript || document.querySelector('script[src*="assets/saikoro/roller.js"]');
  const BASE = new URL(".", script ? script.src : location.href);
  const ROOT = new URL("../../", BASE); // the site root: roller.js is in assets/saikoro/
  const RUNTIME_URL = new URL("micropython/", BASE).href;
  const VERSION = CONFIG.version ? "?v=" + encodeURIComponent(CONFIG.version) : "";
  const HISTORY = 5;
  const CHIPS = 12;

  // A size as the reader reads it: "0.3 MB", "2.4 MB", "850 kB".
  function size(bytes) {
    if (bytes >= 1e6) return (bytes / 1e6).toFixed(1) + " MB";
    return Math.max(1, Math.round(bytes / 1e3)) + " kB";
  }

  const MSG = {
    loading: "ダイスエンジンを読み込み中…",
    starting: "エンジンを準備中…",
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
    badLink: "この共有リンクは読み取れません（",
    badLinkEnd: "）。リンクが途中で切れているか、書き換えられています。",
    linkOptions: "ルールオプションの形式が正しくありません",
    linkDice: "ダイスの目の形式が正しくありません",
    linkSystem: "このサイトにないシステムです",
    linkCommand: "コマンドが空か長すぎます",
    offlineOffer: "オフライン用に保存",
    offlineOfferTitle: "このサイトの全ページとダイスエンジンをこの端末に保存します（通信がなくても開けて、振れます）",
    offlineSaving: "オフライン用に保存中…",
    offlineReady: "この端末に保存済み：通信がなくても開けて、振れます",
    offlineEngine: "ダイスエンジンはこの端末に保存済み（通信がなくても振れます）",
    offlinePartial: "一部のファイルを保存できませんでした（通信が戻れば次に開いたとき保存します）",
  };

  // ---- values read from links, storage and attributes: checked, never trusted ----------
  const OPTION_KEYS = 64;
  const OPTION_TEXT = 4000;
  const MAX_DICE = 10000;

  // A JSON text of ruling options as the canonical text the worker reads ("" for none), or
  // null when it is not a flat object of short strings, finite numbers and booleans.
  function cleanOptions(text) {
    if (text === null || text === undefined || text === "") return "";
    if (typeof text !== "string" || text.length > OPTION_TEXT) return null;
    let value;
    try {
      value = JSON.parse(text);
    } catch (_) {
      return null; // not JSON (or nested beyond what the parser takes)
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) return null;
    const keys = Object.keys(value);
    if (keys.length > OPTION_KEYS) return null;
    for (const k of keys) {
      const v = value[k];
      const ok =
        typeof v === "boolean" ||
        (typeof v === "number" && Number.isFinite(v)) ||
        (typeof v === "string" && v.length <= 200);
      if (!ok || k.length > 100) return null;
    }
    return keys.length ? JSON.stringify(value) : "";
  }

  // Dice to replay as [[sides, value], ...], or null when the list is not one.
  function cleanDice(list) {
    if (!Array.isArray(list) || list.length > MAX_DICE) return null;
    for (const d of list) {
      if (!Array.isArray(d) || d.length !== 2) return null;
      const [sides, value] = d;
      if (!Number.isSafeInteger(sides) || !Number.isSafeInteger(value)) return null;
      if (sides < 1 || value < 1 || value > sides) return null;
    }
    return list.map((d) => [d[0], d[1]]);
  }

  function readJSON(storage, key) {
    try {
      const text = storage.getItem(key);
      return text ? JSON.parse(text) : null;
    } catch (_) {
      return null; // storage disabled, or not JSON: as if nothing were kept
    }
  }

  function writeJSON(storage, key, value) {
    try {
      storage.setItem(key, JSON.stringify(value));
    } catch (_) {
      // storage full or disabled: the value is simply not kept
    }
  }

  // ---- the engine (one worker per visit) -------------------------------------------------
  let worker = null;
  let state = "idle"; // idle | loading | ready | failed
  let failure = "";
  let loadTimer = 0;
  let nextId = 1;
  const pending = new Map(); // id -> {resolve, timer}
  const timings = { loadStarted: null, ready: null, workerReadyMs: null, phases: null };
  const progress = { loaded: 0, total: 0, download: 0 };

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

  // Loading outputs show how far the download has come (a <progress> bar; the text says
  // "preparing" once every byte is in and MicroPython starts).
  function showProgress() {
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

  function onMessage(event) {
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
  function pageSystems() {
    const systems = new Set();
    document.querySelectorAll(".saikoro-roller[data-system], .saikoro-grid[data-system]").forEach((el) => {
      const system = el.getAttribute("data-system");
      if (system && CONFIG.engine[system]) systems.add(system);
    });
    document.querySelectorAll(".saikoro-free .saikoro-system").forEach((select) => {
      if (select.value && CONFIG.engine[select.value]) systems.add(select.value);
    });
    return [...systems];
  }

  function bundleBytes(systems) {
    return ["core", ...systems].reduce((sum, name) => sum + ((CONFIG.engine[name] || {}).bytes || 0), 0);
  }

  // What the loading text says: how much there is to download (about 0.3 MB).
  function loadingText() {
    return progress.download ? MSG.loading.replace("…", "（" + size(progress.download) + "）…") : MSG.loading;
  }

  function load() {
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

  function closest(target, selector) {
    return target && target.closest ? target.closest(selector) : null;
  }

  // What a widget rolls. data-options (a scenario's ruling options) belong to the
  // widget's data-system: the free-form roller applies them only while that system is
  // the one chosen in its <select> (or those of the chip it was filled from).
  function request(widget) {
    const options = widget.getAttribute("data-options") || "";
    const own = widget.getAttribute("data-system") || "";
    if (widget.classList.contains("saikoro-free")) {
      const input = widget.querySelector(".saikoro-command");
      const select = widget.querySelector(".saikoro-system");
      const system = select ? select.value : "";
      const command = input ? input.value.trim() : "";
      const chip = widget.saikoroChip;
      if (chip && chip.command === command && chip.system === system) {
        return { command, system, options: chip.options };
      }
      return { command, system, options: system && system === own ? options : "" };
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
  function stored(widget) {
    return !widget.classList.contains("saikoro-inline");
  }
  function baseKey(widget) {
    if (widget.classList.contains("saikoro-free")) return "free";
    return (widget.getAttribute("data-command") || "") + "|" + (widget.getAttribute("data-system") || "");
  }
  function storeKey(widget) {
    const base = baseKey(widget);
    const same = [...document.querySelectorAll(".saikoro-roller")].filter((w) => stored(w) && baseKey(w) === base);
    return STORE + location.href.split("#")[0] + "|" + base + "|" + same.indexOf(widget);
  }
  function save(widget) {
    if (!stored(widget)) return;
    const entries = [];
    const current = shown.get(widget);
    if (current) entries.push(current);
    widget.querySelectorAll(".saikoro-history li").forEach((li) => li.saikoroEntry && entries.push(li.saikoroEntry));
    writeJSON(sessionStorage, storeKey(widget), entries.slice(0, HISTORY + 1));
  }

  // One kept entry as display() takes it, or null when it is not one (a kept history is
  // data from earlier pages or other scripts: every field is checked).
  function cleanEntry(entry) {
    if (!entry || typeof entry !== "object" || typeof entry.text !== "string") return null;
    if (entry.text.length > 20000) return null;
    const text = (v) => (typeof v === "string" && v.length <= OPTION_TEXT ? v : "");
    const options = cleanOptions(text(entry.options));
    return {
      text: entry.text,
      classes: Array.isArray(entry.classes)
        ? entry.classes.filter((c) => RESULT_CLASSES.includes(c) && c !== "saikoro-loading")
        : [],
      command: text(entry.command),
      system: text(entry.system),
      options: options === null ? "" : options,
      dice: cleanDice(entry.dice),
    };
  }

  function restore(widget) {
    if (widget.saikoroRestored || !stored(widget)) return;
    widget.saikoroRestored = true;
    const entries = readJSON(sessionStorage, storeKey(widget));
    if (!Array.isArray(entries)) return;
    const clean = entries.slice(0, HISTORY + 1).map(cleanEntry).filter(Boolean);
    for (let i = clean.length - 1; i >= 0; i--) display(widget, clean[i], false);
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

  function showError(widget, message) {
    const output = widget.querySelector(".saikoro-output");
    if (!output) return;
    pushHistory(widget);
    output.classList.remove(...RESULT_CLASSES);
    output.classList.add("saikoro-error");
    output.textContent = message;
    save(widget);
  }

  function show(widget, result, request) {
    if (!result.ok) {
      showError(widget, result.message);
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

  function showLoading(widget) {
    const output = widget.querySelector(".saikoro-output");
    if (!output || state === "ready") return;
    output.classList.remove(...RESULT_CLASSES);
    output.classList.add("saikoro-loading");
    output.textContent = loadingText();
    showProgress();
  }

  async function rollWidget(widget, dice) {
    const { command, system, options } = request(widget);
    if (command.trim() && command.length <= CONFIG.maxLength) showLoading(widget);
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

  // ---- odds tables: every cell with a command rolls it, the result under its row ------
  // The grid (.saikoro-grid[data-system]) names the system and ruling options; the result
  // goes to one roller row inserted under the tapped row (moved on the next tap).
  function rollCell(button) {
    const grid = closest(button, ".saikoro-grid");
    const row = closest(button, "tr");
    const command = button.getAttribute("data-command") || "";
    if (!grid || !row || !command) return;
    let holder = grid.saikoroResult;
    if (!holder) {
      holder = document.createElement("tr");
      holder.className = "saikoro-row-result";
      const cell = document.createElement("td");
      const widget = document.createElement("div");
      widget.className = "saikoro-roller saikoro-inline";
      const output = document.createElement("output");
      output.className = "saikoro-output";
      output.setAttribute("aria-live", "polite");
      widget.appendChild(output);
      cell.appendChild(widget);
      holder.appendChild(cell);
      grid.saikoroResult = holder;
    }
    holder.firstChild.colSpan = row.children.length;
    if (row.nextElementSibling !== holder) row.insertAdjacentElement("afterend", holder);
    grid.querySelectorAll(".saikoro-picked").forEach((el) => el.classList.remove("saikoro-picked"));
    button.classList.add("saikoro-picked");
    const widget = holder.querySelector(".saikoro-roller");
    widget.setAttribute("data-command", command);
    for (const name of ["data-system", "data-options"]) {
      const value = grid.getAttribute(name);
      if (value) widget.setAttribute(name, value);
      else widget.removeAttribute(name);
    }
    shown.delete(widget);
    const list = widget.querySelector(".saikoro-history");
    if (list && widget.saikoroCommand !== command) list.remove();
    widget.saikoroCommand = command;
    rollWidget(widget);
  }

  // ---- the reader's own values (per scope: a scenario), kept on the device ---------------
  // A difficulty card's widget carries data-personal: {key, label, example, min, max,
  // template ("GB{}>=8": the command for a value), party: [[value, command] | null, ...]}.
  // A scope's state: {pc: index | null, values: {key: value}} (values set by hand win).
  const ME = "saikoro:me:";

  function personalOf(widget) {
    if (widget.saikoroPersonal !== undefined) return widget.saikoroPersonal;
    let data = null;
    try {
      data = JSON.parse(widget.getAttribute("data-personal") || "null");
    } catch (_) {
      data = null;
    }
    const ok =
      data &&
      typeof data.key === "string" &&
      typeof data.template === "string" &&
      data.template.includes("{}") &&
      Number.isSafeInteger(data.example) &&
      Number.isSafeInteger(data.min) &&
      Number.isSafeInteger(data.max);
    widget.saikoroPersonal = ok ? data : null;
    return widget.saikoroPersonal;
  }

  function scopeOf(el) {
    const holder = closest(el, "[data-scope]");
    return holder ? holder.getAttribute("data-scope") : "";
  }

  function meState(scope) {
    const raw = readJSON(localStorage, ME + scope);
    const clean = { pc: null, values: {} };
    if (!raw || typeof raw !== "object") return clean;
    if (Number.isSafeInteger(raw.pc) && raw.pc >= 0 && raw.pc < 100) clean.pc = raw.pc;
    if (raw.values && typeof raw.values === "object" && !Array.isArray(raw.values)) {
      for (const k of Object.keys(raw.values).slice(0, 50)) {
        if (Number.isSafeInteger(raw.values[k])) clean.values[k] = raw.values[k];
      }
    }
    return clean;
  }

  function setMe(scope, next) {
    writeJSON(localStorage, ME + scope, next);
    applyPersonal();
  }

  // The command a card rolls now, the value shown, and whose value it is.
  function personalCommand(info, me) {
    const own = me.values[info.key];
    if (Number.isSafeInteger(own) && own >= info.min && own <= info.max) {
      return { value: own, command: info.template.split("{}").join(String(own)), whose: "own" };
    }
    const party = Array.isArray(info.party) ? info.party : [];
    const picked = me.pc !== null ? party[me.pc] : null;
    if (Array.isArray(picked) && Number.isSafeInteger(picked[0]) && typeof picked[1] === "string") {
      return { value: picked[0], command: picked[1], whose: "pc" };
    }
    return { value: info.example, command: null, whose: "example" };
  }

  // The name of the PC a scope's reader picked (the party select's text), or "".
  function pcName(scope, me) {
    if (me.pc === null) return "";
    const select = document.querySelector(
      '.saikoro-party[data-scope="' + CSS.escape(scope) + '"] select');
    const option = select && [...select.options].find((o) => o.value === String(me.pc));
    return option ? option.textContent : "";
  }

  function applyPersonal() {
    const states = {};
    const stateOf = (scope) => (states[scope] = states[scope] || meState(scope));
    document.querySelectorAll(".saikoro-party[data-scope]").forEach((box) => {
      const select = box.querySelector("select");
      const me = stateOf(box.getAttribute("data-scope"));
      if (select) select.value = me.pc === null ? "" : String(me.pc);
    });
    document.querySelectorAll(".saikoro-roller[data-personal]").forEach((widget) => {
      const info = personalOf(widget);
      if (!info) return;
      const card = closest(widget, ".saikoro-target") || widget.parentNode;
      const scope = scopeOf(widget);
      const me = stateOf(scope);
      const now = personalCommand(info, me);
      if (!widget.hasAttribute("data-example")) {
        widget.setAttribute("data-example", widget.getAttribute("data-command") || "");
      }
      const command = now.command || widget.getAttribute("data-example");
      if (widget.getAttribute("data-command") !== command) {
        widget.setAttribute("data-command", command);
        const button = widget.querySelector(".saikoro-roll");
        if (button) button.textContent = command;
      }
      const stepper = card.querySelector(".saikoro-stepper");
      if (stepper) {
        const value = stepper.querySelector(".saikoro-step-value");
        if (value) value.textContent = String(now.value);
        stepper.setAttribute("data-whose", now.whose);
        const whose = stepper.querySelector(".saikoro-whose");
        if (whose) {
          whose.textContent = now.whose === "own" ? "あなたの値" : now.whose === "pc" ? pcName(scope, me) : "例";
        }
        stepper.querySelectorAll(".saikoro-step").forEach((b) => {
          const step = Number(b.getAttribute("data-step"));
          b.disabled = (step < 0 && now.value <= info.min) || (step > 0 && now.value >= info.max);
        });
      }
      // the cell the button rolls is marked, and its row's heading
      card.querySelectorAll(".saikoro-grid .saikoro-pick").forEach((cell) => {
        const mine = cell.getAttribute("data-command") === command;
        cell.classList.toggle("saikoro-mine", mine);
        if (mine) cell.setAttribute("aria-current", "true");
        else cell.removeAttribute("aria-current");
      });
      card.querySelectorAll(".saikoro-grid tbody tr").forEach((row) => {
        row.classList.toggle("saikoro-mine-row", Boolean(row.querySelector(".saikoro-mine")));
      });
    });
    fillChips();
  }

  function step(button) {
    const card = closest(button, ".saikoro-target");
    const widget = card && card.querySelector(".saikoro-roller[data-personal]");
    const info = widget && personalOf(widget);
    if (!info) return;
    const scope = scopeOf(widget);
    const me = meState(scope);
    const now = personalCommand(info, me);
    const next = Math.min(info.max, Math.max(info.min, now.value + Number(button.getAttribute("data-step"))));
    me.values[info.key] = next;
    setMe(scope, me);
  }

  function pickPC(select) {
    const scope = scopeOf(select);
    const index = select.value === "" ? null : Number(select.value);
    // a PC's values replace the ones set by hand
    setMe(scope, { pc: Number.isSafeInteger(index) ? index : null, values: {} });
  }

  // ---- own-value rows of a rules page (a dice fence line GB{能力値=3:1..10}>=8) ----------
  // The row carries data-template ("GB{0}>={1}") and data-odds: {labels, odds: {"3,8":
  // [[shown, exact], ...]}}, every combination's chances (in the order of the row's <dd>s)
  // computed at build time, so the row follows its steppers without the engine. The
  // values are kept on the device per system and name: a reader's 能力値 stays theirs.
  const OWN = "saikoro:own:";

  function ownApply(row, values, store) {
    if (row.saikoroOwn === undefined) {
      try {
        row.saikoroOwn = JSON.parse(row.getAttribute("data-odds"));
      } catch (_) {
        row.saikoroOwn = null;
      }
    }
    const info = row.saikoroOwn;
    if (!info || !info.odds) return;
    let command = row.getAttribute("data-template") || "";
    const key = [...row.querySelectorAll(".saikoro-own-steps .saikoro-stepper")].map((s, i) => {
      const low = Number(s.dataset.min);
      const high = Number(s.dataset.max);
      const v = Math.min(high, Math.max(low, Math.round(Number(values[i])) || 0));
      s.querySelector("output").textContent = String(v);
      s.querySelectorAll("button").forEach((b) => (b.disabled = b.dataset.step < 0 ? v <= low : v >= high));
      if (store) writeJSON(localStorage, OWN + (row.dataset.system || "") + ":" + s.dataset.key, v);
      command = command.split("{" + i + "}").join(String(v));
      return v;
    }).join(",");
    const odds = info.odds[key];
    if (!Array.isArray(odds)) return;
    row.setAttribute("data-command", command);
    const widget = row.querySelector(".saikoro-roller");
    if (widget) widget.setAttribute("data-command", command);
    const button = widget && widget.querySelector(".saikoro-roll");
    if (button) button.textContent = command;
    row.querySelectorAll(".saikoro-summary dd > span").forEach((span, i) => {
      const [shown, exact] = Array.isArray(odds[i]) ? odds[i] : ["–", ""];
      const attr = span.classList.contains("saikoro-mean") ? "data-mean" : "data-probability";
      span.textContent = shown;
      span.removeAttribute("data-exact");
      span.removeAttribute("data-exact-mean");
      span.title = exact;
      if (exact) span.setAttribute(attr, exact);
      else span.removeAttribute(attr);
    });
  }

  function ownValues(row, kept) {
    return [...row.querySelectorAll(".saikoro-own-steps .saikoro-stepper")].map((s) => {
      const value = kept ? readJSON(localStorage, OWN + (row.dataset.system || "") + ":" + s.dataset.key) : null;
      return Number.isSafeInteger(value) ? value : Number(s.querySelector("output").textContent);
    });
  }

  function ownStep(button) {
    const row = closest(button, ".saikoro-own");
    const stepper = closest(button, ".saikoro-stepper");
    const values = ownValues(row, false);
    values[[...row.querySelectorAll(".saikoro-own-steps .saikoro-stepper")].indexOf(stepper)] +=
      Number(button.dataset.step);
    ownApply(row, values, true);
    fillChips();
  }

  // ---- the free-form roller: the page's commands as chips, keys for what phones hide ----
  function fillChips() {
    document.querySelectorAll(".saikoro-roller.saikoro-free").forEach((free) => {
      const box = free.querySelector(".saikoro-chips");
      if (!box) return;
      const seen = new Set();
      const chips = [];
      document.querySelectorAll(".saikoro-roller[data-command]").forEach((w) => {
        if (w.classList.contains("saikoro-inline") || chips.length >= CHIPS) return;
        const command = w.getAttribute("data-command") || "";
        const system = w.getAttribute("data-system") || "";
        const id = system + "|" + command;
        if (!command || command.length > 60 || seen.has(id)) return;
        seen.add(id);
        chips.push({ command, system, options: w.getAttribute("data-options") || "" });
      });
      const same = box.saikoroChips && box.saikoroChips.length === chips.length &&
        box.saikoroChips.every((c, i) => c.command === chips[i].command && c.system === chips[i].system);
      if (same) return;
      box.saikoroChips = chips;
      box.textContent = "";
      for (const chip of chips) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "saikoro-chip";
        button.textContent = chip.command;
        button.title = chip.command + " を入れて振る";
        button.saikoroChip = chip;
        box.appendChild(button);
      }
      box.hidden = !chips.length;
    });
  }

  function useChip(button) {
    const widget = closest(button, ".saikoro-roller.saikoro-free");
    const chip = button.saikoroChip;
    if (!widget || !chip) return;
    const input = widget.querySelector(".saikoro-command");
    const select = widget.querySelector(".saikoro-system");
    if (input) input.value = chip.command;
    if (select && [...select.options].some((o) => o.value === chip.system)) select.value = chip.system;
    widget.saikoroChip = chip;
    rollWidget(widget);
  }

  function insertKey(button) {
    const widget = closest(button, ".saikoro-roller.saikoro-free");
    const input = widget && widget.querySelector(".saikoro-command");
    if (!input) return;
    const text = button.getAttribute("data-insert") || "";
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? input.value.length;
    input.setRangeText(text, start, end, "end");
    input.focus();
  }

  // ---- events (delegated on document: widgets of later pages work too) -----------------
  document.addEventListener("click", (event) => {
    const target = event.target;
    const copyButton = closest(target, ".saikoro-copy");
    if (copyButton) {
      const widget = closest(copyButton, ".saikoro-roller");
      if (widget) copy(widget, copyButton);
      return;
    }
    const shareButton = closest(target, ".saikoro-share");
    if (shareButton) {
      const widget = closest(shareButton, ".saikoro-roller");
      if (widget) copy(widget, shareButton, widget.getAttribute("data-share-url") || "");
      return;
    }
    const replayButton = closest(target, ".saikoro-replay");
    if (replayButton) {
      const widget = closest(replayButton, ".saikoro-roller");
      if (widget && replayButton.saikoroShared) replay(widget, replayButton.saikoroShared);
      return;
    }
    const pick = closest(target, ".saikoro-pick");
    if (pick) {
      rollCell(pick);
      return;
    }
    // a row's heading rolls the row when the row has one command
    const heading = closest(target, ".saikoro-grid tbody th[scope=row]");
    if (heading) {
      const picks = heading.parentNode.querySelectorAll(".saikoro-pick");
      if (picks.length === 1) rollCell(picks[0]);
      return;
    }
    const stepButton = closest(target, ".saikoro-step");
    if (stepButton) {
      if (closest(stepButton, ".saikoro-own")) ownStep(stepButton);
      else step(stepButton);
      return;
    }
    const chip = closest(target, ".saikoro-chip");
    if (chip) {
      useChip(chip);
      return;
    }
    const key = closest(target, ".saikoro-key");
    if (key) {
      insertKey(key);
      return;
    }
    const button = closest(target, ".saikoro-roll");
    const widget = button && closest(button, ".saikoro-roller");
    if (widget) rollWidget(widget);
  });

  document.addEventListener("change", (event) => {
    const select = closest(event.target, ".saikoro-party select");
    if (select) pickPC(select);
    // the free-form roller's placeholder is an example of the system chosen
    const system = closest(event.target, ".saikoro-free .saikoro-system");
    const option = system && system.selectedOptions[0];
    const input = option && closest(system, ".saikoro-free").querySelector(".saikoro-command");
    if (input && option.getAttribute("data-example")) input.placeholder = option.getAttribute("data-example");
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing || event.keyCode === 229) return; // IME confirm
    const input = closest(event.target, ".saikoro-command");
    const widget = input && closest(input, ".saikoro-roller");
    if (!widget) return;
    event.preventDefault();
    rollWidget(widget);
  });

  // Anything roll-related touched, pointed at or focused starts the engine (a phone's
  // first tap starts it at the same moment the roll is asked for).
  const ROLL_RELATED = ".saikoro-roller, .saikoro-pick, .saikoro-grid[data-system] th, " +
    ".saikoro-stepper, .saikoro-party, .saikoro-chip";
  function intent(event) {
    if (CONFIG.policy !== "click" && state === "idle" && closest(event.target, ROLL_RELATED)) load();
  }
  document.addEventListener("pointerover", intent, { passive: true });
  document.addEventListener("pointerdown", intent, { passive: true });
  document.addEventListener("touchstart", intent, { passive: true });
  document.addEventListener("focusin", intent);

  // Phones and constrained connections: no engine byte before the reader taps or focuses a
  // roller, whatever the policy says about preloading -- unless the engine is already kept
  // on this device (a later visit), when loading it costs no network.
  function constrained() {
    const connection = navigator.connection || {};
    const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    return Boolean(
      coarse || connection.saveData || /(^|-)2g$|^3g$/.test(connection.effectiveType || ""),
    );
  }
  let DEFERRED = constrained();

  // A share link (#roll=...&dice=...) names a command and the dice it rolled: the same
  // result is replayed, on the widget that rolls that command (or the free-form roller).
  // A link that cannot be read gives {error} (the reader's words), never a roll.
  function sharedRoll() {
    const hash = location.hash.slice(1);
    if (!hash.startsWith("roll=")) return null;
    let params;
    try {
      params = new URLSearchParams(hash);
    } catch (_) {
      return { error: MSG.linkCommand };
    }
    const command = params.get("roll") || "";
    if (!command.trim() || command.length > CONFIG.maxLength) return { error: MSG.linkCommand };
    const options = cleanOptions(params.get("options") || "");
    if (options === null) return { error: MSG.linkOptions };
    const diceText = params.get("dice") || "";
    if (diceText.length > MAX_DICE * 12) return { error: MSG.linkDice };
    const dice = cleanDice(diceText.split(",").filter(Boolean).map((d) => d.split(".").map(Number)));
    if (dice === null) return { error: MSG.linkDice };
    return { command, system: params.get("system") || "", options, dice };
  }

  function knownSystem(system) {
    if (!system) return true;
    return [...document.querySelectorAll(".saikoro-system option")].some((o) => o.value === system) ||
      [...document.querySelectorAll(".saikoro-roller[data-system]")].some((w) => w.getAttribute("data-system") === system);
  }

  function replayTarget(shared) {
    const widgets = [...document.querySelectorAll(".saikoro-roller")];
    const fixed = widgets.find((w) => !w.classList.contains("saikoro-free")
      && w.getAttribute("data-command") === shared.command
      && (w.getAttribute("data-system") || "") === shared.system);
    if (fixed) return fixed;
    const free = widgets.find((w) => w.classList.contains("saikoro-free"));
    if (!free) return null;
    if (shared.error) return free;
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
    showLoading(widget);
    const output = widget.querySelector(".saikoro-output");
    const result = await roll(shared.command, shared.system, shared.options, shared.dice);
    show(widget, result, shared);
    if (output) output.classList.add("saikoro-replayed");
    widget.dispatchEvent(new CustomEvent("saikoro:result", { bubbles: true, detail: result }));
  }

  function offerReplay() {
    let shared = sharedRoll();
    if (!shared) return;
    if (!shared.error && !knownSystem(shared.system)) shared = { error: MSG.linkSystem };
    const widget = replayTarget(shared) || document.querySelector(".saikoro-roller");
    if (!widget || widget.saikoroReplayed) return;
    widget.saikoroReplayed = true;
    if (shared.error) {
      showError(widget, MSG.badLink + shared.error + MSG.badLinkEnd);
      return;
    }
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

  // ---- offline: the service worker at the site root ---------------------------------------
  // Registered after the page has loaded (it fetches its own small script, nothing else).
  // The worker keeps what the page fetches through it; after a roll it keeps the engine's
  // files from the browser's HTTP cache (no second download); the whole book is fetched
  // only when the reader taps the offer 「オフライン用に保存（2.4 MB）」, shown under the free
  // roller and under the first result of a page. Under `mkdocs serve` (serviceWorker: null)
  // a worker left by a built copy of the site on the same origin is removed, so live reload
  // sees fresh pages.
  const offline = (() => {
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
        el.hidden = !text && !canOffer;
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
  function engineKept() {
    if (!window.caches || !CONFIG.serviceWorker) return Promise.resolve(false);
    const wasm = new URL("micropython.wasm", RUNTIME_URL).href;
    return caches.match(wasm, { ignoreSearch: true }).then(Boolean, () => false);
  }

  // ---- loading policy, run for every page (first load and each instant navigation) -----
  let observer = null;

  function scan() {
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
    DEFERRED = false;
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
})();
