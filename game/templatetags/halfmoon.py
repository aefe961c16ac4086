"""Template filters and tags of the game pages: each says in one call what a board's or
a profile's rows would otherwise say filter by filter, with an include or a `{% url %}`
per row (bench/friends_boards.py); the boards' and the profile's rows are whole tags."""

import html
import unicodedata

from django import template
from django.template.defaultfilters import capfirst, date
from django.utils.safestring import mark_safe
from django.utils.text import Truncator
from django.utils.timezone import template_localtime
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from game.base import links
from game.models import Entry, Race
from game.players import accounts, moderation
from game.players.history_chart import MAX_SCORE
from game.players.identity import DEFAULT_NAME, DELETED_NAME, NUMBERED_NAME
from game.ratings import ranks
from game.web.catalogue import catalogue_url

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
    """A player's name; the names given to one who chose none, to a deleted account and
    to one staff hid read in the page's language."""
    if name == accounts.HIDDEN_NAME:
        return moderation.hidden_label()
    if name == DEFAULT_NAME:
        return gettext("Player")
    numbered = NUMBERED_NAME.fullmatch(name)
    if numbered:
        return gettext("Player %(number)s") % {"number": numbered[1]}
    if name == DELETED_NAME:
        return pgettext("a deleted account's results", "deleted player")
    return name


@register.filter
def hidden_name(name):
    """Whether a stored name is one staff hid (`accounts.HIDDEN_NAME`): shown, never linked."""
    return name == accounts.HIDDEN_NAME


@register.filter
def link(value, route):
    """`{{ name|link:"game:profile" }}`: `{% url route value %}`, reversed once a page."""
    return links.url(route, value)


@register.simple_tag
def route(name, *args):
    """`{% route "game:lobby" %}`: `{% url %}`, reversed once for the same arguments."""
    return links.route(name, *args)


@register.simple_tag
def catalogue():
    """`{% catalogue %}`: the address of the page language's translations, by digest."""
    return catalogue_url()


@register.filter
def status_word(status):
    """A result's status in the reader's language: won, resigned, out of time, …"""
    word = STATUS_WORDS.get(status)  # a lazy word, translated once here (not for `or` too)
    return str(word) if word is not None else gettext("waiting")


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
    "<tr{you}><td>{rank}</td><td>{name}{mark}</td><td>{status}{replay}</td>"
    "<td>{score}</td><td>{moves}</td><td>{time}</td><td>{undos}{no_undo}</td></tr>"
)
"""The boards' lines and rows are filled with escaped text (`escaped`): `format_html`
escapes each value through Django's lazy-string wrappers, six times the time of the
same escaping done here (timed on a profile link)."""


def escaped(text):
    """`text` escaped for HTML, as Django's `escape` and autoescaping do it."""
    return html.escape(str(text))


def chart_name(name):
    """A name cut to fit beside its bar as `truncatechars` cuts it; one that fits (and is
    in NFC, as Truncator returns it) as it is, without Truncator's lazy object and its
    ellipsis translated again for each line."""
    name = str(name)
    if len(name) <= CHART_NAME_CHARS and unicodedata.is_normalized("NFC", name):
        return name
    return Truncator(name).chars(CHART_NAME_CHARS)


@register.simple_tag
def day_chart_lines(rows):
    """A day's board as the chart's lines: rank and name, the score's bar, and the time
    of a win or the moves of the rest. Here, not in the template: filter by filter, a
    page's 50 rows were a third of its time (bench/friends_boards.py). A number is
    written by `int` and a time by `duration`: only names and words need escaping."""
    moves_word = escaped(gettext("moves"))
    lines = []
    for n, line in enumerate(rows):
        if line["status"] == Entry.WON:
            figure = duration(line["time_ms"])
        else:
            figure = f'<tspan class="muted">{int(line["moves"])} {moves_word}</tspan>'
        bar = round(min(line["score"], MAX_SCORE) / MAX_SCORE * BAR_WIDTH)
        lines.append(
            _CHART_LINE.format(
                top=n * 16,
                rank=int(line["rank"]),
                name=escaped(chart_name(player_name(line["name"]))),
                bar=bar,
                score=int(line["score"]),
                figure=figure,
            )
        )
    return mark_safe("".join(lines))  # noqa: S308 - every text in it escaped


