// Everyone's live progress in a race: score, moves, cards left, a progress bar and
// a miniature of the 20 slot heights laid out like the table, moving as they play.

import { SLOTS, TOTAL_CARDS } from "./board.js";
import { gridArea } from "./table.js";
import { gettext, interpolate, playerName } from "./i18n.js";

const FULL = { P: 8, R: 1 };

export const statusText = (status) =>
  ({
    waiting: gettext("waiting"),
    playing: gettext("playing"),
    won: gettext("won"),
    blocked: gettext("blocked"),
    resigned: gettext("resigned"),
    timed_out: gettext("out of time"),
    abandoned: gettext("left the race"),
    away: gettext("away"),
  })[status] || status;

const STILL_IN = new Set(["waiting", "playing"]);
/** What a player's card says: "away" for one still in the race whose every socket has
 * closed (back within the grace period, they carry on), else their status. */
export const shownStatus = (status, connected) => (connected === false && STILL_IN.has(status) ? "away" : status);

function miniatureHTML() {
  const cells = SLOTS.map((slot) => {
    const { row, column } = gridArea(slot);
    return `<span class="mini-slot" data-mini="${slot}" style="grid-row:${row};grid-column:${column}"><span class="mini-fill"></span></span>`;
  });
  return `<div class="miniature" aria-hidden="true">${cells.join("")}</div>`;
}

function cardHTML() {
  return `
    <div class="player-head">
      <span class="player-name"></span>
      <span class="player-status"></span>
    </div>
    <div class="player-stats">
      <span><b class="p-score"></b> ${gettext("score")}</span>
      <span><b class="p-moves"></b> ${gettext("moves")}</span>
      <span><b class="p-left"></b> ${gettext("cards left")}</span>
    </div>
    <div class="progress" role="progressbar" aria-label="${gettext("Cards removed")}" aria-valuemin="0" aria-valuemax="${TOTAL_CARDS}"><span class="progress-fill"></span></div>
    ${miniatureHTML()}`;
}

export class PlayersPanel {
  constructor(root) {
    this.root = root;
    this.cards = new Map();
  }

  /** Show exactly these players (the full list of a `state`). */
  setPlayers(players, youId) {
    const ids = new Set(players.map((p) => p.id));
    for (const [id, el] of this.cards) {
      if (!ids.has(id)) {
        el.remove();
        this.cards.delete(id);
      }
    }
    for (const player of players) this.update(player, youId);
  }

  /** Create or refresh one player's card from a player object or a `progress`. */
  update(player, youId) {
    const id = player.id ?? player.player;
    let el = this.cards.get(id);
    if (!el) {
      el = document.createElement("li");
      el.className = "player";
      el.dataset.player = id;
      el.innerHTML = cardHTML();
      this.root.append(el);
      this.cards.set(id, el);
    }
    if (player.name !== undefined) {
      const shown = playerName(player.name);
      const name = id === youId ? interpolate(gettext("%(name)s (you)"), { name: shown }) : shown;
      el.querySelector(".player-name").textContent = player.host ? `${name} ★` : name;
      el.classList.toggle("you", id === youId);
    }
    if (player.connected !== undefined) el.classList.toggle("offline", !player.connected);
    el.classList.toggle("ghost", Boolean(player.ghost)); // a recorded game (ghost.js)
    el.querySelector(".miniature").hidden = player.heights === null; // heights kept secret
    el.dataset.status = player.status;
    this.showStatus(el);
    el.querySelector(".p-score").textContent = player.score;
    el.querySelector(".p-moves").textContent = player.moves;
    el.querySelector(".p-left").textContent = player.cards_left;
    const bar = el.querySelector(".progress");
    bar.setAttribute("aria-valuenow", String(TOTAL_CARDS - player.cards_left));
    el.querySelector(".progress-fill").style.width = `${(100 * (TOTAL_CARDS - player.cards_left)) / TOTAL_CARDS}%`;
    if (player.heights) this.heights(el, player.heights, player.slots || []);
  }

  heights(el, heights, changed) {
    SLOTS.forEach((slot, i) => {
      const mini = el.querySelector(`[data-mini="${slot}"]`);
      mini.dataset.count = heights[i];
      mini.firstChild.style.height = `${(100 * heights[i]) / FULL[slot[0]]}%`;
      if (changed.includes(slot)) {
        mini.classList.remove("flash");
        void mini.offsetWidth;
        mini.classList.add("flash");
      }
    });
  }

  setConnected(id, connected) {
    const el = this.cards.get(id);
    if (!el) return;
    el.classList.toggle("offline", !connected);
    this.showStatus(el);
  }

  showStatus(el) {
    const shown = shownStatus(el.dataset.status, !el.classList.contains("offline"));
    el.dataset.shown = shown;
    el.querySelector(".player-status").textContent = statusText(shown);
  }
}
