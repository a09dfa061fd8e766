/* saikoro: the site's search worker, in place of mkdocs-material's for a Japanese site.
 *
 * Material's worker (lunr) reads a Japanese query by greedy pieces of the index's own
 * words, each a prefix: 「回避」 became 回* 避*, so pages about 回る and 回復 came first.
 * This worker speaks Material's protocol (SETUP -> READY, QUERY -> RESULT, the same result
 * shape), so the theme's search box and result list are unchanged, and matches whole terms:
 *
 * - words: the browser's own dictionary segmenter (Intl.Segmenter, ICU's Japanese
 *   dictionary; no download), index and query alike; a run of katakana is one word too
 *   (ICU cuts ファンブル into ファン|ブル) and its parts are kept (ミッション finds
 *   メインミッション). Without Intl.Segmenter, runs of one script are the words.
 * - matching: every query word must be a word of the section (the last one typed may be
 *   the start of one: クリティ finds クリティカル); a query whose words stand together in
 *   the text, or are the title, scores higher.
 * - order: by the page's kind first (doc.tier, written at build time: rules 0, scenarios
 *   and other pages 1, rulings and commands 2, the author guide 3), then by score.
 * - previews: the section's text around the first match, with the matches marked.
 */
"use strict";

const SETUP = 0;
const READY = 1;
const QUERY = 2;
const RESULT = 3;

const segmenter =
  typeof Intl !== "undefined" && typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter("ja", { granularity: "word" })
    : null;
const KATAKANA = /^[\u30a1-\u30fa\u30fc-\u30ff\uff66-\uff9f]+$/;
const PARTICLE = /^[\u3041-\u3096]$/; // one hiragana: の, を, に ... never a query word alone
const WORDY = /[\p{L}\p{N}]/u;
const SCRIPTS = /[\u3400-\u9fff\uf900-\ufaff々]+|[\u30a1-\u30fa\u30fc-\u30ff\uff66-\uff9f]+|[\u3041-\u3096ー]+|[\p{L}\p{N}_]+/gu;

let docs = [];
let terms = []; // sorted distinct words, for prefixes
const postings = new Map(); // word -> [[doc, in title, count in text], ...]
let suggest = false;

// Text to compare: full-width to half-width, lower case (one character each, so
// positions in the normalised text are positions in the original).
function fold(text) {
  let out = "";
  for (const ch of text) {
    const n = ch.normalize("NFKC").toLowerCase();
    out += n.length === ch.length ? n : ch;
  }
  return out;
}

