// The table: the rule book's arc of 12 piles around the two reserve rows.
// Every slot is one <button class="card" data-slot data-card> over a caption
// with its pile number (1–12) or reserve slot (R1–R8) and its card count.
// Each slot knows its place in two layouts of the arc, and the stylesheet picks
// one by the felt's shape: wide (nine columns), or narrow (seven, for a felt
// taller than wide), whichever gives the larger cards.

import { SUIT_SYMBOLS, cardLabel, isFace, isRed, rankLabel, suit } from "./cards.js";
import { SLOTS } from "./board.js";
import { setAttr, setText } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

/**
 * game/engine/scheme.py ARC_ROWS: pile 1 bottom left, numbered clockwise. The
 * reserve block sits half a column right, centred under the seven piles of the top row.
 */
export const WIDE = {
  rows: [
    [null, "P4", "P5", "P6", "P7", "P8", "P9", "P10", null],
    ["P3", null, null, null, null, null, null, null, "P11"],
    ["P2", null, "R1", "R2", "R3", "R4", null, null, "P12"],
    ["P1", null, "R5", "R6", "R7", "R8", null, null, null],
  ],
  reserveShift: 1,
};

/**
 * The same arc in seven columns, for a felt taller than wide (a phone held upright):
 * the side piles stand under the ends of the top row, and the reserve block, half a
 * column off, keeps half a column clear of them on either side.
 */
export const NARROW = {
  rows: [
    ["P4", "P5", "P6", "P7", "P8", "P9", "P10"],
    ["P3", null, null, null, null, null, "P11"],
    ["P2", "R1", "R2", "R3", "R4", null, "P12"],
    ["P1", "R5", "R6", "R7", "R8", null, null],
  ],
  reserveShift: 1,
};

const slotName = (slot) => (slot.startsWith("P") ? slot.slice(1) : slot);

/**
 * A slot's grid area in a layout. The grid has two tracks per column, so a block
 * can sit half a column off (reserveShift 1).
 */
export function gridArea(slot, layout = WIDE) {
  for (const [row, cells] of layout.rows.entries()) {
    const column = cells.indexOf(slot);
    if (column >= 0) {
      const track = 2 * column + 1 + (slot.startsWith("R") ? layout.reserveShift : 0);
      return { row: row + 1, column: `${track} / span 2` };
    }
  }
  throw new Error(`no place for ${slot}`);
}

function describe(slot, count, card, lang) {
  const where = slot.startsWith("P") ? gettext("Pile %(name)s") : gettext("Reserve %(name)s");
  const cards = ngettext("%(count)s card", "%(count)s cards", count);
  const parts = [interpolate(where, { name: slotName(slot) })];
  parts.push(card ? cardLabel(card, lang) : gettext("empty"));
  parts.push(interpolate(cards, { count }));
  return parts.join(", ");
}

/** The face of a card: corner index, centre pip or framed letter, mirrored corner.
 * Only the top corner is text: the rest repeats it, drawn by CSS from data-face, so
 * that neither a screen reader nor the label's check meets the index three times. */
export function faceHTML(card, lang) {
  const rank = rankLabel(card, lang);
  const symbol = SUIT_SYMBOLS[suit(card)];
  const corner = `<span class="rank">${rank}</span><span class="suit">${symbol}</span>`;
  const drawn = `<span class="rank" data-face="${rank}"></span><span class="suit" data-face="${symbol}"></span>`;
  const centre = isFace(card)
    ? `<span class="face-frame" aria-hidden="true"><span class="face-letter" data-face="${rank}"></span><span class="face-suit" data-face="${symbol}"></span></span>`
    : `<span class="pip" aria-hidden="true" data-face="${symbol}"></span>`;
  return `<span class="corner top">${corner}</span>${centre}<span class="corner bottom" aria-hidden="true">${drawn}</span>`;
}

/**
 * The felt's size for the stylesheet: its content box in px (--felt-w, --felt-h), and
 * `narrow` when seven columns give larger cards than nine: from about 1.41 times as
 * wide as tall (a short felt) to 1.48 (one 760 px tall or more). The felt is no query
 * container: Chromium restyled and laid out every card of one on every layout of the
 * page (site.css, .felt).
 */
export function fitFelt(felt, width, height) {
  felt.style.setProperty("--felt-w", `${width}px`);
  felt.style.setProperty("--felt-h", `${height}px`);
  const ratio = height > 0 ? width / height : Infinity;
  felt.classList.toggle("narrow", ratio <= 1.41 || (ratio <= 1.48 && height >= 760));
}

/** Keeps `felt` fitted as it resizes (before the frame is painted). */
function watchFelt(felt) {
  if (!felt || typeof ResizeObserver === "undefined") return;
  new ResizeObserver(([entry]) => {
    const { width, height } = entry.contentRect;
    fitFelt(felt, width, height);
  }).observe(felt);
}

export class Table {
  /**
   * @param {HTMLElement} root  the empty .table element
   * @param {(slot: string) => void} onTap
   */
  constructor(root, onTap) {
    this.root = root;
    this.cells = {};
    watchFelt(root.closest(".felt"));
    for (const slot of SLOTS) {
      const cell = document.createElement("div");
      cell.className = `slot ${slot.startsWith("R") ? "reserve" : "pile"}`;
      for (const [name, layout] of Object.entries({ wide: WIDE, narrow: NARROW })) {
        const { row, column } = gridArea(slot, layout);
        cell.style.setProperty(`--${name}-row`, row);
        cell.style.setProperty(`--${name}-column`, column);
      }
      cell.innerHTML = `<button type="button" class="card" data-slot="${slot}" data-card=""></button>
        <span class="caption"><span class="slot-name">${slotName(slot)}</span><span class="slot-count"></span></span>`;
      const button = cell.querySelector(".card");
      button.addEventListener("click", () => onTap(slot));
      root.append(cell);
      this.cells[slot] = { cell, button, count: cell.querySelector(".slot-count"), shown: undefined };
    }
  }

  /**
   * @param {object} board  board.js model
   * @param {object} view   {lang, selected: Set, dimmed: Set, leaving: Set, idle}
   *                         idle: no card can be played now (the game is over or blocked)
   */
  render(board, view) {
    this.root.classList.toggle("idle", view.idle);
    for (const slot of SLOTS) {
      const { button, count, cell } = this.cells[slot];
      const { top, count: n } = board.slots[slot];
      const card = top || "";
      if (this.cells[slot].shown !== `${card}/${view.lang}`) {
        this.cells[slot].shown = `${card}/${view.lang}`;
        button.dataset.card = card;
        button.innerHTML = card ? faceHTML(card, view.lang) : "";
        button.classList.toggle("red", Boolean(card) && isRed(card));
        button.classList.toggle("face", Boolean(card) && isFace(card));
        button.classList.remove("arrive");
        if (card) requestAnimationFrame(() => button.classList.add("arrive"));
      }
      button.classList.toggle("back", !card && n > 0);
      button.classList.toggle("empty", !card && n === 0);
      setAttr(button, "aria-disabled", String(!card || view.idle));
      button.classList.toggle("selected", view.selected.has(slot));
      button.classList.toggle("dimmed", view.dimmed.has(slot));
      button.classList.toggle("leaving", view.leaving.has(slot));
      setAttr(button, "aria-pressed", String(view.selected.has(slot)));
      setAttr(button, "aria-label", describe(slot, n, top, view.lang));
      const depth = String(Math.max(0, n - 1));
      if (cell.style.getPropertyValue("--depth") !== depth) cell.style.setProperty("--depth", depth);
      setText(count, String(n));
    }
  }
}
