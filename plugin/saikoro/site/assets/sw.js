// saikoro service worker: the book and its dice engine kept on the device, so later visits
// roll at once and every page works with the network off. Written at the site root by the
// build (its scope is the whole site, under whatever sub-path the site is published) with
// the build's version: a new build is a new worker and a new cache.
//
// - Nothing is fetched when it installs on a first visit (the page's first bytes stay the
//   page's own). Every file the site serves is kept as it is fetched (cache first: within
//   one version a URL's content never changes).
// - {type: "warm", scope: "engine" | "site"} from a page keeps the engine's files (sent once
//   the reader has rolled: they come from the browser's HTTP cache, where the roll just put
//   them, so nothing is downloaded twice), or every file of the site (only when the reader
//   taps 「オフライン用に保存」, or installs the book as an app); progress goes to the pages
//   as {type: "saikoro-offline", scope, done, total, failed}.
// - A new version keeps what the old cache holds unchanged: each kept file whose content
//   hash equals the new build's (offline.json) moves over, and when the old cache held
//   the whole site (or the engine) the changed files are fetched before the new version
//   takes over, so what worked offline still does. Old caches are then removed.
// - A page shown from the cache is checked against the server in the background: when the
//   server's page no longer says it is an offline build (<meta name="saikoro-offline">:
//   `mkdocs serve`, or a build with offline turned off) the worker removes itself and its
//   caches and reloads its pages, so a kept copy never hides what the server now serves.
const CONFIG = /*@saikoro-sw*/ { version: "dev", manifest: "assets/saikoro/offline.json", engine: [] };
const PREFIX = "saikoro-";
const CACHE = PREFIX + CONFIG.version;
const ROOT = new URL("./", self.location.href);
const OFFLINE_PAGE = `<!doctype html><html lang="ja"><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>オフライン</title>
<body style="font-family:sans-serif;margin:2rem;line-height:1.7">
<h1 style="font-size:1.3rem">オフラインです</h1>
<p>このページはまだこの端末に保存されていません。通信できるときにもう一度開いてください。</p>
<p><a href="${ROOT.href}">トップページへ</a></p></body></html>`;

// The cache key of a request: its URL without query and fragment (`?v=` busts the HTTP
// cache only; `?q=` is a search deep link to the same page).
function key(url) {
  const u = new URL(url);
  u.search = "";
  u.hash = "";
  return u.href;
}

function inScope(url) {
  return url.origin === ROOT.origin && url.href.startsWith(ROOT.href);
}

async function manifest() {
  const response = await fetch(new URL(CONFIG.manifest, ROOT), { cache: "no-store" });
  if (!response.ok) throw new Error(`offline.json: HTTP ${response.status}`);
  const data = await response.json();
  if (!data || typeof data.files !== "object" || data.version !== CONFIG.version) {
    throw new Error("offline.json is not this build's");
  }
  return data.files; // site-relative path -> content hash (sha256, hex, truncated)
}

