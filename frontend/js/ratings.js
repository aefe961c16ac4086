// How a rating and its change read, on the profile's chart and in a rated race's
// standings: "1512?" while provisional, "+12", "−9", "±0".

import { gettext } from "./i18n.js";

/** "+12", "−9" or "±0" (a true minus sign). */
export function signed(change) {
  if (change > 0) return `+${change}`;
  return change < 0 ? `\u2212${-change}` : "\u00b10";
}

export const shownRating = (rating, provisional) => `${rating}${provisional ? "?" : ""}`;

/** Why a rated race did not move a rating (the `finished` frame's `unrated`). */
const UNRATED = {
  too_short: gettext("not rated: the race lasted seconds"),
  left_early: gettext("not rated: given up before ten moves"),
};

/** A standings line's rating cell: the new rating and the change, or why there is none (yet). */
export function ratingText(line) {
  if (!line) return "—";
  if (line.pending) return gettext("awaiting review");
  const change = UNRATED[line.unrated] ?? signed(line.change);
  return `${shownRating(line.rating, line.provisional)} (${change})`;
}
