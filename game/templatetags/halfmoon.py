"""Template filters of the game pages: each says in one call what a board or history
row would otherwise say with an include or a `{% url %}` per row (bench/friends_boards.py)."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext, gettext_lazy, ngettext

from game.base import links
from game.models import Entry, Race
from game.players.history_chart import MAX_SCORE
from game.players.identity import DEFAULT_NAME
from game.ratings import ranks

register = template.Library()

STATUS_WORDS = {
    Entry.WON: gettext_lazy("won"),
    Entry.BLOCKED: gettext_lazy("blocked"),
    Entry.RESIGNED: gettext_lazy("resigned"),
    Entry.TIMED_OUT: gettext_lazy("out of time"),
    Entry.ABANDONED: gettext_lazy("left the race"),
    Entry.PLAYING: gettext_lazy("playing"),
}
"""A result's status as a row says it (any other: "waiting")."""


@register.filter
def duration(ms):
    """Milliseconds as the info bar shows them: 83000 -> "1:23", 3723000 -> "1:02:03"."""
    if ms is None or ms == "":
        return "—"
    total = max(0, int(ms) // 1000)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@register.filter
def player_name(name):
    """A player's name; the name given to one who chose none reads in the page's language."""
    return gettext("Player") if name == DEFAULT_NAME else name


@register.filter
def link(value, route):
    """`{{ name|link:"game:profile" }}`: `{% url route value %}`, reversed once a page."""
    return links.url(route, value)


@register.filter
def status_word(status):
    """A result's status in the reader's language: won, resigned, out of time, …"""
    return str(STATUS_WORDS.get(status) or gettext("waiting"))


@register.filter
def signed(change):
    """A rating's change: "+12", "−9" or "±0"."""
    return ranks.signed(change)


@register.filter
def mode_name(mode):
    return str(Race.MODE_NAMES.get(mode, mode))


@register.filter
def record_figure(line, board):
    """A records board line's figure: a best time, a run of days, or daily deals won."""
    value = line["value"]
    if board == "times":
        return duration(value)
    if board == "streaks":
        return ngettext("%(days)s day", "%(days)s days", value) % {"days": value}
    return value


CHART_NAME_CHARS, BAR_WIDTH = 16, 220
"""A day's chart: a line's name cut to fit beside its bar, and the bar's full width in
the chart's units (a score of MAX_SCORE, all 104 cards)."""
_CHART_LINE = (
    '<g transform="translate(0 {top})"><text x="0" y="8" font-size="7" '
    'dominant-baseline="middle">{rank}. {name}</text><rect x="100" y="3" width="220" '
    'height="10" rx="2" fill="rgba(255,255,255,0.06)"/><rect class="bar-score" x="100" '
    'y="3" width="{bar}" height="10" rx="2"/><text x="326" y="8" font-size="7" '
    'dominant-baseline="middle">{score} · {figure}</text></g>'
)
_TABLE_ROW = (
    "<tr{you}><td>{rank}</td><td>{name}{unranked}</td><td>{status}{replay}</td>"
    "<td>{score}</td><td>{moves}</td><td>{time}</td><td>{undos}{no_undo}</td></tr>"
)


@register.simple_tag
def day_chart_lines(rows):
    """A day's board as the chart's lines: rank and name, the score's bar, and the time
    of a win or the moves of the rest. Here, not in the template: filter by filter, a
    page's 50 rows were a third of its time (bench/friends_boards.py)."""
    moves_word = gettext("moves")
    lines = []
    for n, line in enumerate(rows):
        won = line["status"] == Entry.WON
        figure = (
            duration(line["time_ms"])
            if won
            else format_html('<tspan class="muted">{} {}</tspan>', line["moves"], moves_word)
        )
        name = Truncator(player_name(line["name"])).chars(CHART_NAME_CHARS)
        bar = round(min(line["score"], MAX_SCORE) / MAX_SCORE * BAR_WIDTH)
        lines.append(
            format_html(
                _CHART_LINE,
                top=n * 16,
                rank=line["rank"],
                name=name,
                bar=bar,
                score=line["score"],
                figure=figure,
            )
        )
    return mark_safe("".join(lines))  # noqa: S308 - each line escaped by format_html


@register.simple_tag
def day_table_rows(rows):
    """A day's board as the table's rows (the viewer's own marked), for the same reason
    as `day_chart_lines`."""
    words = {"unranked": gettext("unranked"), "replay": gettext("Replay")}
    no_undo = format_html(
        ' <span class="no-undo" title="{}">★</span>', gettext("Won without an undo")
    )
    return mark_safe("".join(_table_row(line, words, no_undo) for line in rows))  # noqa: S308


def _table_row(line, words, no_undo):
    won = line["status"] == Entry.WON
    rank = line["rank"] if line["ranked"] else f"({line['rank']})"
    unranked = (
        ""
        if line["ranked"]
        else format_html(' <span class="unranked">{}</span>', words["unranked"])
    )
    replay = (
        format_html(' · <a href="{}">{}</a>', line["replay"], words["replay"])
        if line.get("replay")
        else ""
    )
    return format_html(
        _TABLE_ROW,
        you=mark_safe(' class="you" aria-current="true"') if line.get("you") else "",  # noqa: S308
        rank=rank,
        name=player_name(line["name"]),
        unranked=unranked,
        status=status_word(line["status"]),
        replay=replay,
        score=line["score"],
        moves=line["moves"],
        time=duration(line["time_ms"]) if won else "—",
        undos=line["undos"],
        no_undo=no_undo if won and not line["undos"] else "",
    )
