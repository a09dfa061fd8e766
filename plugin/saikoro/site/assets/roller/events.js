// @ts-check
// Events (delegated on document), the first intent, share links replayed.

import { rollCell } from "./cells.js";
import { CONFIG, MSG } from "./config.js";
import { load, roll, state } from "./engine.js";
import { insertKey, useChip } from "./free.js";
import { ownStep } from "./own.js";
import { pickPC, step } from "./personal.js";
import { MAX_DICE, cleanDice, cleanOptions } from "./values.js";
import { closest, copy, rollWidget, show, showError, showLoading } from "./widgets.js";

// ---- events (delegated on document: widgets of later pages work too) -----------------
document.addEventListener("click", (event) => {
  const target = event.target;
  const copyButton = closest(target, ".saikoro-copy");
  if (copyButton) {
    const widget = closest(copyButton, ".saikoro-roller");
    if (widget) copy(widget, copyButton);
    return;
  }
  const shareButton = closest(target, ".saikoro-share");
  if (shareButton) {
    const widget = closest(shareButton, ".saikoro-roller");
    if (widget) copy(widget, shareButton, widget.getAttribute("data-share-url") || "");
    return;
  }
  const replayButton = closest(target, ".saikoro-replay");
  if (replayButton) {
    const widget = closest(replayButton, ".saikoro-roller");
    if (widget && replayButton.saikoroShared) replay(widget, replayButton.saikoroShared);
    return;
  }
  const pick = closest(target, ".saikoro-pick");
  if (pick) {
    rollCell(pick);
    return;
  }
  // a row's heading rolls the row when the row has one command
  const heading = closest(target, ".saikoro-grid tbody th[scope=row]");
  if (heading) {
    const picks = heading.parentNode.querySelectorAll(".saikoro-pick");
    if (picks.length === 1) rollCell(picks[0]);
    return;
  }
  const stepButton = closest(target, ".saikoro-step");
  if (stepButton) {
    if (closest(stepButton, ".saikoro-own")) ownStep(stepButton);
    else step(stepButton);
    return;
  }
  const chip = closest(target, ".saikoro-chip");
  if (chip) {
    useChip(chip);
    return;
  }
  const key = closest(target, ".saikoro-key");
  if (key) {
    insertKey(key);
    return;
  }
  const button = closest(target, ".saikoro-roll");
  const widget = button && closest(button, ".saikoro-roller");
  if (widget) rollWidget(widget);
});

document.addEventListener("change", (event) => {
  const select = closest(event.target, ".saikoro-party select");
  if (select) pickPC(select);
  // the free-form roller's placeholder is an example of the system chosen
  const system = closest(event.target, ".saikoro-free .saikoro-system");
  const option = system && system.selectedOptions[0];
  const input = option && closest(system, ".saikoro-free").querySelector(".saikoro-command");
  if (input && option.getAttribute("data-example")) input.placeholder = option.getAttribute("data-example");
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.isComposing || event.keyCode === 229) return; // IME confirm
  const input = closest(event.target, ".saikoro-command");
  const widget = input && closest(input, ".saikoro-roller");
  if (!widget) return;
  event.preventDefault();
  rollWidget(widget);
});

// Anything roll-related touched, pointed at or focused starts the engine (a phone's
// first tap starts it at the same moment the roll is asked for).
export const ROLL_RELATED = ".saikoro-roller, .saikoro-pick, .saikoro-grid[data-system] th, " +
  ".saikoro-stepper, .saikoro-party, .saikoro-chip";
export function intent(event) {
  if (CONFIG.policy !== "click" && state === "idle" && closest(event.target, ROLL_RELATED)) load();
}
document.addEventListener("pointerover", intent, { passive: true });
document.addEventListener("pointerdown", intent, { passive: true });
document.addEventListener("touchstart", intent, { passive: true });
document.addEventListener("focusin", intent);

