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
// Messages to the page: {type: "ready", ms} once the engine answers, or
// {type: "failed", message} if it can't load; every roll gets exactly one "result".
// Rolls posted while loading wait for the engine and are answered in order.

const PYTHON = `
import json, sys
sys.path.insert(0, "/saikoro-engine")
import saikoro
from saikoro.dice import DiceError

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

def _configured(system, options):
    """The system with its ruling options, made once per (system, options) and kept."""
    if not system:
        return None
    key = (system, options)
    found = _systems.get(key)
    if found is None:
        chosen = json.loads(options) if options else {}
        if not isinstance(chosen, dict):
            raise ValueError("ルールオプションは JSON のオブジェクトで指定してください")
        found = saikoro.get_system(system, **chosen)
        if len(_systems) >= 64:
            _systems.clear()
        _systems[key] = found
    return found

def saikoro_roll(command, system, options="", dice=""):
    # dice: "" or a JSON list of [sides, value] pairs to replay (a shared roll)
    try:
        given = [(int(s), int(v)) for s, v in json.loads(dice)] if dice else None
        result = saikoro.roll(command, system=_configured(system, options), dice=given)
    except (DiceError, ValueError) as error:
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

async function start({ pyodideURL, engineURL }) {
  const started = performance.now();
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
  let reply;
  try {
    reply = JSON.parse(
      api.roll(message.command, message.system || "", message.options || "", message.dice || ""),
    );
  } catch (error) {
    reply = { ok: false, message: `内部エラー: ${(error && error.message) || error}` };
  }
  answer(message.id, reply);
};
