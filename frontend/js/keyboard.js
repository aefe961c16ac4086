// Keyboard play: arrow keys move the focus to the nearest card in that direction
// (Tab walks the slots in order), Enter/Space tap the focused card (they are
// buttons), U undoes, Escape clears the selection.

const DIRECTIONS = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

function centre(el) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/** The card nearest to `from` in direction [dx, dy], favouring the straight line. */
export function nearest(from, cards, [dx, dy]) {
  const [fx, fy] = centre(from);
  let best = null;
  let bestCost = Infinity;
  for (const card of cards) {
    if (card === from) continue;
    const [x, y] = centre(card);
    const along = (x - fx) * dx + (y - fy) * dy;
    if (along <= 1) continue;
    const across = Math.abs((x - fx) * dy) + Math.abs((y - fy) * dx);
    const cost = along + 2 * across;
    if (cost < bestCost) {
      bestCost = cost;
      best = card;
    }
  }
  return best;
}

export function bindKeyboard(tableRoot, { onUndo, onEscape }) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest("input, textarea, select, dialog")) return;
    const cards = [...tableRoot.querySelectorAll(".card")];
    if (event.key in DIRECTIONS) {
      const from = tableRoot.contains(document.activeElement) ? document.activeElement : null;
      const next = from ? nearest(from, cards, DIRECTIONS[event.key]) : cards[0];
      if (next) next.focus();
      event.preventDefault();
    } else if (event.key === "u" || event.key === "U") {
      onUndo();
      event.preventDefault();
    } else if (event.key === "Escape") {
      onEscape();
    }
  });
}
