"""
The ranked daily board: accounts only, clean results only, in SQL.

A day can have a hundred thousand results, so the board is never sorted in
Python: its wins and its other results are read, a page at a time, from two
partial indexes on `Entry` (`daily_ranked_wins`, `daily_ranked_rest`) in the
order of game/race/standings.py, and a player's own rank is a count over the same
index. A flagged result is shown where it would have ranked, marked unranked:
it never moves anyone else's rank. A guest's attempt is on the guests' deal
(game/deals/daily.py), so its row says where it ranks among guests. A name
staff hid reads "Name hidden" (game/players/moderation.py). The Friends view
(`friends_board`) is the day's results of the accounts one follows, and one's own,
found through the one-attempt-per-account index (`user`, `daily_date`) and
ranked among themselves in the same order.
"""

from django.db.models import Case, F, OuterRef, Q, Subquery, Value, When

from game.daily import attempts
from game.models import DailyDeal, Entry
from game.players import moderation
from game.race.standings import row

PAGE = 50
WIN_ORDER = [
    ("time_ms", False),
    ("undos", False),
    ("score", True),
    ("moves", False),
    ("finished_at", False),
    ("id", False),
]
REST_ORDER = [("score", True), ("moves", False), ("finished_at", False), ("id", False)]
ROW_FIELDS = [
    "name", "status", "score", "moves", "undos", "time_ms", "finished_at", "review", "ranked",
    "user_id", "player_key", "daily_date", "race__room", "race__status", "race__mode",
    "race__daily_date", "race__closes_at", "race__deal_hidden", "race__started_at",
    "race__finished_at", "race__deal__code",
]
"""What a board row and its replay link read of a result (standings.row, watch): a page
of rows builds three models each, so the rest of their columns stay in the table."""


def _ordering(order):
    return [f"-{field}" if descending else field for field, descending in order]


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


def ranked_rest(date):
    return Entry.objects.filter(daily_date=date, ranked=True).exclude(status=Entry.WON)


def best_of(entries):
    """The first of `entries` in the board's order (wins first), or None."""
    won = entries.filter(status=Entry.WON).order_by(*_ordering(WIN_ORDER)).first()
    return won or entries.exclude(status=Entry.WON).order_by(*_ordering(REST_ORDER)).first()


def leader(date):
    """The first result of the day's ranked board, or None while nobody ranks."""
    return best_of(Entry.objects.filter(daily_date=date, ranked=True))


def day_winners(first, last):
    """[(DailyDeal, its ranked winner or None)] of the days from `first` to `last`, in
    one statement: for each day, the first row of its `daily_ranked_wins` index."""
    best = ranked_wins(OuterRef("date")).order_by(*_ordering(WIN_ORDER)).values("pk")[:1]
    days = list(
        DailyDeal.objects.filter(date__range=(first, last))
        .select_related("deal")
        .annotate(winner=Subquery(best))
        .order_by("date")
    )
    won = [day.winner for day in days if day.winner]
    winners = Entry.objects.select_related("user").in_bulk(won)
    return [(day, winners.get(day.winner)) for day in days]


def page_of(date, page):
    """[(rank, entry)] of one page of the ranked board, and whether a next page exists.
    The wins are counted only when the page reaches past them."""
    offset = (page - 1) * PAGE
    wins = ranked_wins(date).select_related("race__deal").only(*ROW_FIELDS)
    wins = wins.order_by(*_ordering(WIN_ORDER))
    found = list(wins[offset : offset + PAGE + 1])
    if len(found) <= PAGE:
        start = 0 if found else offset - wins.count()
        rest = ranked_rest(date).select_related("race__deal").only(*ROW_FIELDS)
        rest = rest.order_by(*_ordering(REST_ORDER))
        found += list(rest[start : start + PAGE + 1 - len(found)])
    ranks = range(offset + 1, offset + 1 + min(len(found), PAGE))
    return list(zip(ranks, found, strict=False)), len(found) > PAGE


