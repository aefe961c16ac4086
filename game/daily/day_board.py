"""
The ranked daily board: accounts only, clean results only, in SQL.

A day can have a hundred thousand results, so the board is never sorted in
Python: its wins and its other results are read, a page at a time, from two
partial indexes on `Entry` (`daily_ranked_wins`, `daily_ranked_rest`) in the
order of game/results/standings.py, and a player's own rank is a count over the same
index. A flagged result is shown where it would have ranked, marked unranked:
it never moves anyone else's rank. The day's top wins are replayed on the server
(game/results/verify.py, once more when the day is over) and marked verified. A
guest's attempt is on the guests' deal (game/deals/daily.py), so its row says
where it ranks among guests. A name
staff hid reads "Name hidden" (game/players/moderation.py). The Friends view
(`friends_board`) is the day's results of the accounts one follows, and one's own,
found through the one-attempt-per-account index (`user`, `daily_date`) and
ranked among themselves in the same order.
"""

import datetime
import functools
from typing import NamedTuple

from django.db import connection
from django.db.models import OuterRef, Q, Subquery

from game.base import sql
from game.daily import attempts
from game.deals.daily import DealCode
from game.friends import follows
from game.models import DailyDeal, Entry
from game.players import moderation
from game.results import verify
from game.results.standings import WIN_ORDER, order_by, row

PAGE = 50
REST_ORDER = [("score", True), ("moves", False), ("finished_at", False), ("id", False)]


def _untimed(column):
    """`column`, read only for a result whose time is not stored (`time_ms`)."""
    return f"CASE WHEN e.time_ms IS NULL THEN {column} END"


def _read(finished_at):
    """A board's results, each with what its line and its replay link read (standings.row,
    game/replays/watch.py: its race and deal) and whether staff hid its account's name;
    `finished_at`: how its end is read (`_untimed` but for a rank, which compares it).

    A page's statements are SQL written once (`_STATEMENTS`, `_rank_statement`) and its
    rows tuples (`Result`): through the ORM, building and compiling its statements (seven
    for a viewer's rank) and three models a row (a result, its race, its deal) made a view
    of the day's board 67 M instructions, a records board's 21-27 M (callgrind, on
    bench/friends_boards.py's database). Every value is a parameter. The times a row's
    own time stands for (its end, its race's start and end) are read only where that
    time is not stored, the one thing a line reads them for: Django loads each timestamp
    in Python, and a page's 153 of them were three quarters of the time of reading it."""
    return (
        "SELECT e.id, e.name, e.status, e.score, e.moves, e.undos, e.time_ms,"
        f" {finished_at}, e.review, e.ranked, e.user_id, e.player_key, e.daily_date,"
        " e.verification, a.name_hidden, r.room, r.status, r.mode, r.daily_date, r.closes_at,"
        " r.deal_hidden,"
        f" {_untimed('r.started_at')}, {_untimed('r.finished_at')}, r.deal_id, d.code"
        " FROM game_entry e JOIN game_race r ON r.id = e.race_id"
        " JOIN game_deal d ON d.id = r.deal_id LEFT JOIN game_account a ON a.user_id = e.user_id"
    )


_READ = _read(_untimed("e.finished_at"))


class Race(NamedTuple):
    """A result's race as `_read` reads it (`started_at`, `finished_at`: None when the
    result's time is stored)."""

    room: str
    status: str
    mode: str
    daily_date: datetime.date | None
    closes_at: datetime.datetime | None
    deal_hidden: bool
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    deal_id: int
    deal: DealCode


class Result(NamedTuple):
    """A board's result as `_read` reads it, named as `Entry`, its `Race` and `Deal` are
    (what standings.row, game/replays/watch.py and `rank_of` read of them; `finished_at`
    as `_read` says)."""

    id: int
    name: str
    status: str
    score: int
    moves: int
    undos: int
    time_ms: int | None
    finished_at: datetime.datetime | None
    review: str
    ranked: bool
    user_id: int | None
    player_key: str
    daily_date: datetime.date | None
    verification: str
    name_hidden: bool | None
    race: Race

    @property
    def pk(self):
        return self.id


_COLUMNS = sql.Columns(
    Entry,
    *Result._fields[:14],
    "user__account__name_hidden",
    *(f"race__{name}" for name in Race._fields[:9]),
    "race__deal__code",
)
"""`_read`'s columns as the fields they are, in its order (`Result`'s, its `Race`'s):
what converts a row's values as the ORM would, on PostgreSQL and SQLite alike."""


def _results(statement, params):
    found = _COLUMNS.fetch(statement, params)
    return [Result(*row[:15], Race(*row[15:24], DealCode(row[24]))) for row in found]


def _count(statement, params):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchone()[0]


def _ahead(entry, order):
    """Q clauses, disjoint, for the rows that come before `entry` in `order`: the first
    field better, or it equal and the second better, and so on. Counted one by one,
    each is a range on the board's index (an OR of them is not)."""
    clauses, equal = [], Q()
    for field, descending in order:
        value = getattr(entry, field)
        clauses.append(equal & Q(**{f"{field}__{'gt' if descending else 'lt'}": value}))
        equal &= Q(**{field: value})
    return clauses


