// How the end of a game shows on the table page: the line on the felt once no
// card can be played, and who may ask for a rematch (as game/race/actions.py decides).

import { gettext } from "./i18n.js";

/** A player's game is over in these states; `blocked` may still undo or give up. */
export const DONE = ["won", "resigned", "timed_out", "abandoned"];

const OWN = {
  blocked: gettext("No move left: undo, or give up."),
  won: gettext("You won!"),
  resigned: gettext("You gave up."),
  timed_out: gettext("Your time ran out."),
  abandoned: gettext("You were away too long: you are out of this race."),
};

/**
 * The felt's status line: the viewer's own game once no card can be played,
 * what a spectator watches, and the end of a race ("" while there is nothing to say).
 */
export function tableStatus(race, role, boardStatus) {
  const lines = [];
  if (role === "player") lines.push(OWN[boardStatus]);
  else if (race.status === "running") lines.push(gettext("You are watching this race."));
  if (race.status === "finished" && ["race", "quick"].includes(race.mode)) {
    lines.push(gettext("The race is over."));
  }
  return lines.filter(Boolean).join(" ");
}

/** The host; any player when there is no host (a quick race) or the host has gone. */
export function mayAskRematch(you, players) {
  if (you.host) return true;
  const host = players.find((p) => p.host);
  return you.role === "player" && (!host || !host.connected);
}
