"""
The profile's chart of results: one bar per game, oldest to newest, its height the
game's score out of 520, gold when won; with a score axis (0 to 520) and the dates
of the first and last game under the bars.

Readable from one game to the profile's last HISTORY (100): a bar is never wider
than BAR_MAX (one game is one bar, not the whole width), a game that scored
nothing still shows a stub, and the axis says what the heights mean. The geometry
is computed here, in the SVG's own units, so the template only draws it.
"""

from django.utils import formats

from game.models import Entry, Race

WIDTH, HEIGHT = 400, 140
LEFT, RIGHT, TOP, BOTTOM = 30, 6, 8, 22
"""The plot's margins: the score labels on the left, the dates below."""
PLOT_W, PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
BASE = TOP + PLOT_H
"""The y of a score of 0 (the x axis)."""
MAX_SCORE = 520
TICKS = (0, 130, 260, 390, 520)
BAR_MAX = 24
"""The widest bar, in the SVG's units (a sixteenth of the plot)."""
GAP = 0.2
"""The share of each game's slot left empty between bars."""
STUB = 1.5
"""The height of a bar that scored 0, so that the game still shows."""


def _date(game):
    """The day a game was played, as the page's language writes a short date."""
    return formats.date_format(game.joined_at, "SHORT_DATE_FORMAT")


def _title(game, said):
    """A bar's title: the day, the mode, the score. A day's and a mode's words are said
    once a chart (`said`): formatting a date and translating a mode for each of 100
    bars took most of the chart's time."""
    day, mode = game.joined_at.date(), game.race.mode
    if day not in said:
        said[day] = _date(game)
    if mode not in said:
        said[mode] = str(Race.MODE_NAMES[mode])
    return f"{said[day]} · {said[mode]} · {game.score}"


def _y(score):
    return BASE - PLOT_H * min(score, MAX_SCORE) / MAX_SCORE


def _bar(game, index, slot, width, said):
    height = max(STUB, BASE - _y(game.score))
    return {
        "x": round(LEFT + slot * index + (slot - width) / 2, 2),
        "y": round(BASE - height, 2),
        "width": round(width, 2),
        "height": round(height, 2),
        "won": game.status == Entry.WON,
        "title": _title(game, said),
    }


def _dates(games, slot):
    """The first game's date under its bar, the last one's under its own (one if alike)."""
    first, last = (_date(game) for game in (games[0], games[-1]))
    if len(games) == 1 or first == last:
        return [{"x": round(LEFT + slot / 2, 2), "anchor": "middle", "text": first}]
    return [
        {"x": LEFT, "anchor": "start", "text": first},
        {"x": WIDTH - RIGHT, "anchor": "end", "text": last},
    ]


def chart(games):
    """What the template draws for `games` (oldest first), or None when there are none."""
    if not games:
        return None
    slot = PLOT_W / len(games)
    width = min(BAR_MAX, slot * (1 - GAP))
    if len(games) == 1:
        slot = PLOT_W  # one bar in the middle of the plot
    said = {}
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "base": BASE,
        "label_y": HEIGHT - 6,
        "ticks": [{"y": round(_y(score), 2), "label": score} for score in TICKS],
        "bars": [_bar(game, i, slot, width, said) for i, game in enumerate(games)],
        "dates": _dates(games, slot),
    }
