// saikoro: what the MicroPython engine borrows from JavaScript (module `_saikoro_js`).
//
// MicroPython has no Unicode tables and a small regular-expression engine: the lowered
// engine's shims (assets/micropython/_mp*.py) call these functions for CPython's
// behaviour instead. Used by the roller's worker (worker.js) and by the differential test's
// Node.js driver, so both run the very same code. Strings cross as strings; a match comes
// back as "start,end,start,end,..." in code points (-1 for a group that did not take part).

// ---- Unicode ----------------------------------------------------------------------------------
// CPython's str.isdigit is true for decimal digits and the other "digit" characters
// (superscripts, circled and parenthesised digits); JavaScript has no Numeric_Type property,
// so the Unicode blocks of those are listed.
const OTHER_DIGITS = "\u00B2\u00B3\u00B9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247C" +
  "\u2488-\u2490\u24EA\u24F5-\u24FD\u24FF\u2776-\u277E\u2780-\u2788\u278A-\u2792\u1369-\u1371";
// CPython's str.isnumeric adds numerals with a numeric value (fractions, Roman numerals, Han
// numerals): \p{N} plus the CJK ideographs CPython gives a numeric value.
const HAN_NUMERALS = "\u3007\u4E00\u4E03\u4E07\u4E09\u4E5D\u4E8C\u4E94\u4EBF\u4EC0\u4EDF\u4EE8" +
  "\u4F0D\u5104\u5146\u5169\u516B\u516D\u5341\u5343\u5344\u5345\u534C\u53C1-\u53C4\u56DB\u58F1" +
  "\u58F9\u5E7A\u5EFE\u5EFF\u5F0C-\u5F0E\u5F10\u62FE\u634C\u67D2\u6F06\u7396\u767E\u8086\u842C" +
  "\u8CAE\u8CB3\u8D30\u9621\u9646\u964C\u9678\u96F6";
const TESTS = {
  digit: new RegExp(`^[\\p{Nd}${OTHER_DIGITS}]+$`, "u"),
  decimal: /^\p{Nd}+$/u,
  numeric: new RegExp(`^[\\p{N}${HAN_NUMERALS}]+$`, "u"),
  alpha: /^\p{L}+$/u,
  alnum: new RegExp(`^[\\p{L}\\p{N}${HAN_NUMERALS}]+$`, "u"),
  // CPython's str.isprintable: not Other (C*) nor Separator (Z*) but the ASCII space
  printable: /^(?:[^\p{C}\p{Z}]| )*$/u,
};

function test(kind, text) {
  return TESTS[kind].test(text);
}

function casefold(text) {
  return text.toLowerCase().replace(/ß/g, "ss").replace(/ς/g, "σ").replace(/ſ/g, "s");
}

// ---- regular expressions --------------------------------------------------------------------
// A Python pattern in JavaScript's syntax ("u" flag, so classes work on code points):
// (?P<n>...) and (?P=n) named groups, \d \w \s and their negations with CPython's Unicode
// meaning, \A \Z, and $ as Python's (the end, or before a final newline).
const WORD = "\\p{L}\\p{N}_";

function translate(source, verbose) {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    let c = source[i];
    if (verbose && !inClass) {
      if (/\s/.test(c)) continue;
      if (c === "#") {
        while (i < source.length && source[i] !== "\n") i++;
        continue;
      }
    }
    if (c === "\\") {
      const n = source[++i];
      if (n === undefined) throw new Error("bad escape (end of pattern)");
      if (n === "d") out += "\\p{Nd}";
      else if (n === "D") out += "\\P{Nd}";
      else if (n === "w") out += inClass ? WORD : `[${WORD}]`;
      else if (n === "W") {
        if (inClass) throw new Error("\\W inside a set is not supported");
        out += `[^${WORD}]`;
      } else if (n === "A" && !inClass) out += "^";
      else if (n === "Z" && !inClass) out += "$";
      else if (/[0-9]/.test(n) && !inClass) {
        let digits = n;
        while (/[0-9]/.test(source[i + 1] || "")) digits += source[++i];
        out += `\\${digits}`;
      } else if (/[A-Za-z]/.test(n) && !"bBsSnrtfvxuU".includes(n)) {
        throw new Error(`bad escape \\${n}`);
      } else if (/[A-Za-z0-9]/.test(n) || "\\^$.|?*+()[]{}/-".includes(n)) {
        out += `\\${n}`;
      } else {
        // an escaped character with no meaning (\~, \#, \あ): the character itself
        out += /[\^$.|?*+()[\]{}\\/-]/.test(n) ? `\\${n}` : n;
      }
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      else if (c === "[") c = "\\[";
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      if (source[i + 1] === "^") out += source[++i];
      if (source[i + 1] === "]") {
        out += "\\]";
        i++;
      }
      continue;
    }
    if (c === "(" && source.startsWith("(?P<", i)) {
      out += "(?<";
      i += 3;
      continue;
    }
    if (c === "(" && source.startsWith("(?P=", i)) {
      const end = source.indexOf(")", i);
      out += `\\k<${source.slice(i + 4, end)}>`;
      i = end;
      continue;
    }
    if (c === "$") {
      out += "(?=\\n?$)";
      continue;
    }
    if (c === "{" && !/^\{\d*(,\d*)?\}/.test(source.slice(i))) {
      out += "\\{";
      continue;
    }
    if (c === "}") {
      // a closing brace of a quantifier was copied with its opening one; alone it is literal
      const open = out.lastIndexOf("{");
      const closed = out.lastIndexOf("}");
      if (open < 0 || open < closed || out[open - 1] === "\\") {
        out += "\\}";
        continue;
      }
    }
    out += c;
  }
  return out;
}

