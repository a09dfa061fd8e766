// @ts-check
// Values read from links, storage and attributes: checked, never trusted.

// ---- values read from links, storage and attributes: checked, never trusted ----------
export const OPTION_KEYS = 64;
export const OPTION_TEXT = 4000;
export const MAX_DICE = 10000;

// A JSON text of ruling options as the canonical text the worker reads ("" for none), or
// null when it is not a flat object of short strings, finite numbers and booleans.
export function cleanOptions(text) {
  if (text === null || text === undefined || text === "") return "";
  if (typeof text !== "string" || text.length > OPTION_TEXT) return null;
  let value;
  try {
    value = JSON.parse(text);
  } catch (_) {
    return null; // not JSON (or nested beyond what the parser takes)
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  if (keys.length > OPTION_KEYS) return null;
  for (const k of keys) {
    const v = value[k];
    const ok =
      typeof v === "boolean" ||
      (typeof v === "number" && Number.isFinite(v)) ||
      (typeof v === "string" && v.length <= 200);
    if (!ok || k.length > 100) return null;
  }
  return keys.length ? JSON.stringify(value) : "";
}

// Dice to replay as [[sides, value], ...], or null when the list is not one.
export function cleanDice(list) {
  if (!Array.isArray(list) || list.length > MAX_DICE) return null;
  for (const d of list) {
    if (!Array.isArray(d) || d.length !== 2) return null;
    const [sides, value] = d;
    if (!Number.isSafeInteger(sides) || !Number.isSafeInteger(value)) return null;
    if (sides < 1 || value < 1 || value > sides) return null;
  }
  return list.map((d) => [d[0], d[1]]);
}

export function readJSON(storage, key) {
  try {
    const text = storage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch (_) {
    return null; // storage disabled, or not JSON: as if nothing were kept
  }
}

export function writeJSON(storage, key, value) {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch (_) {
    // storage full or disabled: the value is simply not kept
  }
}
