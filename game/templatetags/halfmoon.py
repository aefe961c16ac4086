"""Template filters and tags of the game pages: each says in one call what a board's or
a profile's rows would otherwise say filter by filter, with an include or a `{% url %}`
per row (bench/friends_boards.py); the boards' and the profile's rows are whole tags,
filled by game/web/markup.py (every value escaped unless it is markup made there). They
show what the view read and run no query (tests/templatetags/test_template_tags.py)."""

import unicodedata

from django import template
from django.template.defaultfilters import capfirst, date
from django.utils.text import Truncator
from django.utils.timezone import template_localtime
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from game.base import days, links
from game.models import Entry, Race
from game.players import accounts, moderation
from game.players.history_chart import MAX_SCORE
from game.players.identity import DEFAULT_NAME, DELETED_NAME, NUMBERED_NAME
from game.ratings import ranks
from game.web.catalogue import catalogue_url
from game.web.markup import fill, safe

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
_YOU = safe(' class="you" aria-current="true"')
"""The viewer's own row, marked."""


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
    page's 50 rows were a third of its time (bench/friends_boards.py)."""
    moves_word = gettext("moves")
    moves = '<tspan class="muted">{moves} {word}</tspan>'
    return fill(
        _CHART_LINE,
        (
            {
                "top": n * 16,
                "rank": int(line["rank"]),
                "name": chart_name(player_name(line["name"])),
                "bar": round(min(line["score"], MAX_SCORE) / MAX_SCORE * BAR_WIDTH),
                "score": int(line["score"]),
                "figure": duration(line["time_ms"])
                if line["status"] == Entry.WON
                else safe(moves, moves=int(line["moves"]), word=moves_word),
            }
            for n, line in enumerate(rows)
        ),
    )


@register.simple_tag
def day_table_rows(rows):
    """A day's board as the table's rows (the viewer's own marked), for the same reason
    as `day_chart_lines`; each status said once a page."""
    words = {
        "unranked": safe(' <span class="unranked">{w}</span>', w=gettext("unranked")),
        "held": safe(' <span class="unranked held">{w}</span>', w=gettext("held")),
        "verified": _verified_mark(),
        "replay": gettext("Replay"),
        "no_undo": safe(
            ' <span class="no-undo" title="{w}">★</span>', w=gettext("Won without an undo")
        ),
    }
    statuses = {}
    return fill(_TABLE_ROW, (_table_row(line, words, statuses) for line in rows))


def _verified_mark():
    return safe(
        ' <span class="verified" title="{title}">✓ {word}</span>',
        title=gettext("Verified: the server replayed this game from its moves"),
        word=gettext("verified"),
    )


def _mark(line, words):
    """What follows a row's name: verified, held, unranked, or nothing."""
    if line.get("verified"):
        return words["verified"]
    if line.get("held"):
        return words["held"]
    return "" if line["ranked"] else words["unranked"]


def _table_row(line, words, statuses):
    won = line["status"] == Entry.WON
    if line["status"] not in statuses:
        statuses[line["status"]] = status_word(line["status"])
    replay = line.get("replay")
    return {
        "you": _YOU if line.get("you") else "",
        "rank": int(line["rank"]) if line["ranked"] else f"({int(line['rank'])})",
        "name": player_name(line["name"]),
        "mark": _mark(line, words),
        "status": statuses[line["status"]],
        "replay": safe(' · <a href="{url}">{word}</a>', url=replay, word=words["replay"])
        if replay
        else "",
        "score": int(line["score"]),
        "moves": int(line["moves"]),
        "time": duration(line["time_ms"]) if won else "—",
        "undos": int(line["undos"]),
        "no_undo": words["no_undo"] if won and not line["undos"] else "",
    }


_RECORD_CHART_LINE = (
    '<g transform="translate(0 {top})"{you}><text x="0" y="8" font-size="7" '
    'dominant-baseline="middle">{rank}. {name}</text><rect x="100" y="3" width="220" '
    'height="10" rx="2" fill="rgba(255,255,255,0.06)"/><rect class="{bar_class}" x="100" '
    'y="3" width="{bar}" height="10" rx="2"/><text x="326" y="8" font-size="7" '
    'dominant-baseline="middle">{figure}</text></g>'
)
_RECORD_ROW = "<tr{you}><td>{rank}</td><td>{name}</td><td>{figure}</td><td>{day}</td></tr>"
_LINK = '<a href="{url}">{text}</a>'
_YOU_IN_CHART = safe(' class="you"')


@register.simple_tag
def record_chart_lines(lines, board):
    """A records board (all time, a week, a month) as the chart's lines: rank and name,
    the bar of the line's share of the best figure, the figure; the viewer's own marked.
    For the same reason as `day_chart_lines`."""
    bar_class = "bar-time" if board == "times" else "bar-score"
    figures = _figures(lines, board)
    return fill(
        _RECORD_CHART_LINE,
        (
            {
                "top": n * 16,
                "you": _YOU_IN_CHART if line["you"] else "",
                "rank": int(line["rank"]),
                "name": chart_name(line["name"]),
                "bar_class": bar_class,
                "bar": round(float(line["share"]) * BAR_WIDTH),
                "figure": figures[line["value"]],
            }
            for n, line in enumerate(lines)
        ),
    )