@register.simple_tag
def day_table_rows(rows):
    """A day's board as the table's rows (the viewer's own marked), for the same reason
    as `day_chart_lines`; each status said once a page."""
    no_undo = escaped(gettext("Won without an undo"))
    words = {
        "unranked": f' <span class="unranked">{escaped(gettext("unranked"))}</span>',
        "held": f' <span class="unranked held">{escaped(gettext("held"))}</span>',
        "verified": _verified_mark(),
        "replay": escaped(gettext("Replay")),
        "no_undo": f' <span class="no-undo" title="{no_undo}">★</span>',
    }
    statuses = {}
    return mark_safe("".join(_table_row(line, words, statuses) for line in rows))  # noqa: S308


def _verified_mark():
    title = escaped(gettext("Verified: the server replayed this game from its moves"))
    return f' <span class="verified" title="{title}">✓ {escaped(gettext("verified"))}</span>'


def _mark(line, words):
    """What follows a row's name: verified, held, unranked, or nothing."""
    if line.get("verified"):
        return words["verified"]
    if line.get("held"):
        return words["held"]
    return "" if line["ranked"] else words["unranked"]


def _table_row(line, words, statuses):
    won = line["status"] == Entry.WON
    rank = int(line["rank"]) if line["ranked"] else f"({int(line['rank'])})"
    if line["status"] not in statuses:
        statuses[line["status"]] = escaped(status_word(line["status"]))
    replay = line.get("replay")
    replay = f' · <a href="{escaped(replay)}">{words["replay"]}</a>' if replay else ""
    return _TABLE_ROW.format(
        you=' class="you" aria-current="true"' if line.get("you") else "",
        rank=rank,
        name=escaped(player_name(line["name"])),
        mark=_mark(line, words),
        status=statuses[line["status"]],
        replay=replay,
        score=int(line["score"]),
        moves=int(line["moves"]),
        time=duration(line["time_ms"]) if won else "—",
        undos=int(line["undos"]),
        no_undo=words["no_undo"] if won and not line["undos"] else "",
    )


_RECORD_CHART_LINE = (
    '<g transform="translate(0 {top})"{you}><text x="0" y="8" font-size="7" '
    'dominant-baseline="middle">{rank}. {name}</text><rect x="100" y="3" width="220" '
    'height="10" rx="2" fill="rgba(255,255,255,0.06)"/><rect class="{bar_class}" x="100" '
    'y="3" width="{bar}" height="10" rx="2"/><text x="326" y="8" font-size="7" '
    'dominant-baseline="middle">{figure}</text></g>'
)
_RECORD_ROW = "<tr{you}><td>{rank}</td><td>{name}</td><td>{figure}</td><td>{day}</td></tr>"
_LINK = '<a href="{}">{}</a>'


@register.simple_tag
def record_chart_lines(lines, board):
    """A records board (all time, a week, a month) as the chart's lines: rank and name,
    the bar of the line's share of the best figure, the figure; the viewer's own marked.
    For the same reason as `day_chart_lines`."""
    bar_class = "bar-time" if board == "times" else "bar-score"
    figures = _figures(lines, board)
    chart = "".join(
        _RECORD_CHART_LINE.format(
            top=n * 16,
            you=' class="you"' if line["you"] else "",
            rank=int(line["rank"]),
            name=escaped(chart_name(line["name"])),
            bar_class=bar_class,
            bar=round(float(line["share"]) * BAR_WIDTH),
            figure=figures[line["value"]],
        )
        for n, line in enumerate(lines)
    )
    return mark_safe(chart)  # noqa: S308 - every text in it escaped


@register.simple_tag
def record_table_rows(lines, board):
    """A records board as the table's rows: rank, name (a link to the profile unless
    hidden), figure, and the day it was reached (a link to that day's board)."""
    days, figures = {}, _figures(lines, board)
    rows = "".join(
        _RECORD_ROW.format(
            you=' class="you" aria-current="true"' if line["you"] else "",
            rank=int(line["rank"]),
            name=profile_name(line),
            figure=figures[line["value"]],
            day=_day_link(line["reached"], days),
        )
        for line in lines
    )
    return mark_safe(rows)  # noqa: S308 - every text in it escaped


def _figures(lines, board):
    """{figure: its text, escaped} for the lines' figures, each said once (a run of days
    is translated, and a page's 50 lines hold a dozen different ones)."""
    figures = {}
    for line in lines:
        if line["value"] not in figures:
            figures[line["value"]] = escaped(record_figure(line, board))
    return figures


