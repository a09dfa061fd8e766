// The browser's dice engine in Node.js: the pinned MicroPython WebAssembly port (the same
// micropython.wasm the roller's worker loads), the engine's bundles as a site ships them,
// the worker's JavaScript helpers (mphost.mjs) and its Python side (_mp_worker.roll).
//
//   node driver.mjs REQUEST.json
//
// REQUEST: {"runtime": dir of micropython.mjs, "host": path of mphost.mjs,
//           "bundles": [paths of engine bundles (.gz), the core's first],
//           "cases": [[command, system, options, dice], ...]}
// Prints one JSON line per case: the text _mp_worker.roll answers (itself JSON).
import fs from "fs";
import path from "path";
import zlib from "zlib";
import { pathToFileURL } from "url";

const request = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const { loadMicroPython } = await import(pathToFileURL(path.join(request.runtime, "micropython.mjs")).href);
const { hostModule } = await import(pathToFileURL(request.host).href);
const mp = await loadMicroPython({ heapsize: 8 * 1024 * 1024, pystack: 64 * 1024 });
mp.registerJsModule("_saikoro_js", hostModule());
function install(bundle) {
  const { files } = JSON.parse(zlib.gunzipSync(fs.readFileSync(bundle)).toString("utf8"));
  for (const [name, text] of files) {
    const file = `/engine/${name}`;
    mp.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    mp.FS.writeFile(file, text);
  }
}
// as the worker does: the core bundle, the worker's Python, then the systems' bundles
const [core, ...systems] = request.bundles;
install(core);
mp.runPython("import sys\nsys.path.insert(0, '/engine')\nimport _mp_worker");
for (const bundle of systems) install(bundle);
const api = mp.pyimport("_mp_worker");
const out = [];
for (const [command, system, options, dice] of request.cases) {
  let answer;
  try {
    answer = api.roll(command, system || "", options || "", dice || "");
  } catch (error) {
    answer = JSON.stringify({ ok: false, message: `JS: ${(error && error.message) || error}` });
  }
  out.push(answer);
}
process.stdout.write(out.join("\n") + "\n");
