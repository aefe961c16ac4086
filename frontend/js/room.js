// A race around the table: the lobby (players, join, the host's start button),
// the 3-2-1 countdown and the final standings.

import { formatDuration } from "./clock.js";
import { playerName } from "./i18n.js";
import { statusText } from "./players.js";
import { ratingText } from "./ratings.js";

const NAME_KEY = "halfmoon.name";

export const rememberedName = () => localStorage.getItem(NAME_KEY) || "";
export const rememberName = (name) => localStorage.setItem(NAME_KEY, name);

export function bindJoinForm(form, onJoin) {
  form.elements.name.value = rememberedName();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = form.elements.name.value.trim();
    if (!name) return;
    rememberName(name);
    onJoin(name);
  });
}

/** Counts 3, 2, 1 down to the server's `starts_at`, then hides itself. */
export function runCountdown(overlay, startsAt, clock) {
  clearInterval(overlay.timer);
  const number = overlay.querySelector(".countdown-number");
  const tick = () => {
    const left = Math.ceil((startsAt - clock.now()) / 1000);
    if (left <= 0) {
      clearInterval(overlay.timer);
      overlay.hidden = true;
      return;
    }
    overlay.hidden = false;
    if (number.textContent !== String(left)) {
      number.textContent = String(left);
      number.classList.remove("pop");
      void number.offsetWidth;
      number.classList.add("pop");
    }
  };
  tick();
  overlay.timer = setInterval(tick, 100);
}

export function stopCountdown(overlay) {
  clearInterval(overlay.timer);
  overlay.hidden = true;
}

/** Fills the standings table: rank, name, status, score, moves, time; in a rated race
 * also each account's new rating and its change (the column shows only then). */
export function fillStandings(tbody, standings, youId) {
  const rated = standings.some((entry) => entry.rating);
  const column = tbody.closest("table")?.querySelector("[data-rating-column]");
  if (column) column.hidden = !rated;
  tbody.replaceChildren(
    ...standings.map((entry) => {
      const row = document.createElement("tr");
      row.classList.toggle("you", entry.player === youId);
      const time = entry.status === "won" && entry.time_ms != null ? formatDuration(entry.time_ms) : "—";
      const cells = [entry.rank, playerName(entry.name), statusText(entry.status), entry.score, entry.moves, time];
      if (rated) cells.push(ratingText(entry.rating));
      for (const text of cells) {
        const cell = document.createElement("td");
        cell.textContent = String(text);
        row.append(cell);
      }
      return row;
    }),
  );
}
