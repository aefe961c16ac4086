"""
A game's progress as a line of moon phases: the spoiler-free picture a shared result
carries (like Wordle's grid of squares).

Each glyph is one eighth of the game's course, by its recorded points in order, and
shows how much of the deal had been removed by then: a new moon at the start, a full
moon once every card is gone. It says how a game went, never which card was where.
Pure: it reads numbers only.
"""

PHASES = "🌑🌒🌓🌔🌕"
"""New, waxing crescent, first quarter, waxing gibbous, full: none removed to all."""
GLYPHS = 8
CARDS = 104


def phase(cards_left):
    """The glyph of a point of the game: new before any removal, full only when no card
    is left, and between them a third, two thirds or more of the deal removed."""
    if cards_left >= CARDS:
        return PHASES[0]
    if cards_left <= 0:
        return PHASES[-1]
    thirds = 3 * (CARDS - cards_left) // CARDS  # 0, 1 or 2
    return PHASES[1 + thirds]


def moon_line(cards_left_over_time):
    """The line of GLYPHS phases for a game's `cards_left` at each recorded point, in
    order (the deal first); a game with fewer points repeats its last one."""
    points = list(cards_left_over_time) or [CARDS]
    last = len(points) - 1
    picks = [points[round(last * n / GLYPHS)] for n in range(1, GLYPHS + 1)]
    return "".join(phase(left) for left in picks)
