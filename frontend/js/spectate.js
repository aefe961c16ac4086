// A spectator's felt: one player's board in the rule book's arc (the table.js the
// players and the replay draw), the leader's until the spectator picks another with
// a tap on their card in the panel, the ‹ › buttons or the [ and ] keys.
//
// The server sends a spectator no card, only each player's pile heights. Every slot
// is a stack that only ever loses or gets back its top card, so where the deal's code
// is public (a typed code, a race once over) the top of a slot is the deal's card at
// that height, dealt here by hm1.js; where it is hidden the felt shows what may be
// known: each slot's cards face down, as many as it holds.

import { SLOTS, faceDownBoard } from "./board.js";
import { dealFromCode } from "./hm1.js";
import { gettext, interpolate, playerName } from "./i18n.js";

const ORDER = { won: 0 }; // a winner leads; then the fewest cards left, the best score

/** The player a spectator watches unless they chose one: the race's leader. */
export function leader(players) {
  const ranked = [...players].sort(
    (a, b) =>
      (ORDER[a.status] ?? 1) - (ORDER[b.status] ?? 1) ||
      a.cards_left - b.cards_left ||
      b.score - a.score ||
      a.id - b.id,
  );
  return ranked[0] ?? null;
}

const dealt = new Map(); // code -> stacks: a page deals its code once, not once a frame

/** A deal's 20 stacks (bottom → top) from its code; null when the code is hidden or a
 * custom deal (only its server knows its cards). */
export function stacksOf(code) {
  if (!code) return null;
  if (!dealt.has(code)) {
    const deal = dealFromCode(code);
    dealt.set(code, deal ? [...deal.piles, ...deal.reserve.map((card) => [card])] : null);
  }
  return dealt.get(code);
}

/** A player's board as a spectator may see it: each slot's count from the heights, its
 * top card from the deal's stacks when they are known, else face down. */
export function watchedBoard(player, stacks) {
  const board = faceDownBoard();
  if (!player) return board;
  const slots = {};
  SLOTS.forEach((slot, i) => {
    const count = player.heights ? player.heights[i] : board.slots[slot].count;
    slots[slot] = { count, top: stacks && count > 0 ? stacks[i][count - 1] : null };
  });
  const { score, moves, cards_left, status } = player;
  return { ...board, slots, score, moves, cards_left, status };
}

/** Who is watched, and the felt's bar that says it and switches. */
export class Spectator {
  /** @param {HTMLElement} bar  the watch bar ([data-watching] text, [data-watch-step] buttons)
   *  @param {() => void} onChange  redraws the page */
  constructor(bar, onChange) {
    this.bar = bar;
    this.chosen = null; // a player's id once the spectator picked one
    this.players = [];
    this.onChange = onChange;
    for (const button of bar.querySelectorAll("[data-watch-step]")) {
      button.addEventListener("click", () => this.step(Number(button.dataset.watchStep)));
    }
    document.addEventListener("keydown", (event) => {
      if (!this.players.length || event.target.closest("input, textarea, select, dialog")) return;
      const by = { "[": -1, "]": 1 }[event.key];
      if (by) this.step(by);
    });
  }

  /** The player watched now: the one chosen while they are in the race, else the leader. */
  watched() {
    return this.players.find((p) => p.id === this.chosen) ?? leader(this.players);
  }

  watch(id) {
    this.chosen = id;
    this.onChange();
  }

  step(by) {
    const at = this.players.indexOf(this.watched());
    const count = this.players.length;
    if (count) this.watch(this.players[(at + by + count) % count].id);
  }

  /** The bar and the panel's cards for `players` (everyone in the race, in its order). */
  show(players, panel) {
    this.players = players;
    const watched = this.watched();
    this.bar.hidden = !watched;
    if (!watched) return;
    const name = playerName(watched.name);
    this.bar.querySelector("[data-watching]").textContent = interpolate(gettext("Watching %(name)s"), { name });
    for (const button of this.bar.querySelectorAll("[data-watch-step]")) button.disabled = players.length < 2;
    for (const [id, card] of panel.cards) {
      card.classList.add("watchable");
      card.classList.toggle("watched", id === watched.id);
      if (!card.dataset.watchBound) {
        card.dataset.watchBound = "1";
        card.addEventListener("click", () => this.watch(id));
      }
    }
  }
}
