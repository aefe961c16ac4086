// What a finished game's dialog says of how it went: its score, moves and time, and
// where a daily result ranks or why it does not (a guest's deal, an account too new,
// a result held for review). Its rank is the server's (the day's board,
// /api/daily/<date>/leaderboard/), read once the dialog opens.

import { requestJSON } from "./api.js";
import { formatDuration } from "./clock.js";
import { gettext, interpolate } from "./i18n.js";

const TRIES = 5;
const RETRY_MS = 1000;

/** Fills every end dialog's score, moves and time. */
export function showEndStats(board, elapsedMs) {
  const values = { score: board.score, moves: board.moves, time: formatDuration(elapsedMs) };
  for (const [name, value] of Object.entries(values)) {
    for (const el of document.querySelectorAll(`[data-end-${name}]`)) el.textContent = value;
  }
}

/** Fills `dialog`'s rank line of a daily attempt (data-daily-rank="YYYY-MM-DD"), once;
 * the other games' line says why they never rank, in the page (game_end_stats.html). */
export async function showEndRank(dialog) {
  const line = dialog.querySelector("[data-daily-rank]");
  if (!line || line.dataset.asked) return;
  line.dataset.asked = "true";
  for (let tried = 1; tried <= TRIES; tried += 1) {
    const url = `/api/daily/${line.dataset.dailyRank}/leaderboard/`;
    const { ok, data } = await requestJSON("GET", url);
    if (ok && data.you) {
      line.textContent = rankText(data.you, line.dataset.why);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS)); // the result is being stored
  }
}

/** Where a daily result ranks, or would, and why it is not ranked. */
export function rankText(you, why) {
  const rank = { rank: you.rank };
  if (you.guests) {
    const would = interpolate(gettext("Not ranked: you would rank #%(rank)s among guests."), rank);
    return `${would} ${why || gettext("Guests play a deal of their own; only accounts are ranked.")}`;
  }
  if (you.ranked) return interpolate(gettext("Your rank today: #%(rank)s."), rank);
  const would = interpolate(gettext("Not ranked: you would rank #%(rank)s."), rank);
  if (you.flagged) return `${would} ${gettext("The fair-play checks flagged it, and it waits for staff to look at it.")}`;
  if (you.disqualified) return `${would} ${gettext("Staff disqualified it.")}`;
  return would;
}
