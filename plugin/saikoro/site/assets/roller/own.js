// @ts-check
// Own-value rows of a rules page, following their steppers without the engine.

import { fillChips } from "./free.js";
import { readJSON, writeJSON } from "./values.js";
import { closest } from "./widgets.js";

// ---- own-value rows of a rules page (a dice fence line GB{能力値=3:1..10}>=8) ----------
// The row carries data-template ("GB{0}>={1}") and data-odds: {labels, odds: {"3,8":
// [[shown, exact], ...]}}, every combination's chances (in the order of the row's <dd>s)
// computed at build time, so the row follows its steppers without the engine. The
// values are kept on the device per system and name: a reader's 能力値 stays theirs.
export const OWN = "saikoro:own:";

export function ownApply(row, values, store) {
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

export function ownValues(row, kept) {
  return [...row.querySelectorAll(".saikoro-own-steps .saikoro-stepper")].map((s) => {
    const value = kept ? readJSON(localStorage, OWN + (row.dataset.system || "") + ":" + s.dataset.key) : null;
    return Number.isSafeInteger(value) ? value : Number(s.querySelector("output").textContent);
  });
}

export function ownStep(button) {
  const row = closest(button, ".saikoro-own");
  const stepper = closest(button, ".saikoro-stepper");
  const values = ownValues(row, false);
  values[[...row.querySelectorAll(".saikoro-own-steps .saikoro-stepper")].indexOf(stepper)] +=
    Number(button.dataset.step);
  ownApply(row, values, true);
  fillChips();
}