def ranked_wins(date):
    return Entry.objects.filter(daily_date=date, ranked=True, status=Entry.WON)


def best_of(entries):
    """The first of `entries` in the board's order (wins first), or None."""
    won = entries.filter(status=Entry.WON).order_by(*order_by(WIN_ORDER)).first()
    return won or entries.exclude(status=Entry.WON).order_by(*order_by(REST_ORDER)).first()


def leader(date):
    """The first result of the day's ranked board, or None while nobody ranks."""
    return best_of(Entry.objects.filter(daily_date=date, ranked=True))


def day_winners(first, last):
    """[(DailyDeal, its ranked winner or None)] of the days from `first` to `last`, in
    one statement: for each day, the first row of its `daily_ranked_wins` index."""
    best = ranked_wins(OuterRef("date")).order_by(*order_by(WIN_ORDER)).values("pk")[:1]
    days = list(
        DailyDeal.objects.filter(date__range=(first, last))
        .select_related("deal")
        .defer("explorer")  # megabytes a day (deals.daily.day_of)
        .annotate(winner=Subquery(best))
        .order_by("date")
    )
    won = [day.winner for day in days if day.winner]
    winners = Entry.objects.select_related("user").in_bulk(won)
    return [(day, winners.get(day.winner)) for day in days]


def _one_of(values):
    return f"({', '.join(['%s'] * len(values))})"


def _order_by(order):
    return ", ".join(f"e.{field} {'DESC' if descending else 'ASC'}" for field, descending in order)


def _won_first():
    """The board's order in one ORDER BY over wins and the rest (a Friends view): wins
    first, by what `WIN_ORDER` says before `REST_ORDER` (time and undos), then as
    `REST_ORDER` says. Its parameters: `Entry.WON` once per CASE."""
    before_rest = WIN_ORDER[: len(WIN_ORDER) - len(REST_ORDER)]
    won_only = [f"CASE WHEN e.status = %s THEN e.{f} END ASC NULLS LAST" for f, _ in before_rest]
    cases = ["CASE WHEN e.status = %s THEN 0 ELSE 1 END", *won_only]
    return ", ".join([*cases, _order_by(REST_ORDER)]), len(cases)


_WINS = "e.daily_date = %s AND e.ranked AND e.status = %s"
_REST = "e.daily_date = %s AND e.ranked AND e.status <> %s"
_DONE = f"e.status IN {_one_of(Entry.DONE)}"
_WON_FIRST, _WON_CASES = _won_first()
_STATEMENTS = {
    "wins": f"{_READ} WHERE {_WINS} ORDER BY {_order_by(WIN_ORDER)} LIMIT %s OFFSET %s",
    "wins_count": f"SELECT count(*) FROM game_entry e WHERE {_WINS}",
    "rest": f"{_READ} WHERE {_REST} ORDER BY {_order_by(REST_ORDER)} LIMIT %s OFFSET %s",
    "own": f"{_read('e.finished_at')} WHERE e.daily_date = %s AND e.player_key = %s"
    f" AND {_DONE} ORDER BY e.id LIMIT 1",
    "friends": f"{_READ} WHERE e.daily_date = %s AND e.user_id IN ({{among}}) AND {_DONE}"
    f" AND (e.ranked OR e.player_key = %s) ORDER BY {_WON_FIRST}",
}
"""The day board's statements: a page of its wins and of its other results (each a range
of its index, `daily_ranked_wins`, `daily_ranked_rest`), its wins counted, the asking
player's own result, and a Friends view's results (`{among}`: its accounts)."""


def page_of(date, page):
    """[(rank, result)] of one page of the ranked board, and whether a next page exists.
    The wins are counted only when the page reaches past them."""
    offset = (page - 1) * PAGE
    found = _results(_STATEMENTS["wins"], [date, Entry.WON, PAGE + 1, offset])
    if len(found) <= PAGE:
        start = 0 if found else offset - _count(_STATEMENTS["wins_count"], [date, Entry.WON])
        room = PAGE + 1 - len(found)
        found += _results(_STATEMENTS["rest"], [date, Entry.WON, room, start])
    ranks = range(offset + 1, offset + 1 + min(len(found), PAGE))
    return list(zip(ranks, found, strict=False)), len(found) > PAGE


_AMONG = {
    False: "game_entry e WHERE e.daily_date = %s AND e.ranked",
    True: "game_entry e JOIN game_race r ON r.id = e.race_id"
    f" WHERE e.daily_date = %s AND r.deal_id = %s AND e.review IN {_one_of(Entry.COUNTED)}",
}
"""The results a rank is counted among: the day's ranked board, or (True) the day's
counted results on its guests' deal, where a guest ranks among guests."""


