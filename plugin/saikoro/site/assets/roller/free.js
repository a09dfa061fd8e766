// @ts-check
// The free-form roller: the page's commands as chips, keys for what phones hide.

import { CHIPS } from "./config.js";
import { closest, rollWidget } from "./widgets.js";

// ---- the free-form roller: the page's commands as chips, keys for what phones hide ----
export function fillChips() {
  document.querySelectorAll(".saikoro-roller.saikoro-free").forEach((free) => {
    const box = free.querySelector(".saikoro-chips");
    if (!box) return;
    const seen = new Set();
    const chips = [];
    document.querySelectorAll(".saikoro-roller[data-command]").forEach((w) => {
      if (w.classList.contains("saikoro-inline") || chips.length >= CHIPS) return;
      const command = w.getAttribute("data-command") || "";
      const system = w.getAttribute("data-system") || "";
      const id = system + "|" + command;
      if (!command || command.length > 60 || seen.has(id)) return;
      seen.add(id);
      chips.push({ command, system, options: w.getAttribute("data-options") || "" });
    });
    const same = box.saikoroChips && box.saikoroChips.length === chips.length &&
      box.saikoroChips.every((c, i) => c.command === chips[i].command && c.system === chips[i].system);
    if (same) return;
    box.saikoroChips = chips;
    box.textContent = "";
    for (const chip of chips) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "saikoro-chip";
      button.textContent = chip.command;
      button.title = chip.command + " を入れて振る";
      button.saikoroChip = chip;
      box.appendChild(button);
    }
    /** @type {HTMLElement} */ (box).hidden = !chips.length;
  });
}

export function useChip(button) {
  const widget = closest(button, ".saikoro-roller.saikoro-free");
  const chip = button.saikoroChip;
  if (!widget || !chip) return;
  const input = widget.querySelector(".saikoro-command");
  const select = widget.querySelector(".saikoro-system");
  if (input) input.value = chip.command;
  if (select && [...select.options].some((o) => o.value === chip.system)) select.value = chip.system;
  widget.saikoroChip = chip;
  rollWidget(widget);
}

export function insertKey(button) {
  const widget = closest(button, ".saikoro-roller.saikoro-free");
  const input = widget && widget.querySelector(".saikoro-command");
  if (!input) return;
  const text = button.getAttribute("data-insert") || "";
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? input.value.length;
  input.setRangeText(text, start, end, "end");
  input.focus();
}
