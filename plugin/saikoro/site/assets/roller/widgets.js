// @ts-check
// Roll widgets: results, their history for the visit, share links, copying.

import { CONFIG, HISTORY, MSG } from "./config.js";
import { loadingText, roll, showProgress, state } from "./engine.js";
import { OPTION_TEXT, cleanDice, cleanOptions, readJSON, writeJSON } from "./values.js";

// ---- widgets -------------------------------------------------------------------------
export const RESULT_CLASSES = ["saikoro-success", "saikoro-failure", "saikoro-critical", "saikoro-fumble",
  "saikoro-error", "saikoro-loading"];

export function closest(target, selector) {
  return target && target.closest ? target.closest(selector) : null;
}

// What a widget rolls. data-options (a scenario's ruling options) belong to the
// widget's data-system: the free-form roller applies them only while that system is
// the one chosen in its <select> (or those of the chip it was filled from).
export function request(widget) {
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

export function classesOf(result) {
  if (!result.ok) return ["saikoro-error"];
  const classes = [];
  if (result.success) classes.push("saikoro-success");
  if (result.failure) classes.push("saikoro-failure");
  if (result.critical) classes.push("saikoro-critical");
  if (result.fumble) classes.push("saikoro-fumble");
  return classes;
}

export const shown = new WeakMap(); // widget -> {text, classes, command, system, options, dice}

// A result's text as lines: each result of a repeated roll (`x3 2D6`: "#1\n(2D6) ...",
// blank line, "#2\n...") is one line; other line breaks are kept (white-space: pre-line).
export function render(el, text) {
  el.textContent = "";
  String(text).split(/\n\n+/).forEach((block) => {
    const line = document.createElement("span");
    line.className = "saikoro-line";
    line.textContent = block.replace(/^(#\d+)\n/, "$1 ");
    el.appendChild(line);
  });
}

export function historyList(widget) {
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
export function pushHistory(widget) {
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

export function ensureButton(widget, output, cls, label, title) {
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
export const STORE = "saikoro:rolls:";
export function stored(widget) {
  return !widget.classList.contains("saikoro-inline");
}
export function baseKey(widget) {
  if (widget.classList.contains("saikoro-free")) return "free";
  return (widget.getAttribute("data-command") || "") + "|" + (widget.getAttribute("data-system") || "");
}
export function storeKey(widget) {
  const base = baseKey(widget);
  const same = [...document.querySelectorAll(".saikoro-roller")].filter((w) => stored(w) && baseKey(w) === base);
  return STORE + location.href.split("#")[0] + "|" + base + "|" + same.indexOf(widget);
}
export function save(widget) {
  if (!stored(widget)) return;
  const entries = [];
  const current = shown.get(widget);
  if (current) entries.push(current);
  widget.querySelectorAll(".saikoro-history li").forEach((li) => li.saikoroEntry && entries.push(li.saikoroEntry));
  writeJSON(sessionStorage, storeKey(widget), entries.slice(0, HISTORY + 1));
}

// One kept entry as display() takes it, or null when it is not one (a kept history is
// data from earlier pages or other scripts: every field is checked).
export function cleanEntry(entry) {
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

export function restore(widget) {
  if (widget.saikoroRestored || !stored(widget)) return;
  widget.saikoroRestored = true;
  const entries = readJSON(sessionStorage, storeKey(widget));
  if (!Array.isArray(entries)) return;
  const clean = entries.slice(0, HISTORY + 1).map(cleanEntry).filter(Boolean);
  for (let i = clean.length - 1; i >= 0; i--) display(widget, clean[i], false);
}

// ---- share links: #roll=<command>&system=<id>&options=<json>&dice=<sides.value,...> --
export function shareURL(entry) {
  const params = new URLSearchParams();
  params.set("roll", entry.command);
  if (entry.system) params.set("system", entry.system);
  if (entry.options) params.set("options", entry.options);
  params.set("dice", (entry.dice || []).map((d) => d[0] + "." + d[1]).join(","));
  return location.href.split("#")[0] + "#" + params.toString();
}

export function display(widget, entry, store) {
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

export function showError(widget, message) {
  const output = widget.querySelector(".saikoro-output");
  if (!output) return;
  pushHistory(widget);
  output.classList.remove(...RESULT_CLASSES);
  output.classList.add("saikoro-error");
  output.textContent = message;
  save(widget);
}

export function show(widget, result, request) {
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

export function showLoading(widget) {
  const output = widget.querySelector(".saikoro-output");
  if (!output || state === "ready") return;
  output.classList.remove(...RESULT_CLASSES);
  output.classList.add("saikoro-loading");
  output.textContent = loadingText();
  showProgress();
}

export async function rollWidget(widget, dice) {
  const { command, system, options } = request(widget);
  if (command.trim() && command.length <= CONFIG.maxLength) showLoading(widget);
  widget.setAttribute("aria-busy", "true");
  const result = await roll(command, system, options, dice);
  widget.removeAttribute("aria-busy");
  show(widget, result, { command, system, options });
  widget.dispatchEvent(new CustomEvent("saikoro:result", { bubbles: true, detail: result }));
}

export async function copy(widget, button, text) {
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