def profile_name(line):
    """A board line's name, escaped: a link to its profile, or the label of a hidden name."""
    if line.get("name_hidden"):
        return escaped(line["name"])
    return _LINK.format(escaped(links.url("game:profile", line["name"])), escaped(line["name"]))


def _day_link(day, known):
    """A day as a link to its board, escaped, each day's made once a page (`known`)."""
    if day not in known:
        url, text = links.url("game:leaderboard", day), date(day, "SHORT_DATE_FORMAT")
        known[day] = _LINK.format(escaped(url), escaped(text))
    return known[day]


_RATING_ROW = (
    "<tr{you}><td>{rank}</td><td>{name}</td><td>{shown} "
    '<span class="deviation">± {deviation}</span></td><td>{rank_name}</td></tr>'
)


@register.simple_tag
def rating_rows(lines):
    """The rating board's rows: rank, name (a link to the profile unless hidden), the
    rating as shown with its deviation, the rank's name; the viewer's own marked."""
    rows = "".join(
        _RATING_ROW.format(
            you=' class="you" aria-current="true"' if line["you"] else "",
            rank=int(line["rank"]),
            name=profile_name(line),
            shown=escaped(line["shown"]),
            deviation=int(line["deviation"]),
            rank_name=escaped(line["rank_name"]),
        )
        for line in lines
    )
    return mark_safe(rows)  # noqa: S308 - every text in it escaped


_HISTORY_BAR = (
    '<rect class="{kind}" x="{x}" y="{y}" width="{width}" height="{height}">'
    "<title>{title}</title></rect>"
)
_HISTORY_ROW = (
    "<tr><td>{day}</td><td>{mode}</td><td>{status}{flag}</td><td>{time}</td><td>{undos}</td>"
    '<td><a href="{standings}">{standings_word}</a></td></tr>'
)


@register.simple_tag
def history_bars(bars):
    """The bars of a profile's chart (game/players/history_chart.py), one a game, their
    numbers as `{% localize off %}` writes them; 100 bars filter by filter were a fifth
    of a profile's time."""
    return mark_safe(  # noqa: S308 - every text in it escaped
        "".join(
            _HISTORY_BAR.format(
                kind="bar-score" if bar["won"] else "bar-lost",
                x=escaped(bar["x"]),
                y=escaped(bar["y"]),
                width=escaped(bar["width"]),
                height=escaped(bar["height"]),
                title=escaped(bar["title"]),
            )
            for bar in bars
        )
    )


@register.simple_tag
def history_rows(games):
    """A profile's games as its table's rows: the day, the mode, the result (flagged or
    not), the time of a win, the undos, and a link to the standings (the day's board, or
    the race, its route looked up once a page). A day's, a mode's and a result's words
    are said once a page (`said`)."""
    flag_word = escaped(gettext("Faster than a person plays: not ranked until staff confirm it"))
    words = {
        "standings": escaped(gettext("Standings")),
        "flag": f' <span class="flag" title="{flag_word}">⚑</span>',
    }
    said, race_url = {}, links.room_route("game:race")
    rows = (_history_row(game, words, said, race_url) for game in games)
    return mark_safe("".join(rows))  # noqa: S308 - every text in it escaped


def _said(said, say, value):
    """`say(value)` escaped, said once for each value (`said`: what was said)."""
    if (say, value) not in said:
        said[say, value] = escaped(say(value))
    return said[say, value]


def _short_date(day):
    return date(day, "SHORT_DATE_FORMAT")


def _mode_word(mode):
    return capfirst(mode_name(mode))


def _history_row(game, words, said, race_url):
    if game.daily_date:
        standings = links.url("game:leaderboard", game.daily_date)
    else:
        standings = race_url(game.race.room)
    won = game.status == Entry.WON
    return _HISTORY_ROW.format(
        day=_said(said, _short_date, template_localtime(game.joined_at).date()),
        mode=_said(said, _mode_word, game.race.mode),
        status=_said(said, status_word, game.status),
        flag=words["flag"] if game.review == Entry.FLAGGED else "",
        time=escaped(duration(game.time_ms)) if won else "—",
        undos=escaped(game.undos),
        standings=escaped(standings),
        standings_word=words["standings"],
    )
