// @ts-check
// The reader's own values per scope (a scenario), kept on the device.

import { fillChips } from "./free.js";
import { readJSON, writeJSON } from "./values.js";
import { closest } from "./widgets.js";

// ---- the reader's own values (per scope: a scenario), kept on the device ---------------
// A difficulty card's widget carries data-personal: {key, label, example, min, max,
// template ("GB{}>=8": the command for a value), party: [[value, command] | null, ...]}.
// A scope's state: {pc: index | null, values: {key: value}} (values set by hand win).
export const ME = "saikoro:me:";

export function personalOf(widget) {
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

export function scopeOf(el) {
  const holder = closest(el, "[data-scope]");
  return holder ? holder.getAttribute("data-scope") : "";
}

export function meState(scope) {
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

export function setMe(scope, next) {
  writeJSON(localStorage, ME + scope, next);
  applyPersonal();
}

// The command a card rolls now, the value shown, and whose value it is.
export function personalCommand(info, me) {
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
export function pcName(scope, me) {
  if (me.pc === null) return "";
  const select = /** @type {HTMLSelectElement | null} */ (document.querySelector(
    '.saikoro-party[data-scope="' + CSS.escape(scope) + '"] select'));
  const option = select && [...select.options].find((o) => o.value === String(me.pc));
  return option ? option.textContent : "";
}

export function applyPersonal() {
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

export function step(button) {
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

export function pickPC(select) {
  const scope = scopeOf(select);
  const index = select.value === "" ? null : Number(select.value);
  // a PC's values replace the ones set by hand
  setMe(scope, { pc: Number.isSafeInteger(index) ? index : null, values: {} });
}
