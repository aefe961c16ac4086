"""
A player's own data, for them to download (/me/export/): their account, profile
figures, rating and its whole history, every game's result, follows, blocks,
challenges and events, as one JSON object. What a player may take away is what they
could see anyway: each game's deal code only where the game's page would show it
(`code_of`, game/deals/secrecy.py's `shown_code`, passed in by the view: deal secrecy
is a layer above this one), so a download during the day never holds today's daily
code. Results only, not the moves one by one (a replay page shows those).
"""

from django.db.models import Q

from game.models import Block, Challenge, Entry, EventEntry, Follow, RatingChange
from game.players import player_ratings, profiles

FORMAT = 1
"""The export's own version: a field renamed or dropped makes it 2."""


def when(moment):
    """A date or a time as ISO 8601 (None stays None)."""
    return moment.isoformat() if moment is not None else None


def data(user, code_of):
    """Everything of `user`'s, as a JSON-ready dict; `code_of(race)` a code or None."""
    return {
        "format": FORMAT,
        "account": {
            "username": user.get_username(),
            "joined": when(user.date_joined),
            "last_login": when(user.last_login),
        },
        "profile": profiles.stats(Entry.objects.filter(user=user)),
        "rating": {**player_ratings.rating_of(user), "history": rating_history(user)},
        "games": games(user, code_of),
        "events": events(user),
        **friends(user),
    }


def games(user, code_of):
    """Every game of the account's, oldest first: its race, mode, result and code."""
    entries = Entry.objects.filter(user=user).select_related("race__deal").order_by("joined_at")
    return [game(entry, code_of) for entry in entries.iterator(chunk_size=500)]


def game(entry, code_of):
    race = entry.race
    return {
        "room": race.room,
        "mode": race.mode,
        "rated": race.rated,
        "daily_date": when(entry.daily_date),
        "joined_at": when(entry.joined_at),
        "finished_at": when(entry.finished_at),
        "name": entry.name,
        "status": entry.status,
        "review": entry.review or None,
        "ranked": entry.ranked,
        "score": entry.score,
        "moves": entry.moves,
        "cards_left": entry.cards_left,
        "undos": entry.undos,
        "time_ms": entry.time_ms,
        "deal": code_of(race),
    }


def rating_history(user):
    """Every rating change, oldest first (the profile shows the latest hundred)."""
    rows = RatingChange.objects.filter(user=user).order_by("at", "id")
    return [
        {
            "at": when(row.at),
            "room": row.race.room if row.race_id else None,
            "event": row.event_entry.event_id if row.event_entry_id else None,
            "rating_before": row.rating_before,
            "rating_after": row.rating_after,
            "deviation_after": row.deviation_after,
            **{"wins": row.wins, "losses": row.losses, "draws": row.draws},
        }
        for row in rows.select_related("race", "event_entry")
    ]


def events(user):
    rows = EventEntry.objects.filter(user=user).select_related("event").order_by("joined_at")
    return [
        {
            "event": row.event_id,
            "title": row.event.title,
            "starts_at": when(row.event.starts_at),
            **{"points": row.points, "wins": row.wins, "time_ms": row.time_ms},
            "rank": row.rank,
        }
        for row in rows
    ]


def _names(rows, field):
    return [
        {"name": getattr(row, field).get_username(), "since": when(row.at)}
        for row in rows.select_related(field).order_by("at", "id")
    ]


def friends(user):
    """Who the account follows, who follows it, whom it blocked; its challenges."""
    mine = Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
    return {
        "following": _names(Follow.objects.filter(follower=user), "followed"),
        "followers": _names(Follow.objects.filter(followed=user), "follower"),
        "blocking": _names(Block.objects.filter(blocker=user), "blocked"),
        "challenges": [
            {
                "sent": row.challenger_id == user.pk,
                "other": (
                    row.challenged if row.challenger_id == user.pk else row.challenger
                ).get_username(),
                "status": row.status,
                "created_at": when(row.created_at),
                "answered_at": when(row.answered_at),
                "room": row.race.room if row.race_id else None,
            }
            for row in mine.select_related("challenger", "challenged", "race").order_by(
                "created_at", "id"
            )
        ],
    }
