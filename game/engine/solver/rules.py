"""Which moves the search plays without branching, and which it branches on.

Every rule here keeps the search exact: each is proved in docs/solver.md
("Forced moves", "Dominated moves"). The proofs lean on two facts:

* playing a card earlier never hurts another card: a card is playable once
  everything above it has gone, so removing more cards only frees more;
* a card lying alone in its stack (a reserve card, or the last card of a
  pile) hides nothing and stays playable until used, so using it later
  never hurts either.
"""

from ..rules import PAIRS, TRIO


def forced_moves(board):
    """Moves that some winning line (if any) plays now; empty when none applies.

    1. *Class in full view*: every remaining card of a class is playable —
       play them all, matched in any way.
    2. *Lone partners*: every remaining card of a value lies alone in its
       stack (for faces: of two values) — every playable partner goes with them.
    """
    remaining, showing, alone = board.remaining, board.showing, board.alone
    for low, high in PAIRS:
        count = remaining[low]
        lows, highs = showing[low], showing[high]
        if not (lows and highs):
            continue
        if len(lows) == count == len(highs) or alone[low] == count or alone[high] == count:
            # Under rule 2 the lone side may outnumber the other: zip stops short.
            return list(zip(sorted(lows), sorted(highs), strict=False))
    count = remaining[TRIO[0]]  # a trio takes one of each: as many of every face left
    jacks, queens, kings = (showing[value] for value in TRIO)
    if jacks and queens and kings:
        in_view = sum(len(showing[value]) == count for value in TRIO)
        lone = sum(alone[value] == count for value in TRIO)
        if in_view == 3 or lone >= 2:
            return list(zip(sorted(jacks), sorted(queens), sorted(kings), strict=False))
    return []


def candidate_moves(board):
    """The moves worth branching on, unordered.

    * Stacks with the same content are interchangeable: one stands for all.
    * A partner lying alone is used only when no other partner of its value
      is playable (a lone card can always wait, and another partner frees more).
    * A move made only of lone cards is never needed before the end, where
      rule 1 of :func:`forced_moves` plays it: it frees nothing.
    """
    showing = board.showing
    moves = []
    for low, high in PAIRS:
        if showing[low] and showing[high]:
            lows, lows_alone = _representatives(board, low)
            highs, highs_alone = _representatives(board, high)
            if not (lows_alone and highs_alone):
                moves += [(a, b) for a in lows for b in highs]
    if all(showing[value] for value in TRIO):
        (jacks, j_alone), (queens, q_alone), (kings, k_alone) = (
            _representatives(board, value) for value in TRIO
        )
        if not (j_alone and q_alone and k_alone):
            moves += [(j, q, k) for j in jacks for q in queens for k in kings]
    return moves


def _representatives(board, value):
    """Stacks showing ``value`` worth trying, and whether it is one lone card.

    One stack per distinct content among stacks with cards under the shown
    one; when there are none, a single stack holding the card alone.
    """
    height, content = board.height, board.content_ids
    chosen, seen, lone = [], set(), None
    for s in sorted(board.showing[value]):
        h = height[s]
        if h == 1:
            if lone is None:
                lone = s
        else:
            c = content[s][h]
            if c not in seen:
                seen.add(c)
                chosen.append(s)
    return (chosen, False) if chosen else ([lone], True)