function plain(html) {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function escape(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// The words of a (folded) text, in order; a katakana run split by the segmenter is
// given whole, then its parts.
function words(text) {
  const out = [];
  if (!segmenter) {
    for (const m of text.matchAll(SCRIPTS)) out.push(m[0]);
    return out;
  }
  let run = [];
  const flush = () => {
    if (run.length > 1) out.push(run.join(""));
    out.push(...run);
    run = [];
  };
  for (const s of segmenter.segment(text)) {
    if (!s.isWordLike && !WORDY.test(s.segment)) {
      flush();
      continue;
    }
    if (KATAKANA.test(s.segment)) {
      run.push(s.segment);
      continue;
    }
    flush();
    out.push(s.segment);
  }
  flush();
  return out;
}

function setup(data) {
  docs = data.docs.map((doc) => {
    const title = fold(plain(doc.title || ""));
    const text = fold(plain(doc.text || ""));
    return { doc, title, text, tier: Number.isFinite(doc.tier) ? doc.tier : 1, boost: doc.boost || 1 };
  });
  suggest = Boolean(data.options && data.options.suggest);
  docs.forEach((entry, i) => {
    const counts = new Map();
    for (const w of words(entry.text)) counts.set(w, (counts.get(w) || 0) + 1);
    const titled = new Set(words(entry.title));
    for (const w of titled) if (!counts.has(w)) counts.set(w, 0);
    for (const [w, n] of counts) {
      if (!postings.has(w)) postings.set(w, []);
      postings.get(w).push([i, titled.has(w), n]);
    }
  });
  terms = [...postings.keys()].sort();
}

// The index's words that start with `prefix`.
function startingWith(prefix) {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (terms[mid] < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out = [];
  for (let i = lo; i < terms.length && terms[i].startsWith(prefix) && out.length < 50; i++) out.push(terms[i]);
  return out;
}

function queryWords(query) {
  const all = [...new Set(words(query))];
  const kept = all.filter((w) => !PARTICLE.test(w));
  return kept.length ? kept : all;
}

function search(raw) {
  const query = fold(raw).trim();
  if (!query) return { items: [] };
  const wanted = queryWords(query);
  if (!wanted.length) return { items: [] };
  const last = wanted[wanted.length - 1];
  const typing = !/\s$/.test(raw) && query.endsWith(last);
  const n = docs.length || 1;
  const found = new Map(); // doc -> {score, hits: Set of query words, marks: Set of words}
  const completions = new Map();
  wanted.forEach((word) => {
    const variants = [word];
    if (word === last && typing) {
      for (const w of startingWith(word)) if (w !== word) variants.push(w);
    }
    for (const variant of variants) {
      const list = postings.get(variant);
      if (!list) continue;
      const idf = Math.log(1 + n / list.length);
      const exact = variant === word ? 1 : 0.6;
      if (variant !== word) completions.set(variant, (completions.get(variant) || 0) + list.length);
      for (const [i, titled, count] of list) {
        let entry = found.get(i);
        if (!entry) found.set(i, (entry = { score: 0, hits: new Set(), marks: new Set() }));
        entry.score += idf * exact * ((titled ? 8 : 0) + (count ? 1 + Math.log(count) : 0));
        entry.hits.add(word);
        entry.marks.add(variant);
      }
    }
  });
  const joined = wanted.join("");
  let hits = [...found.entries()].filter(([, e]) => e.hits.size === wanted.length);
  const partial = !hits.length;
  if (partial) hits = [...found.entries()];
  const scored = hits.map(([i, e]) => {
    const entry = docs[i];
    let score = e.score * entry.boost;
    if (entry.title === query || entry.title === joined) score *= 4;
    else if (wanted.length > 1 && (entry.title.includes(joined) || entry.text.includes(joined))) score *= 2;
    if (partial) score *= e.hits.size / wanted.length;
    return { i, score, marks: e.marks, hits: e.hits };
  });
  // pages: each with its best section, ordered by the page's kind, then by score
  const pages = new Map();
  for (const s of scored) {
    const location = docs[s.i].doc.location;
    const page = location.split("#")[0];
    if (!pages.has(page)) pages.set(page, []);
    pages.get(page).push(s);
  }
  const groups = [...pages.entries()].map(([page, list]) => {
    list.sort((a, b) => b.score - a.score);
    const tier = Math.min(...list.map((s) => docs[s.i].tier));
    return { page, list, tier, best: list[0].score };
  });
  groups.sort((a, b) => a.tier - b.tier || b.best - a.best);
  const items = groups.map(({ page, list }) => {
    const out = list.map((s) => item(s, wanted));
    if (!list.some((s) => docs[s.i].doc.location === page)) {
      const article = docs.find((d) => d.doc.location === page);
      if (article) out.push({ ...article.doc, title: escape(plain(article.doc.title || "")), text: "", score: 0, terms: {} });
    }
    return out;
  });
  const result = { items };
  if (suggest) {
    const best = [...completions.entries()].sort((a, b) => b[1] - a[1])[0];
    result.suggest = best && typing ? [raw.trimEnd().slice(0, raw.trimEnd().length - last.length) + best[0]] : [];
  }
  return result;
}

// A result as Material renders it: title and preview text (HTML) with the matches marked.
function item(s, wanted) {
  const entry = docs[s.i];
  const marks = [...s.marks].sort((a, b) => b.length - a.length);
  const title = plain(entry.doc.title || "");
  const text = plain(entry.doc.text || "");
  const folded = fold(text);
  let at = -1;
  for (const m of marks) {
    const k = folded.indexOf(m);
    if (k >= 0 && (at < 0 || k < at)) at = k;
  }
  let start = 0;
  if (at > 40) {
    const stop = Math.max(text.lastIndexOf("。", at), text.lastIndexOf(" ", at));
    start = stop >= 0 && at - stop < 60 ? stop + 1 : at - 30;
  }
  let teaser = text.slice(start, start + 160);
  if (start > 0) teaser = "…" + teaser;
  if (start + 160 < text.length) teaser += "…";
  const termsFound = {};
  for (const w of wanted) termsFound[w] = s.hits.has(w);
  return {
    ...entry.doc,
    title: mark(title, marks),
    text: teaser ? "<p>" + mark(teaser, marks) + "</p>" : "",
    score: s.score,
    terms: termsFound,
  };
}

function mark(text, marks) {
  const folded = fold(text);
  const spans = [];
  for (const m of marks) {
    if (!m) continue;
    let k = folded.indexOf(m);
    while (k >= 0) {
      spans.push([k, k + m.length]);
      k = folded.indexOf(m, k + m.length);
    }
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = "";
  let at = 0;
  for (const [a, b] of spans) {
    if (a < at) continue;
    out += escape(text.slice(at, a)) + "<mark>" + escape(text.slice(a, b)) + "</mark>";
    at = b;
  }
  return out + escape(text.slice(at));
}

addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === SETUP) {
    setup(message.data);
    postMessage({ type: READY });
  } else if (message.type === QUERY) {
    let data;
    try {
      data = search(String(message.data || ""));
    } catch (error) {
      console.warn("saikoro search:", error);
      data = { items: [] };
    }
    postMessage({ type: RESULT, data });
  }
});
