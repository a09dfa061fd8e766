// saikoro dice roller: module worker running the engine (saikoro) on MicroPython.
//
// Protocol (messages from the page):
//   {type: "init", runtimeURL, query, hostURL, bundles: {name: url}, systems, total}
//                                           first message: load MicroPython (runtimeURL:
//                                           the folder of micropython.mjs and .wasm, query
//                                           "?v=..." after their names) and
//                                           the engine's bundles for `systems` ("core"
//                                           always); other systems' bundles load when a
//                                           roll first needs them
//   {type: "roll", id, command, system, options, dice}
//                                           answered with {type: "result", id, ...};
//                                           options: "" or a JSON object of the
//                                           system's ruling options (a scenario's rulings);
//                                           dice: "" or JSON [[sides, value], ...] to replay
// Messages to the page: {type: "progress", loaded, total} while the engine's files
// download, {type: "ready", ms, phases} once the engine answers, or {type: "failed",
// message} if it can't load; every roll gets exactly one "result". Rolls posted while
// loading wait for the engine and are answered in order. Options and dice are checked
// here before Python sees them: a reader's message for anything that is not a flat
// object of options or a list of [sides, value] pairs.
//
// Every file is fetched once: the runtime's wasm is requested at once, beside its
// JavaScript, and handed to MicroPython's loader when it asks for it.

let engine = null; // Promise of {roll, warm, ensure}

// ---- download progress: the engine's files are counted as their bytes arrive ------------
const progress = { loaded: 0, total: 0, last: 0 };

function report(force) {
  const now = Date.now();
  if (!force && now - progress.last < 100) return;
  progress.last = now;
  self.postMessage({ type: "progress", loaded: progress.loaded, total: progress.total });
}

function counted(response) {
  if (!response.ok || !response.body || typeof ReadableStream === "undefined") return response;
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        report(true);
        controller.close();
        return;
      }
      progress.loaded += value.byteLength;
      report(false);
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  // the same status and headers (Content-Type: application/wasm for streaming compilation)
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const nativeFetch = self.fetch.bind(self);
const early = new Map(); // URL -> Promise<Response> started before its loader asked

function get(url) {
  return nativeFetch(url).then(counted);
}

// MicroPython's loader fetches micropython.wasm itself: it gets the download started at
// init instead of a second request.
self.fetch = (input, init) => {
  const url = String((input && input.url) || input);
  const started = early.get(url);
  if (started) {
    early.delete(url);
    return started;
  }
  return nativeFetch(input, init);
};

// ---- what the page sends, checked ----------------------------------------------------------
const OPTION_TEXT = 4000;

class Refused extends Error {}

// options: "" or the JSON text of a flat object (strings, finite numbers, booleans)
function checkOptions(text) {
  if (!text) return "";
  if (typeof text !== "string" || text.length > OPTION_TEXT) throw new Refused("ルールオプションが長すぎるか、文字列ではありません");
  let value;
  try {
    value = JSON.parse(text);
  } catch (_) {
    throw new Refused("ルールオプションを読み取れません（JSON のオブジェクトで指定してください）");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new Refused("ルールオプションは JSON のオブジェクトで指定してください");
  }
  for (const [k, v] of Object.entries(value)) {
    const ok = typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v)) || typeof v === "string";
    if (!ok) throw new Refused(`ルールオプション「${k}」の値は文字列・数・真偽値のどれかにしてください`);
  }
  return Object.keys(value).length ? JSON.stringify(value) : "";
}

// dice: "" or the JSON text of [[sides, value], ...] with whole numbers, 1 <= value <= sides
function checkDice(text) {
  if (!text) return "";
  let value;
  try {
    value = JSON.parse(text);
  } catch (_) {
    throw new Refused("再現するダイスの目を読み取れません");
  }
  const ok = Array.isArray(value) && value.length <= 10000 && value.every((d) =>
    Array.isArray(d) && d.length === 2 && d.every(Number.isSafeInteger) && d[0] >= 1 && d[1] >= 1 && d[1] <= d[0]);
  if (!ok) throw new Refused("再現するダイスの目は [面数, 出目] の組の並びで、出目は 1 から面数までです");
  return JSON.stringify(value);
}