const FLAGS = { I: 2, M: 8, S: 16, X: 64, A: 256 };
const patterns = [];

function compile(source, flags) {
  let js = flags & FLAGS.S ? "dus" : "du";
  if (flags & FLAGS.I) js += "i";
  if (flags & FLAGS.M) js += "m";
  const body = translate(source, Boolean(flags & FLAGS.X));
  const sticky = new RegExp(body, js + "y");
  const full = new RegExp(`(?:${body})(?![\\s\\S])`, js + "y");
  const global = new RegExp(body, js + "g");
  patterns.push({ sticky, full, global });
  // group count and names from a probe of the pattern itself
  const probe = new RegExp(`${body}|`, js).exec("");
  const names = probe.groups ? Object.keys(probe.groups) : [];
  const named = names.map((name) => `${name}:${groupIndex(body, name)}`);
  return `${patterns.length - 1}|${probe.length - 1}|${named.join(",")}`;
}

// The number of a named group: its opening parenthesis counted among the capturing ones.
function groupIndex(body, name) {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") {
      if (body[i + 1] !== "?") count++;
      else if (body[i + 2] === "<" && body[i + 3] !== "=" && body[i + 3] !== "!") {
        count++;
        if (body.startsWith(`(?<${name}>`, i)) return count;
      }
    }
  }
  return -1;
}

// Code-point offsets of a string, for strings with characters beyond the BMP.
function toUnits(text, pos) {
  let units = 0;
  let points = 0;
  while (points < pos && units < text.length) {
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code < 0xdc00 ? 2 : 1;
    points++;
  }
  return units;
}

function toPoints(text, units) {
  let points = 0;
  for (let i = 0; i < units; i++) {
    const code = text.charCodeAt(i);
    if (!(code >= 0xdc00 && code < 0xe000)) points++;
  }
  return points;
}

// mode: "match" (at pos), "fullmatch" (pos to endpos), "search" (from pos)
function exec(id, mode, text, pos, endpos) {
  const pattern = patterns[id];
  const astral = /[\uD800-\uDFFF]/.test(text);
  let subject = text;
  if (endpos !== undefined && endpos !== null && endpos >= 0) {
    subject = astral ? text.slice(0, toUnits(text, endpos)) : text.slice(0, endpos);
  }
  const start = astral ? toUnits(text, pos) : pos;
  const regex = mode === "search" ? pattern.global : mode === "fullmatch" ? pattern.full : pattern.sticky;
  regex.lastIndex = start;
  const found = regex.exec(subject);
  if (!found) return null;
  const spans = [];
  for (const span of found.indices) {
    if (!span) spans.push(-1, -1);
    else if (astral) spans.push(toPoints(text, span[0]), toPoints(text, span[1]));
    else spans.push(span[0], span[1]);
  }
  return spans.join(",");
}

export function hostModule() {
  return {
    normalize: (text, form) => text.normalize(form),
    test,
    upper: (text) => text.toUpperCase(),
    lower: (text) => text.toLowerCase(),
    casefold,
    re_compile: (source, flags) => {
      try {
        return compile(source, flags);
      } catch (error) {
        return `!${(error && error.message) || error}`;
      }
    },
    re_exec: exec,
  };
}
