"""
Events as pages list them: upcoming, running and past, the lobby's panel, and an
event's final standings with each player's games as replays, the deals' codes and,
in a rated event, what it did to the viewer's rating.
"""

from datetime import timedelta

from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from game.deals import secrecy
from game.events import standings
from game.models import Entry, Event, EventEntry, EventGame
from game.models.events import MAX_MINUTES
from game.results import rated

PAST = 20
"""Past events listed."""
FINAL_SHOWN = 100
"""Final standings shown on an event's page (and the viewer's line below them)."""


def _with_counts(events):
    return events.annotate(
        player_count=Count("entries", distinct=True), deal_count=Count("deals", distinct=True)
    )


def lists(now=None):
    """{"running", "upcoming", "past"}: events with `player_count` and `deal_count`. An
    event lasts MAX_MINUTES at most, so the running ones are among those begun since."""
    now = now or timezone.now()
    events = _with_counts(Event.objects.all())
    begun = events.filter(starts_at__gt=now - timedelta(minutes=MAX_MINUTES), starts_at__lte=now)
    running = [e for e in begun.order_by("starts_at") if e.ends_at > now]
    latest = events.filter(starts_at__lte=now).order_by("-starts_at")[: PAST + len(running)]
    return {
        "running": running,
        "upcoming": list(events.filter(starts_at__gt=now).order_by("starts_at")[:PAST]),
        "past": [e for e in latest if e.ends_at <= now][:PAST],
    }


def lobby_panel(now=None):
    """The running event with the most players and the next one, for the lobby."""
    found = lists(now)
    running = max(found["running"], key=lambda e: e.player_count, default=None)
    return {"running": running, "next": found["upcoming"][0] if found["upcoming"] else None}


def state(event, now=None):
    now = now or timezone.now()
    if now < event.starts_at:
        return "upcoming"
    return "running" if now < event.ends_at else "over"


def codes(event):
    """The event's deals in order: their codes once it is over (game/deals/secrecy.py)."""
    deals = event.deals.select_related("deal")
    return [
        {"index": d.index + 1, "code": secrecy.event_code(d.deal, event.ends_at)} for d in deals
    ]


def final(event, viewer_entry_id=None):
    """The final standings (top FINAL_SHOWN and the viewer's line), each row with the
    player's games: their points and the replay's address; the viewer's row with its
    rating change in a rated event (game/results/rated.py `event_line`)."""
    standings.finish(event)
    rows = standings.ranking(event.pk)
    shown = rows[:FINAL_SHOWN]
    shown += [r for r in rows[FINAL_SHOWN:] if r[1] == viewer_entry_id]
    by_entry = _replays([r[1] for r in shown], _open_deals(event))
    mine = None
    if viewer_entry_id is not None and event.rated:
        mine = rated.event_line(EventEntry.objects.select_related("event").get(pk=viewer_entry_id))
    return [
        {
            "rank": rank,
            "id": entry_id,
            "name": name,
            "points": earned,
            "wins": wins,
            "games": by_entry.get(entry_id, []),
            "you": entry_id == viewer_entry_id,
            "rating": mine if entry_id == viewer_entry_id else None,
            "list": among,
        }
        for rank, entry_id, name, earned, wins, among in shown
    ]


def _open_deals(event):
    """The ids of the event's deals anyone may know now (`secrecy.event_open`)."""
    deal_ids = event.deals.values_list("deal_id", flat=True)
    return {pk for pk in deal_ids if secrecy.event_open(pk, event.ends_at)}


def _replays(entry_ids, open_deals):
    """{event entry id: [its games: index, points, the replay's address]} in deal order; no
    address for a game on a deal another competitive game still plays (not watchable)."""
    games = EventGame.objects.filter(entry_id__in=entry_ids).select_related("race")
    players = dict(Entry.objects.filter(race__event_game__in=games).values_list("race_id", "pk"))
    by_entry = {}
    for game in games.order_by("index"):
        url = None
        if game.race.deal_id in open_deals:
            url = reverse("game:replay", args=[game.race.room, players[game.race_id]])
        by_entry.setdefault(game.entry_id, []).append(
            {"index": game.index + 1, "points": game.points, "url": url}
        )
    return by_entry