def _count_ahead(board, entry, order):
    return sum(board.filter(clause).exclude(pk=entry.pk).count() for clause in _ahead(entry, order))


def rank_of(entry, results=None):
    """The rank an entry has among `results` (default: its day's ranked board), or would
    have if it counted."""
    if results is None:
        results = Entry.objects.filter(daily_date=entry.daily_date, ranked=True)
    wins = results.filter(status=Entry.WON)
    if entry.status == Entry.WON:
        return _count_ahead(wins, entry, WIN_ORDER) + 1
    rest = results.exclude(status=Entry.WON)
    return wins.count() + _count_ahead(rest, entry, REST_ORDER) + 1


def guests_results(day):
    """The day's counted results on its guests' deal: where a guest ranks among guests."""
    on_guests_deal = Entry.objects.filter(daily_date=day.date, race__deal_id=day.guest_deal_id)
    return on_guests_deal.filter(review__in=Entry.COUNTED)


def _own_row(day, player_key):
    """The asking player's finished attempt as a board line, or None: ranked among the
    ranked board's results, or for an attempt on the guests' deal among guests."""
    mine = Entry.objects.filter(daily_date=day.date, player_key=player_key, status__in=Entry.DONE)
    mine = mine.select_related("race__deal").first()
    if mine is None:
        return None, None
    guests = mine.race.deal_id != day.deal_id
    rank = rank_of(mine, guests_results(day) if guests else None)
    return mine, {**row(rank, mine), "you": True, "guests": guests}


def daily_board(day, player_key, page=1):
    """One page of a day's ranked board, and the asking player's own row wherever it is;
    `games`: the rows' entries, with their race and deal (whose replay a viewer may watch)."""
    attempts.finish_expired(day)
    rows, more = page_of(day.date, page)
    mine, you = _own_row(day, player_key)
    entries = [row(rank, entry) for rank, entry in rows]
    named = [(line, entry.user_id) for line, (_, entry) in zip(entries, rows, strict=True)]
    moderation.mask(named + ([(you, mine.user_id)] if you else []))
    for line in entries:
        line["you"] = you is not None and line["player"] == you["player"]
    on_page = any(line["you"] for line in entries)
    games = [entry for _, entry in rows] + ([mine] if mine and not on_page else [])
    return {
        "entries": entries,
        "you": you,
        "you_on_page": on_page,
        "page": page,
        "has_next": more,
        "games": games,
    }


def _friends_order():
    """The board's order in one ORDER BY over wins and the rest: wins first, by time
    and undos; then score, moves, when, as `WIN_ORDER` and `REST_ORDER` say."""
    won = Q(status=Entry.WON)
    return [
        Case(When(won, then=Value(0)), default=Value(1)),
        Case(When(won, then=F("time_ms"))).asc(nulls_last=True),
        Case(When(won, then=F("undos"))).asc(nulls_last=True),
        F("score").desc(),
        "moves",
        "finished_at",
        "id",
    ]


def friends_board(day, circle, player_key):
    """A day's board among `circle` (account ids): their ranked results, and the
    viewer's own whatever it is, ranked among these; all on one page (`games` as in
    `daily_board`)."""
    attempts.finish_expired(day)
    results = Entry.objects.filter(daily_date=day.date, user_id__in=circle, status__in=Entry.DONE)
    results = results.filter(Q(ranked=True) | Q(player_key=player_key))
    found = list(results.select_related("race__deal").only(*ROW_FIELDS).order_by(*_friends_order()))
    entries = [
        {**row(rank, entry), "you": entry.player_key == player_key}
        for rank, entry in enumerate(found, start=1)
    ]
    moderation.mask((line, entry.user_id) for line, entry in zip(entries, found, strict=True))
    you = next((line for line in entries if line["you"]), None)
    return {
        "entries": entries,
        "you": you,
        "you_on_page": True,
        "page": 1,
        "has_next": False,
        "games": found,
    }
