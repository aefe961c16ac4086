// "Was it winnable?" — asked of the server only once the player's game is over
// (the rule book: no solver and no hint during play).

import { errorText } from "./errors.js";
import { gettext, interpolate } from "./i18n.js";

const DIFFICULTY = {
  easy: gettext("easy"),
  medium: gettext("medium"),
  hard: gettext("hard"),
  "very hard": gettext("very hard"),
};

const POLL_MS = 1000;
const POLLS = 60;

/** The server's answer for this room, as sentences for the player. The server
 * solves in the background and answers 202 ("computing") until it is done. */
export async function askHindsight(room) {
  for (let poll = 0; poll < POLLS; poll += 1) {
    const response = await fetch(`/api/races/${room}/hindsight/`, { credentials: "same-origin" });
    const data = await response.json().catch(() => ({}));
    if (response.status === 202) {
      await new Promise((done) => setTimeout(done, POLL_MS));
      continue;
    }
    if (!response.ok) return [errorText(data.error || { code: "server_error" })];
    return describe(data);
  }
  return [gettext("The solver could not decide this deal in time.")];
}

export function describe({ verdict, difficulty, moves, winnable_until: kept }) {
  if (verdict === "not_winnable") return [gettext("No one could have won this deal.")];
  if (verdict !== "winnable") return [gettext("The solver could not decide this deal in time.")];
  const lines = [gettext("This deal could be won.")];
  if (difficulty) {
    lines.push(interpolate(gettext("Difficulty: %(level)s."), { level: DIFFICULTY[difficulty] || difficulty }));
  }
  if (kept === null || kept === undefined) {
    lines.push(gettext("The solver could not follow your game in time."));
  } else if (kept >= moves) {
    lines.push(interpolate(gettext("All %(moves)s of your moves kept it winnable."), { moves }));
  } else {
    lines.push(
      interpolate(gettext("Your game stayed winnable for %(kept)s moves; move %(move)s lost it."), {
        kept,
        move: kept + 1,
      }),
    );
  }
  return lines;
}
