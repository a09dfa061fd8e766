// What the roller's modules find on the page beyond the DOM: mkdocs-material's document$
// (instant navigation) and the roller's own object (for tests and the page's scripts).
interface Window {
  document$?: { subscribe(next: () => void): unknown };
  saikoroRoller?: unknown;
}

// The Network Information API where the browser has it (Chromium): a phone on a slow or
// metered link loads nothing before a tap.
interface Navigator {
  connection?: { saveData?: boolean; effectiveType?: string };
}

// What the roller keeps on its own elements between events.
interface Element {
  saikoroChips?: { command: string; system: string; options: string }[];
  saikoroReplayed?: boolean;
}
interface HTMLButtonElement {
  saikoroChip?: { command: string; system: string; options: string };
  saikoroShared?: unknown;
}
interface HTMLLIElement {
  saikoroEntry?: unknown;
}
