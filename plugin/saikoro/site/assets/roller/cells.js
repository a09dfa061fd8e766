// @ts-check
// Odds tables: every cell with a command rolls it, the result under its row.

import { closest, rollWidget, shown } from "./widgets.js";

// ---- odds tables: every cell with a command rolls it, the result under its row ------
// The grid (.saikoro-grid[data-system]) names the system and ruling options; the result
// goes to one roller row inserted under the tapped row (moved on the next tap).
export function rollCell(button) {
  const grid = closest(button, ".saikoro-grid");
  const row = closest(button, "tr");
  const command = button.getAttribute("data-command") || "";
  if (!grid || !row || !command) return;
  let holder = grid.saikoroResult;
  if (!holder) {
    holder = document.createElement("tr");
    holder.className = "saikoro-row-result";
    const cell = document.createElement("td");
    const widget = document.createElement("div");
    widget.className = "saikoro-roller saikoro-inline";
    const output = document.createElement("output");
    output.className = "saikoro-output";
    output.setAttribute("aria-live", "polite");
    widget.appendChild(output);
    cell.appendChild(widget);
    holder.appendChild(cell);
    grid.saikoroResult = holder;
  }
  holder.firstChild.colSpan = row.children.length;
  if (row.nextElementSibling !== holder) row.insertAdjacentElement("afterend", holder);
  grid.querySelectorAll(".saikoro-picked").forEach((el) => el.classList.remove("saikoro-picked"));
  button.classList.add("saikoro-picked");
  const widget = holder.querySelector(".saikoro-roller");
  widget.setAttribute("data-command", command);
  for (const name of ["data-system", "data-options"]) {
    const value = grid.getAttribute(name);
    if (value) widget.setAttribute(name, value);
    else widget.removeAttribute(name);
  }
  shown.delete(widget);
  const list = widget.querySelector(".saikoro-history");
  if (list && widget.saikoroCommand !== command) list.remove();
  widget.saikoroCommand = command;
  rollWidget(widget);
}