@register.simple_tag
def record_table_rows(lines, board):
    """A records board as the table's rows: rank, name (a link to the profile unless
    hidden), figure, and the day it was reached (a link to that day's board)."""
    days, figures = {}, _figures(lines, board)
    return fill(
        _RECORD_ROW,
        (
            {
                "you": _YOU if line["you"] else "",
                "rank": int(line["rank"]),
                "name": profile_name(line),
                "figure": figures[line["value"]],
                "day": _day_link(line["reached"], days),
            }
            for line in lines
        ),
    )


def _figures(lines, board):
    """{figure: its text} for the lines' figures, each said once (a run of days is
    translated, and a page's 50 lines hold a dozen different ones)."""
    figures = {}
    for line in lines:
        if line["value"] not in figures:
            figures[line["value"]] = record_figure(line, board)
    return figures


def profile_name(line):
    """A board line's name: a link to its profile, or the label of a hidden name (text)."""
    if line.get("name_hidden"):
        return line["name"]
    return safe(_LINK, url=links.url("game:profile", line["name"]), text=line["name"])


def _day_link(day, known):
    """A day as a link to its board, each day's made once a page (`known`)."""
    if day not in known:
        url, text = links.url("game:leaderboard", day), date(day, "SHORT_DATE_FORMAT")
        known[day] = safe(_LINK, url=url, text=text)
    return known[day]


_RATING_ROW = (
    "<tr{you}><td>{rank}</td><td>{name}</td><td>{shown} "
    '<span class="deviation">± {deviation}</span></td><td>{rank_name}</td></tr>'
)


@register.simple_tag
def rating_rows(lines):
    """The rating board's rows: rank, name (a link to the profile unless hidden), the
    rating as shown with its deviation, the rank's name; the viewer's own marked."""
    return fill(
        _RATING_ROW,
        (
            {
                "you": _YOU if line["you"] else "",
                "rank": int(line["rank"]),
                "name": profile_name(line),
                "shown": line["shown"],
                "deviation": int(line["deviation"]),
                "rank_name": line["rank_name"],
            }
            for line in lines
        ),
    )


_HISTORY_BAR = (
    '<rect class="{kind}" x="{x}" y="{y}" width="{width}" height="{height}">'
    "<title>{title}</title></rect>"
)
_HISTORY_ROW = (
    "<tr><td>{day}</td><td>{mode}</td><td>{status}{flag}</td><td>{time}</td><td>{undos}</td>"
    '<td><a href="{standings}">{standings_word}</a>{race}</td></tr>'
)
_RACE_FORM = (
    ' <form method="post" action="{action}" class="inline-form">'
    '<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
    '<button type="submit" class="link-button">{word}</button></form>'
)
"""A profile row's ghost race against its game (game/web/shares.py `replay_race`)."""


@register.simple_tag
def history_bars(bars):
    """The bars of a profile's chart (game/players/history_chart.py), one a game, their
    numbers as `{% localize off %}` writes them; 100 bars filter by filter were a fifth
    of a profile's time."""
    fields = ("x", "y", "width", "height", "title")
    return fill(
        _HISTORY_BAR,
        (
            {"kind": "bar-score" if bar["won"] else "bar-lost", **{f: bar[f] for f in fields}}
            for bar in bars
        ),
    )


@register.simple_tag
def history_rows(games, csrf_token=""):
    """A profile's games as its table's rows: the day, the mode, the result (flagged or
    not), the time of a win, the undos, and a link to the standings (the day's board, or
    the race, its route looked up once a page). A day's, a mode's and a result's words
    are said once a page (`said`)."""
    flag_word = gettext("Faster than a person plays: not ranked until staff confirm it")
    words = {
        "standings": gettext("Standings"),
        "flag": safe(' <span class="flag" title="{w}">⚑</span>', w=flag_word),
    }
    said, race_url = {}, links.room_route("game:race")
    race_form = _race_form(csrf_token)
    rows = (_history_row(game, words, said, race_url, race_form) for game in games)
    return fill(_HISTORY_ROW, rows)


def _said(said, say, value):
    """`say(value)`, said once for each value (`said`: what was said)."""
    if (say, value) not in said:
        said[say, value] = say(value)
    return said[say, value]


def _short_date(day):
    return date(day, "SHORT_DATE_FORMAT")


def _mode_word(mode):
    return capfirst(mode_name(mode))


def _race_form(csrf_token):
    """The ghost race form of a row whose game anyone may race: over, its race finished,
    its deal no event's and, for a day's deal, its day over (else: its replay's page
    says whether the viewer may race it); None for a row that has none."""
    if not csrf_token:
        return lambda game: ""
    word, action = gettext("Race its ghost"), links.room_route("game:replay-race", 1)
    today = days.today()

    def form(game):
        race = game.race
        day = race.daily_date
        if race.status != Race.FINISHED or race.closes_at or (day is not None and day >= today):
            return ""
        return safe(_RACE_FORM, action=action(race.room, game.pk), csrf=csrf_token, word=word)

    return form


def _history_row(game, words, said, race_url, race_form):
    if game.daily_date:
        standings = links.url("game:leaderboard", game.daily_date)
    else:
        standings = race_url(game.race.room)
    won = game.status == Entry.WON
    return {
        "day": _said(said, _short_date, template_localtime(game.joined_at).date()),
        "mode": _said(said, _mode_word, game.race.mode),
        "status": _said(said, status_word, game.status),
        "flag": words["flag"] if game.review == Entry.FLAGGED else "",
        "time": duration(game.time_ms) if won else "—",
        "undos": game.undos,
        "standings": standings,
        "standings_word": words["standings"],
        "race": race_form(game),
    }
