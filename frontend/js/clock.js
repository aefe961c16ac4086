// Time as the server measures it: the offset between its clock and ours; and the
// warnings before a timed game's end (a race, a daily attempt once its day is over),
// so that no time runs out unannounced. A solo game or a ghost race has no end.

import { setText } from "./dom.js";

export class ServerClock {
  constructor() {
    this.offset = 0;
  }

  /** Learn the server's time from a message's `now` (ms since the epoch). */
  sync(serverNow) {
    if (typeof serverNow === "number") this.offset = serverNow - Date.now();
  }

  now() {
    return Date.now() + this.offset;
  }
}

/** How long before the end (ms) a timed game warns: five minutes, then one. */
export const WARNINGS = [5 * 60_000, 60_000];

/**
 * The warning due with `left` ms to go, once `given` (the last one given, or null):
 * the nearest threshold `left` has reached and that was not given yet, else null.
 */
export function dueWarning(left, given = null) {
  const reached = WARNINGS.filter((ms) => left <= ms).at(-1);
  if (reached === undefined || left <= 0) return null;
  return given === null || reached < given ? reached : null;
}

/** 83000 -> "1:23", 3723000 -> "1:02:03". */
export function formatDuration(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** Shows `ms` in the clock element `el`, writing only when the text changes: the clock is
 * asked four times a second, and each write repaints the table (a phone's battery). */
export function showDuration(el, ms) {
  const text = formatDuration(ms);
  setText(el, text);
}
