// The player's own board as the server last described it (never a hidden card).

export const PILES = Array.from({ length: 12 }, (_, i) => `P${i + 1}`);
export const RESERVE = Array.from({ length: 8 }, (_, i) => `R${i + 1}`);
export const SLOTS = [...PILES, ...RESERVE];
export const TOTAL_CARDS = 104;

/** From the `board` of a `state` message. */
export function boardFromState(board) {
  const slots = {};
  for (const { slot, count, top } of board.slots) slots[slot] = { count, top };
  const { score, moves, cards_left, status, seq, can_undo } = board;
  return { slots, score, moves, cards_left, status, seq, can_undo };
}

/** The board after a `moved` answer (a move or an undo). */
export function applyMoved(board, moved) {
  const slots = { ...board.slots };
  const step = moved.kind === "undo" ? 1 : -1;
  for (const slot of moved.slots) {
    const top = slot in moved.revealed ? moved.revealed[slot] : slots[slot].top;
    slots[slot] = { count: slots[slot].count + step, top };
  }
  const { score, moves, cards_left, status, can_undo } = moved;
  return { slots, score, moves, cards_left, status, can_undo, seq: moved.seq };
}

/** The deal before the start: every card face down (the server sends no board yet). */
export function faceDownBoard() {
  const slots = {};
  for (const slot of SLOTS) slots[slot] = { count: slot.startsWith("P") ? 8 : 1, top: null };
  return { slots, score: 0, moves: 0, cards_left: TOTAL_CARDS, status: "waiting", seq: 0, can_undo: false };
}