async function digest(response) {
  const bytes = await response.arrayBuffer();
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// A cache that holds all the files of a scope says so with an entry of its own.
function mark(scope) {
  return new URL(`__saikoro/complete-${scope}`, ROOT).href;
}

// What an older version kept and this build did not change moves to this version's cache;
// what it held completely (the engine, the site) is completed again.
async function carryOver() {
  const old = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  if (!old.length) return;
  let files;
  try {
    files = await manifest();
  } catch (_) {
    return; // offline while updating: the old files are fetched again when needed
  }
  const cache = await caches.open(CACHE);
  const had = { engine: false, site: false };
  for (const name of old) {
    const previous = await caches.open(name);
    for (const scope of Object.keys(had)) {
      if (await previous.match(mark(scope))) had[scope] = true;
    }
    for (const request of await previous.keys()) {
      const path = request.url.slice(ROOT.href.length);
      const rev = files[path];
      if (!rev || (await cache.match(request))) continue;
      const response = await previous.match(request);
      if (!response) continue;
      if ((await digest(response.clone())).startsWith(rev)) await cache.put(request, response);
    }
  }
  if (had.site) await warm("site", files);
  else if (had.engine) await warm("engine", files);
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil(carryOver());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

async function keep(cache, request, response) {
  if (gone) return;
  if (response.status === 200 && response.type === "basic" && !response.redirected) {
    await cache.put(key(request.url), response);
  }
}

// Whether a page from the server is still this offline book's (null: not a page).
async function ours(response) {
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || !type.includes("text/html")) return null;
  return (await response.text()).includes('<meta name="saikoro-offline"');
}

// The server no longer serves an offline build of the book (`mkdocs serve`, or offline
// turned off): the worker and its caches go, and its pages load again from the server.
let gone = false; // once leaving, requests go straight to the network and nothing is kept

async function leave(pending) {
  gone = true;
  await self.registration.unregister();
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX)) await caches.delete(name);
  }
  // every page of the book loads again from the server; ``pending``: the page a kept copy
  // was just served to, which may not be a client yet (its navigation is under way), so
  // it is waited for a few seconds rather than missed
  const done = new Set();
  for (let tries = 0; tries < 50; tries += 1) {
    const all = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of all) {
      if (!done.has(client.id) && client.url.startsWith(ROOT.href)) {
        done.add(client.id);
        client.navigate(client.url).catch(() => {}); // (an uncontrolled one cannot be)
      }
    }
    if (!pending || done.has(pending)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function check(url, client) {
  let response;
  try {
    response = await fetch(url, { cache: "no-cache" });
  } catch (_) {
    return; // offline: the kept page is all there is
  }
  if ((await ours(response)) === false) await leave(client);
}

// A versioned URL (``?v=`` or a content-named engine bundle) never changes: the HTTP cache
// may answer it. Anything else is revalidated (the HTTP cache could hold the last build's).
function versioned(url) {
  const u = new URL(url);
  return u.searchParams.has("v") || u.pathname.includes("/assets/saikoro/engine/");
}

async function answer(event) {
  const request = event.request;
  const navigate = request.mode === "navigate";
  const cache = await caches.open(CACHE);
  const found = await cache.match(key(request.url));
  if (found) {
    if (navigate) event.waitUntil(check(request.url, event.resultingClientId)); // in the background
    return found;
  }
  let response;
  try {
    // a page as the browser asks for it; anything else past the HTTP cache, which could
    // hold the last build's copy of it
    response = await (navigate || versioned(request.url) ? fetch(request) : fetch(request, { cache: "no-cache" }));
  } catch (error) {
    if (navigate) {
      return new Response(OFFLINE_PAGE, {
        status: 503,
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    }
    throw error;
  }
  if (navigate && (await ours(response.clone())) === false) {
    event.waitUntil(leave());
    return response;
  }
  if (!request.headers.has("range")) event.waitUntil(keep(cache, request, response.clone()));
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || gone) return;
  const url = new URL(request.url);
  if (!inScope(url) || url.pathname.includes("/livereload")) return;
  event.respondWith(answer(event));
});

// ---- warming: the engine, or the whole site ----------------------------------------------
const warming = {}; // scope -> Promise

async function tell(message) {
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) {
    client.postMessage({ type: "saikoro-offline", ...message });
  }
}

async function warm(scope, known) {
  if (gone) return;
  const cache = await caches.open(CACHE);
  // the engine's files as the page's worker requests them (with their ?v=), so the HTTP
  // cache answers them
  let paths = CONFIG.engine.slice();
  let files = known || null;
  if (scope === "site") {
    files = files || (await manifest());
    const engineKeys = new Set(paths.map((p) => key(new URL(p, ROOT).href)));
    paths = [...paths, ...Object.keys(files).filter((p) => !engineKeys.has(key(new URL(p, ROOT).href)))];
  }
  const missing = [];
  for (const path of paths) {
    if (!(await cache.match(key(new URL(path, ROOT).href)))) missing.push(path);
  }
  const total = paths.length;
  let done = total - missing.length;
  let failed = 0;
  await tell({ scope, done, total, failed, finished: !missing.length });
  const next = async () => {
    for (let path = missing.shift(); path !== undefined && !gone; path = missing.shift()) {
      const url = new URL(path, ROOT).href;
      try {
        await cache.put(key(url), await fresh(url, files));
        done += 1;
      } catch (_) {
        failed += 1;
      }
      await tell({ scope, done, total, failed, finished: false });
    }
  };
  await Promise.all([next(), next(), next()]);
  if (!failed) {
    await cache.put(mark("engine"), new Response("1"));
    if (scope === "site") await cache.put(mark("site"), new Response("1"));
  }
  await tell({ scope, done, total, failed, finished: true });
}

// A file of this build: a versioned one from the HTTP cache when it holds it; another one
// from the HTTP cache when its content hash is this build's (offline.json), else from the
// server.
async function fresh(url, files) {
  const path = key(url).slice(ROOT.href.length);
  const rev = files && files[path];
  if (versioned(url) || rev) {
    const cached = await fetch(url, { cache: "force-cache" });
    if (cached.ok && (versioned(url) || (await digest(cached.clone())).startsWith(rev))) return cached;
  }
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response;
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "warm" || gone) return;
  const scope = data.scope === "site" ? "site" : "engine";
  if (!warming[scope]) {
    warming[scope] = warm(scope).catch(async (error) => {
      await tell({ scope, done: 0, total: 0, failed: 1, finished: true, error: String(error) });
    });
    warming[scope].finally(() => delete warming[scope]);
  }
  event.waitUntil(warming[scope]);
});
