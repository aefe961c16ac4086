"""
Playing an event: joining it (late too), the game to play now, and the totals.

Each deal of an event is a race of one (mode `event`, game/lobby/alone.py's kind),
created when the player reaches it, with the event's end as its time limit and as
the day its code shows (game/deals/secrecy.py). So moves, replays and fair play are a
race's, unchanged. Whoever asks for the game to play (the page after a game, a
reload, a second tab) finds the current one, or, once it is over, settles it
(game/events/points.py) and gets the next deal: under the entry's row lock, so two
tabs never make two games of one deal.
"""

from django.db import IntegrityError, transaction
from django.utils import timezone

from game.base.errors import GameError
from game.events import points
from game.models import Entry, Event, EventEntry, EventGame, Race
from game.players import accounts
from game.race import actions
from game.results.standings import since_start


def event(event_id):
    """The event with this id, or GameError `no_such_event`."""
    found = Event.objects.filter(pk=event_id).first()
    if found is None:
        raise GameError("no_such_event", f"no event {event_id}")
    return found


def entry_of(event, player_key):
    """The player's entry in the event, or None."""
    if not player_key:
        return None
    return EventEntry.objects.filter(event=event, player_key=player_key).first()


def join(event, player_key, name, address_tag="", admitting_a_guest=None):
    """The player's entry in `event`, made now if need be: at any time until it ends; a
    rated event takes accounts only. `address_tag`: the joining address's digest
    (game/base/clients.py `tag`), what ties a spare entry to the real one.
    `admitting_a_guest()` is called before a guest's entry is made, and may refuse it
    (GameError): the per-address limit on guest entries (game/base/limits.py
    `event_guest`), so one address cannot bring a crowd of spare cookies."""
    found = entry_of(event, player_key)
    if found is not None:
        return found
    if timezone.now() >= event.ends_at:
        raise GameError("event_over", "this event is over: its standings are final")
    user = accounts.user_for(player_key)
    if event.rated and user is None:
        raise GameError("event_needs_account", "a rated event is played with an account")
    if user is None and admitting_a_guest is not None:
        admitting_a_guest()
    try:
        with transaction.atomic():
            return EventEntry.objects.create(
                event=event,
                player_key=player_key,
                user=user,
                name=accounts.shown_name(user, name),
                address_tag=address_tag,
            )
    except IntegrityError:  # the same player joining from two tabs at once
        return entry_of(event, player_key)


def game_to_play(event, player_key):
    """The race the player plays now: the current game, or the next deal once it is
    over; None once every deal is played. Refused before the start and after the end."""
    now = timezone.now()
    if now < event.starts_at:
        raise GameError("event_not_started", "the event has not started yet")
    if now >= event.ends_at:
        raise GameError("event_over", "this event is over: its standings are final")
    with transaction.atomic():
        entry = EventEntry.objects.select_for_update().filter(event=event, player_key=player_key)
        entry = entry.first()
        if entry is None:
            raise GameError("not_a_player", "join the event first")
        if entry.current_id is not None:  # none yet: nothing to settle (a first game)
            if not _over(entry.current_id):
                return entry.current
            settle(entry)
        index = entry.games.count()
        deals = list(event.deals.select_related("deal"))
        if index >= len(deals):
            return None
        race = actions.create_race(
            deals[index].deal,
            player_key,
            mode=Race.EVENT,
            name=entry.name,
            deal_hidden=True,
            closes_at=event.ends_at,
        )
        EventGame.objects.create(entry=entry, index=index, race=race)
        entry.current = race
        entry.save(update_fields=["current"])
        return race


def _over(race_id):
    return Entry.objects.filter(race_id=race_id, status__in=Entry.DONE).exists()


def settle(entry, final=False):
    """The entry's totals from its games over (every game, once the event is `final`:
    one still in play then counts what it had when the time ran out); a game held
    for staff counts nothing."""
    games = entry.games.select_related("race").order_by("index")
    players = {e.race_id: e for e in Entry.objects.filter(race__event_game__entry=entry)}
    results, settled = [], []
    for game in games:
        player = players.get(game.race_id)
        if player is None or not (final or player.status in Entry.DONE):
            break  # the game in play: games are played in order, none follows it
        if player.verification in Entry.HELD:  # its moves do not make it (game/results/verify.py)
            results.append(points.Result(0, False, 0))
        else:
            end = player.finished_at or game.race.finished_at or entry.event.ends_at
            won = player.status == Entry.WON
            results.append(points.Result(player.score, won, since_start(game.race, end) or 0))
        settled.append(game)
    totals = points.settle(results)
    for game, earned in zip(settled, totals.per_game, strict=True):
        if game.points != earned:
            game.points = earned
            game.save(update_fields=["points"])
    entry.points, entry.wins, entry.time_ms = totals.points, totals.wins, totals.time_ms
    entry.save(update_fields=["points", "wins", "time_ms"])
    return totals