@functools.cache
def _rank_statement(guests, won):
    """A rank as one statement, its counts summed: each of `_ahead`'s clauses counted
    on its own (a range of the board's index), and for a result not won, the wins."""
    order, status = (WIN_ORDER, "=") if won else (REST_ORDER, "<>")
    counts = [] if won else [f"(SELECT count(*) FROM {_AMONG[guests]} AND e.status = %s)"]
    for n, (field, descending) in enumerate(order):
        equal = "".join(f"e.{before} = %s AND " for before, _ in order[:n])
        clause = f"{equal}e.{field} {'>' if descending else '<'} %s"
        among = f"{_AMONG[guests]} AND e.status {status} %s AND e.id <> %s"
        counts.append(f"(SELECT count(*) FROM {among} AND {clause})")
    return f"SELECT {' + '.join(counts)}"


def rank_of(entry, guests_deal_id=None):
    """The rank an entry (a model, or a `Result` read with its `finished_at`) has on its
    day's ranked board (with `guests_deal_id`: among the day's counted results on that
    deal, the guests'), or would have if it counted."""
    won = entry.status == Entry.WON
    among = [entry.daily_date]
    if guests_deal_id is not None:
        among += [guests_deal_id, *Entry.COUNTED]
    params = [] if won else [*among, Entry.WON]
    order = WIN_ORDER if won else REST_ORDER
    values = [sql.prepared(Entry, field, getattr(entry, field)) for field, _ in order]
    for n in range(len(order)):
        params += [*among, Entry.WON, entry.pk, *values[: n + 1]]
    return _count(_rank_statement(guests_deal_id is not None, won), params) + 1


def _line(rank, result):
    """A result's board line, its name hidden if staff hid it (game/players/moderation.py)."""
    line = row(rank, result)
    moderation.hide(line, result.name_hidden)
    return line


def _own_row(day, player_key, rows):
    """The asking player's finished attempt as a board line, or None: ranked among the
    ranked board's results (its rank on the page `rows` when it is there), or for an
    attempt on the guests' deal among guests."""
    found = _results(_STATEMENTS["own"], [day.date, player_key, *Entry.DONE])
    if not found:
        return None, None
    mine = found[0]
    guests = mine.race.deal_id != day.deal_id
    on_page = next((rank for rank, result in rows if result.id == mine.id), None)
    rank = on_page or rank_of(mine, day.guest_deal_id if guests else None)
    you = {**row(rank, mine), "you": True, "guests": guests}
    moderation.hide(you, mine.name_hidden)
    return mine, you


def board_page(day, page=1):
    """A page of a day's ranked board as every reader sees it, [(rank, result)], and
    whether a next page exists: the day's attempts whose time ran out finished first, and
    a day that is over checked once more (`verify.final_check`). game/daily/shared_day.py
    keeps today's first page a second for every reader of the day's page."""
    attempts.finish_expired(day)
    verify.final_check(day)
    return page_of(day.date, page)


def seen_by(day, player_key, found, page=1, shown=PAGE):
    """A page of the board (`found`: `board_page`'s) as `player_key` sees it: its first
    `shown` lines, and their own row wherever it is (None: a reader with no key kept,
    who has none); `games`: the lines' results, with their race and deal (whose replay a
    viewer may watch)."""
    rows, more = found
    mine, you = _own_row(day, player_key, rows) if player_key else (None, None)
    entries = [_line(rank, result) for rank, result in rows[:shown]]
    for line in entries:
        line["you"] = you is not None and line["player"] == you["player"]
    on_page = any(line["you"] for line in entries)
    games = [result for _, result in rows[:shown]] + ([mine] if mine and not on_page else [])
    return {
        "entries": entries,
        "you": you,
        "you_on_page": on_page,
        "page": page,
        "has_next": more,
        "games": games,
    }


def daily_board(day, player_key, page=1):
    """One page of a day's ranked board, and the asking player's own row wherever it is
    (`seen_by`)."""
    return seen_by(day, player_key, board_page(day, page), page)


def friends_board(day, circle, player_key):
    """A day's board among `circle` (account ids: `follows.circle`'s subquery, or a list),
    their ranked results, and the viewer's own whatever it is, ranked among these; all on
    one page (`games` as in `daily_board`). PostgreSQL probes each account's attempt
    through the one-attempt-per-account index (`user`, `daily_date`)."""
    attempts.finish_expired(day)
    accounts, accounts_params = follows.as_sql(circle)
    statement = _STATEMENTS["friends"].replace("{among}", accounts)
    params = [day.date, *accounts_params, *Entry.DONE, player_key, *[Entry.WON] * _WON_CASES]
    found = _results(statement, params)
    entries = []
    for rank, result in enumerate(found, start=1):
        line = {**row(rank, result), "you": result.player_key == player_key}
        moderation.hide(line, result.name_hidden)
        entries.append(line)
    you = next((line for line in entries if line["you"]), None)
    return {
        "entries": entries,
        "you": you,
        "you_on_page": True,
        "page": 1,
        "has_next": False,
        "games": found,
    }
