// saikoro dice roller: module worker running the engine (saikoro) on Pyodide.
//
// Protocol (messages from the page):
//   {type: "init", pyodideURL, engineURL, systems}  first message: load Pyodide and the
//                                           engine; then warm up `systems` (ids) first
//   {type: "roll", id, command, system, options, dice}
//                                           answered with {type: "result", id, ...};
//                                           options: "" or a JSON object of the
//                                           system's ruling options (a scenario's rulings);
//                                           dice: "" or JSON [[sides, value], ...] to replay
// Messages to the page: {type: "progress", loaded, total} while the engine's files
// download (bytes of the files fetched: Pyodide's wasm, standard library and lock file,
// and engine.zip), {type: "ready", ms} once the engine answers, or {type: "failed",
// message} if it can't load; every roll gets exactly one "result". Rolls posted while
// loading wait for the engine and are answered in order. Options and dice are checked
// here before Python sees them: a reader's message for anything that is not a flat
// object of options or a list of [sides, value] pairs (a deeply nested share link must
// never reach Python's JSON parser, whose recursion would overflow the wasm stack).

const PYTHON = `
import json, sys
sys.path.insert(0, "/saikoro-engine")
import saikoro
from saikoro.dice import DiceError
from saikoro.systems import OptionError, UnknownSystemError

def _flags(result):
    return {
        "ok": True,
        "text": result.text,
        "command": result.command,
        "success": bool(result.success),
        "failure": bool(result.failure),
        "critical": bool(result.critical),
        "fumble": bool(result.fumble),
        "secret": bool(result.secret),
        "dice": [list(die) for die in result.dice],
    }

_systems = {}

class _Refused(Exception):
    """A request the engine cannot take, said in the reader's words."""

def _configured(system, options):
    """The system with its ruling options, made once per (system, options) and kept."""
    if not system:
        return None
    key = (system, options)
    found = _systems.get(key)
    if found is None:
        chosen = json.loads(options) if options else {}
        if not isinstance(chosen, dict):
            raise _Refused("ルールオプションは JSON のオブジェクトで指定してください")
        try:
            found = saikoro.get_system(system, **chosen)
        except UnknownSystemError as error:
            raise _Refused(f"システム「{system}」はありません（{error}）") from error
        except OptionError as error:
            raise _Refused(f"このシステムでは使えないルールオプションです（{error}）") from error
        if len(_systems) >= 64:
            _systems.clear()
        _systems[key] = found
    return found

def saikoro_roll(command, system, options="", dice=""):
    # dice: "" or a JSON list of [sides, value] pairs to replay (a shared roll)
    try:
        given = [(int(s), int(v)) for s, v in json.loads(dice)] if dice else None
        result = saikoro.roll(command, system=_configured(system, options), dice=given)
    except (DiceError, ValueError, _Refused) as error:
        return json.dumps({"ok": False, "message": str(error)}, ensure_ascii=False)
    except Exception as error:
        return json.dumps(
            {"ok": False, "message": f"内部エラー: {type(error).__name__}: {error}"},
            ensure_ascii=False,
        )
    if result is None:
        return json.dumps({"ok": False, "message": "コマンドとして認識できません"}, ensure_ascii=False)
    return json.dumps(_flags(result), ensure_ascii=False)

def saikoro_warm(step):
    """Import one more part of the engine; the step names: "generic" or a system id."""
    try:
        if step == "generic":
            saikoro.roll("1D6")
        else:
            saikoro.systems.get(step)
    except Exception:
        pass

saikoro_roll
`;

let engine = null; // Promise of the Python roll function

// ---- download progress: the engine's files are counted as their bytes arrive ------------
const progress = { loaded: 0, total: 0, last: 0, watched: [] };

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
self.fetch = async (input, init) => {
  const response = await nativeFetch(input, init);
  const url = String((input && input.url) || input);
  return progress.watched.some((prefix) => url.startsWith(prefix)) ? counted(response) : response;
};

// ---- what the page sends, checked ----------------------------------------------------------
const OPTION_TEXT = 4000;

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

class Refused extends Error {}

async function fetchEngine(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`エンジン (${url}) を取得できません: HTTP ${response.status}`);
  }
  return response.arrayBuffer();
}

// The engine zip's files as [path, bytes], inflated in JavaScript while Pyodide loads;
// null when that is not possible (no DecompressionStream, unexpected zip features).
async function readZip(buffer) {
  if (typeof DecompressionStream === "undefined") return null;
  const view = new DataView(buffer);
  let end = buffer.byteLength - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  const files = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) return null;
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(new Uint8Array(buffer, at + 46, nameLength));
    at += 46 + nameLength + skip;
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = new Uint8Array(buffer, data, size);
    if (name.endsWith("/")) continue;
    if (method === 0) files.push([name, raw]);
    else if (method === 8) {
      const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
      files.push([name, new Uint8Array(await new Response(stream).arrayBuffer())]);
    } else return null;
  }
  return files;
}

function install(pyodide, buffer, files) {
  if (!files) {
    pyodide.unpackArchive(buffer, "zip", { extractDir: "/saikoro-engine" });
    return;
  }
  for (const [name, bytes] of files) {
    const path = `/saikoro-engine/${name}`;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, bytes);
  }
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
    } catch (_) {
      // warming is only an optimisation
    }
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

async function start({ pyodideURL, engineURL, total }) {
  const started = performance.now();
  progress.total = Number(total) || 0;
  progress.watched = [pyodideURL, engineURL.split("?")[0]];
  // The engine zip downloads and is inflated while Pyodide starts; writing its files is
  // then ~1 ms, where pyodide.unpackArchive (the fallback) runs Python's zipfile (~40 ms).
  const zip = fetchEngine(engineURL).then(async (buffer) => {
    let files = null;
    try {
      files = await readZip(buffer);
    } catch (_) {
      files = null;
    }
    return [buffer, files];
  });
  zip.catch(() => {}); // reported through Promise.all below
  const { loadPyodide } = await import(`${pyodideURL}pyodide.mjs`);
  const [pyodide, [buffer, files]] = await Promise.all([
    loadPyodide({ indexURL: pyodideURL, packages: [], fullStdLib: false }),
    zip,
  ]);
  const loaded = performance.now();
  install(pyodide, buffer, files);
  const roll = pyodide.runPython(PYTHON);
  const warm = pyodide.globals.get("saikoro_warm");
  const done = performance.now();
  return { roll, warm, ms: done - started, phases: { pyodide: loaded - started, engine: done - loaded } };
}

function answer(id, payload) {
  self.postMessage({ type: "result", id, ...payload });
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "init") {
    if (engine) return;
    engine = start(message);
    try {
      const api = await engine;
      self.postMessage({ type: "ready", ms: api.ms, phases: api.phases });
      // Rolls queued during loading are answered first: their continuations are
      // microtasks, warming runs in later tasks.
      warm(api, Array.isArray(message.systems) ? message.systems : []);
    } catch (error) {
      self.postMessage({ type: "failed", message: String((error && error.message) || error) });
    }
    return;
  }
  if (message.type !== "roll") return;
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
    reply = JSON.parse(api.roll(String(message.command || ""), message.system || "", options, dice));
  } catch (error) {
    reply = { ok: false, message: `内部エラー: ${(error && error.message) || error}` };
  }
  answer(message.id, reply);
};
