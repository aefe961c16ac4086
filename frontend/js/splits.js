// Splits against the ghost (game/race/splits.py): every 8 removals of a ghost race the
// server says how far ahead of or behind the recorded game the player is, timed by both
// games' stored moves; the end dialog shows the table of both. Shown here in words and
// colour alike ("−1.5 s ahead"), tenths of a second, the page's decimal mark.

import { formatDuration } from "./clock.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

const MINUS = "\u2212";
const tenths = (ms) => Math.floor(ms / 100);

/** How far apart two times are, in tenths, as the table shows them (each cut to its tenth,
 * so the gap is the difference of the two times on screen); null without both. */
export function gapTenths({ you_ms: you, ghost_ms: ghost }) {
  return you === null || ghost === null ? null : tenths(you) - tenths(ghost);
}

/** "ahead", "behind" or "level" for a gap in tenths (negative: you got there first). */
export const standing = (gap) => (gap < 0 ? "ahead" : gap > 0 ? "behind" : "level");

const seconds = (value, lang) =>
  new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);

/** -15 -> "−1.5 s", 32 -> "+3.2 s", 0 -> "±0.0 s" (fr, ca, ro: "−1,5 s"). */
export function formatGap(gap, lang = "en") {
  const sign = gap < 0 ? MINUS : gap > 0 ? "+" : "±";
  return `${sign}${seconds(Math.abs(gap) / 10, lang)}\u00a0s`;
}

/** 83450 -> "1:23.4": a game's time at a split. */
export const formatSplitTime = (ms) => `${formatDuration(ms)}.${tenths(ms) % 10}`;

const WORDS = {
  ahead: () => gettext("ahead"),
  behind: () => gettext("behind"),
  level: () => gettext("level"),
};

/** "−1.5 s ahead": a split's gap and what it means, never by colour alone. */
export function gapText(row, lang = "en") {
  const gap = gapTenths(row);
  if (gap === null) return gettext("the ghost did not get this far");
  return `${formatGap(gap, lang)} ${WORDS[standing(gap)]()}`;
}

/** The sentence a screen reader hears once, with the move that made the split. */
export function splitText(row, lang = "en") {
  const format = ngettext("%(count)s removal: %(gap)s", "%(count)s removals: %(gap)s", row.removals);
  return interpolate(format, { count: row.removals, gap: gapText(row, lang) });
}

/** The last split the player made in a table (after a reconnect), or null. */
export function latestSplit(rows) {
  return rows.filter((row) => row.you_ms !== null).at(-1) ?? null;
}

/** The table's live split: `el` (hidden without one) shows the gap and its word. */
export function showSplit(el, row, lang) {
  el.hidden = !row;
  if (!row) return;
  const gap = gapTenths(row);
  const value = el.querySelector("[data-split-value]");
  value.textContent = gapText(row, lang);
  value.dataset.standing = gap === null ? "" : standing(gap);
}

const cell = (text, className) => {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
};

/** The end dialog's split table: your time, the ghost's and the gap at each split. */
export function fillSplits(container, rows, lang) {
  container.hidden = !rows.length;
  container.querySelector("tbody").replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement("tr");
      const gap = gapTenths(row);
      const time = (ms) => (ms === null ? "—" : formatSplitTime(ms));
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = row.removals;
      tr.append(th, cell(time(row.you_ms)), cell(time(row.ghost_ms)));
      tr.append(gap === null ? cell("—") : cell(gapText(row, lang), `split-gap ${standing(gap)}`));
      return tr;
    }),
  );
}
