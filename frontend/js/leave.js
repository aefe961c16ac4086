// Leaving one's own running race ("New game", a link of the site header) gives
// the game up: the page asks first and, once the player agrees, resigns, then goes.

import { ask } from "./dialogs.js";

/**
 * @param {HTMLDialogElement} dialog  the question; its [data-confirm] button agrees
 * @param {object} race  racing(): leaving now would leave a running race;
 *                       resign(then): gives up, then calls `then`
 * @returns {(go: () => void) => void}  runs `go` at once when not racing, else once agreed
 */
export function guardLeaving(dialog, { racing, resign }) {
  return async (go) => {
    if (!racing()) return go();
    if (await ask(dialog)) resign(go);
  };
}