// ---- the engine's bundles -------------------------------------------------------------------
// A bundle is gzipped JSON {"files": [[path, text], ...]}: the engine's modules, lowered
// for MicroPython at build time, and the shims they call.
async function fetchBundle(url) {
  const response = await get(url);
  if (!response.ok) throw new Error(`エンジン (${url}) を取得できません: HTTP ${response.status}`);
  const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text()).files;
}

function install(mp, files) {
  for (const [name, text] of files) {
    const path = `/engine/${name}`;
    mp.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    mp.FS.writeFile(path, text);
  }
}

async function start({ runtimeURL, query, hostURL, bundles, systems, total }) {
  const started = performance.now();
  progress.total = Number(total) || 0;
  const wasmURL = new URL("micropython.wasm" + (query || ""), runtimeURL).href;
  early.set(wasmURL, get(wasmURL));
  const wanted = ["core", ...new Set((systems || []).filter((s) => bundles[s]))];
  const loaded = new Map(wanted.map((name) => [name, fetchBundle(bundles[name])]));
  for (const promise of loaded.values()) promise.catch(() => {}); // reported when awaited
  const [{ loadMicroPython }, { hostModule }] = await Promise.all([
    import(new URL("micropython.mjs" + (query || ""), runtimeURL).href),
    import(hostURL),
  ]);
  const mp = await loadMicroPython({ url: wasmURL, heapsize: 8 * 1024 * 1024, pystack: 64 * 1024 });
  mp.registerJsModule("_saikoro_js", hostModule());
  const runtimeReady = performance.now();
  install(mp, await loaded.get("core"));
  mp.runPython("import sys\nsys.path.insert(0, '/engine')\nimport _mp_worker");
  const api = mp.pyimport("_mp_worker");
  const done = performance.now();
  // a system's bundle, installed once (its fetch may have started at init)
  const installed = new Set(["core"]);
  async function ensure(system) {
    const names = !system ? [] : bundles[system] ? [system] : Object.keys(bundles).filter((n) => n !== "core");
    for (const name of names) {
      if (installed.has(name)) continue;
      if (!loaded.has(name)) loaded.set(name, fetchBundle(bundles[name]));
      install(mp, await loaded.get(name));
      installed.add(name);
    }
  }
  await Promise.all(wanted.map((name) => ensure(name === "core" ? "" : name)));
  return {
    roll: (...args) => api.roll(...args),
    warm: (step) => api.warm(step),
    ensure,
    ms: performance.now() - started,
    phases: { runtime: runtimeReady - started, engine: done - runtimeReady },
  };
}

// After the engine is ready: import what this page's rolls will need (the generic
// commands, the systems its widgets name), one part per task so a click in between is
// answered first. Other systems are imported when first used.
function warm(api, systems) {
  const steps = ["generic", ...new Set(systems)];
  const next = () => {
    const step = steps.shift();
    if (step === undefined) return;
    try {
      api.warm(step);
    } catch (error) {
      // Not a refusal (those are answered in Python): a bug of the engine, shown where a
      // developer looks; the reader's next roll reports it as 内部エラー.
      console.error("saikoro: warming", step, error);
    }
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

function answer(id, payload) {
  self.postMessage({ type: "result", id, ...payload });
}

// Rolls are answered one at a time, in the order they came.
let queue = Promise.resolve();

async function rollOne(message) {
  let api;
  try {
    if (!engine) throw new Error("エンジンが初期化されていません");
    api = await engine;
  } catch (error) {
    answer(message.id, { ok: false, message: String((error && error.message) || error) });
    return;
  }
  let options, dice;
  try {
    options = message.system ? checkOptions(message.options || "") : "";
    dice = checkDice(message.dice || "");
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    answer(message.id, { ok: false, message: error.message });
    return;
  }
  let reply;
  try {
    await api.ensure(message.system || "");
    reply = JSON.parse(api.roll(String(message.command || ""), message.system || "", options, dice));
  } catch (error) {
    reply = { ok: false, message: `内部エラー: ${(error && error.message) || error}` };
  }
  answer(message.id, reply);
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "init") {
    if (engine) return;
    engine = start(message);
    try {
      const api = await engine;
      self.postMessage({ type: "ready", ms: api.ms, phases: api.phases });
      warm(api, Array.isArray(message.systems) ? message.systems : []);
    } catch (error) {
      self.postMessage({ type: "failed", message: String((error && error.message) || error) });
    }
    return;
  }
  if (message.type !== "roll") return;
  queue = queue.then(() => rollOne(message));
};