// Phones and constrained connections: no engine byte before the reader taps or focuses a
// roller, whatever the policy says about preloading -- unless the engine is already kept
// on this device (a later visit), when loading it costs no network.
export function constrained() {
  const connection = navigator.connection || {};
  const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  return Boolean(
    coarse || connection.saveData || /(^|-)2g$|^3g$/.test(connection.effectiveType || ""),
  );
}
export let DEFERRED = constrained();

// The engine is kept on this device: loading it costs no network, so nothing waits for a tap.
export function undefer() {
  DEFERRED = false;
}

// A share link (#roll=...&dice=...) names a command and the dice it rolled: the same
// result is replayed, on the widget that rolls that command (or the free-form roller).
// A link that cannot be read gives {error} (the reader's words), never a roll.
export function sharedRoll() {
  const hash = location.hash.slice(1);
  if (!hash.startsWith("roll=")) return null;
  let params;
  try {
    params = new URLSearchParams(hash);
  } catch (_) {
    return { error: MSG.linkCommand };
  }
  const command = params.get("roll") || "";
  if (!command.trim() || command.length > CONFIG.maxLength) return { error: MSG.linkCommand };
  const options = cleanOptions(params.get("options") || "");
  if (options === null) return { error: MSG.linkOptions };
  const diceText = params.get("dice") || "";
  if (diceText.length > MAX_DICE * 12) return { error: MSG.linkDice };
  const dice = cleanDice(diceText.split(",").filter(Boolean).map((d) => d.split(".").map(Number)));
  if (dice === null) return { error: MSG.linkDice };
  return { command, system: params.get("system") || "", options, dice };
}

export function knownSystem(system) {
  if (!system) return true;
  const options = /** @type {NodeListOf<HTMLOptionElement>} */ (
    document.querySelectorAll(".saikoro-system option"));
  return [...options].some((o) => o.value === system) ||
    [...document.querySelectorAll(".saikoro-roller[data-system]")].some((w) => w.getAttribute("data-system") === system);
}

export function replayTarget(shared) {
  const widgets = [...document.querySelectorAll(".saikoro-roller")];
  const fixed = widgets.find((w) => !w.classList.contains("saikoro-free")
    && w.getAttribute("data-command") === shared.command
    && (w.getAttribute("data-system") || "") === shared.system);
  if (fixed) return fixed;
  const free = widgets.find((w) => w.classList.contains("saikoro-free"));
  if (!free) return null;
  if (shared.error) return free;
  const input = /** @type {HTMLInputElement | null} */ (free.querySelector(".saikoro-command"));
  const select = /** @type {HTMLSelectElement | null} */ (free.querySelector(".saikoro-system"));
  if (input) input.value = shared.command;
  if (select && [...select.options].some((o) => o.value === shared.system)) select.value = shared.system;
  return free;
}

export async function replay(widget, shared) {
  const prompt = widget.querySelector(".saikoro-replay");
  if (prompt) prompt.remove();
  widget.scrollIntoView({ block: "center" });
  showLoading(widget);
  const output = widget.querySelector(".saikoro-output");
  const result = await roll(shared.command, shared.system, shared.options, shared.dice);
  show(widget, result, shared);
  if (output) output.classList.add("saikoro-replayed");
  widget.dispatchEvent(new CustomEvent("saikoro:result", { bubbles: true, detail: result }));
}

export function offerReplay() {
  let shared = sharedRoll();
  if (!shared) return;
  if (!shared.error && !knownSystem(shared.system)) shared = { error: MSG.linkSystem };
  const widget = replayTarget(shared) || document.querySelector(".saikoro-roller");
  if (!widget || widget.saikoroReplayed) return;
  widget.saikoroReplayed = true;
  if (shared.error) {
    showError(widget, MSG.badLink + shared.error + MSG.badLinkEnd);
    return;
  }
  if (!DEFERRED) {
    replay(widget, shared);
    return;
  }
  const button = document.createElement("button");
  button.type = "button";
  button.className = "saikoro-replay";
  button.textContent = MSG.replay + "（" + shared.command + "）";
  button.saikoroShared = shared;
  widget.appendChild(button);
}
