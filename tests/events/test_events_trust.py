"""Event standings that mean something (issue 31, findings 3 and 4): a result held for
review is out of the live and final ranks and marked; guests and accounts too young to
rank are ranked in their own list; a flood of guest entries from one address is
limited; a spare entry's peeks under an event's deal count against the real entry."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.events import play, standings
from game.models import Entry, EventEntry
from game.players import erase
from game.race import actions
from game.results import fairplay
from tests.support.server import (
    WIN,
    account_key,
    new_session,
    signed_up,
    win_at_a_persons_pace,
    win_on_clock,
)

from .test_events import joined, running_event

pytestmark = pytest.mark.django_db


def test_a_flagged_bot_s_win_is_held_out_of_the_live_ranks_and_marked():
    event = running_event()
    bot, bot_key = joined(event, "Bot")
    _ada, ada_key = joined(event, "Ada")
    won = win_on_clock(play.game_to_play(event, bot_key), bot_key)  # as fast as a script
    assert won.review == Entry.FLAGGED
    race = play.game_to_play(event, ada_key)
    actions.connect(race.room, ada_key, "socket")
    actions.move(race.room, ada_key, 1, WIN[0])
    frame, _rows = standings.tick(event.pk)
    top = {line["name"]: line for line in frame["top"]}
    assert top["Ada"]["rank"] == 1 and frame["top"][0]["name"] == "Ada"
    assert top["Bot"]["rank"] is None and top["Bot"]["list"] == "held"
    page = bot.get(f"/events/{event.pk}/").content.decode()
    assert "held for review" in page


def test_guests_and_young_accounts_rank_in_their_own_list_below_accounts_that_rank():
    event = running_event()
    old = account_key("old")
    young = account_key("young", age=timedelta(hours=1))
    for key, name in ((old, "old"), (young, "young")):
        play.join(event, key, name)
    _guest, guest = joined(event, "Guest")
    win_at_a_persons_pace(play.game_to_play(event, guest), guest)
    race = play.game_to_play(event, young)
    actions.connect(race.room, young, "socket")
    actions.move(race.room, young, 1, WIN[0])
    play.game_to_play(event, old)  # no move yet: fewer points than both, ranked first
    rows = standings.tick(event.pk)[1]
    assert [(row[0], row[2], row[5]) for row in rows] == [
        (1, "old", "ranked"),
        (1, "Guest", "guests"),
        (2, "young", "guests"),
    ]
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert page.count('<span class="event-mark">guest</span>') == 2  # beside a ranked list
    assert EventEntry.objects.filter(event=event).count() == 3


def test_a_flood_of_guest_entries_from_one_address_is_refused_after_the_limit(settings):
    settings.HALFMOON_EVENT_GUEST_ADDRESS_LIMIT = "10/3600"
    event = running_event()
    for index in range(10):
        joined(event, f"Spare{index}")
    late = Client()
    late.get("/")
    answer = late.post(f"/events/{event.pk}/", {"name": "Spare10"})
    assert answer.status_code == 429
    assert "Too many requests" in answer.content.decode()
    assert EventEntry.objects.filter(event=event).count() == 10
    account = signed_up("ada")  # an account is limited by the sign-up limit instead
    assert account.post(f"/events/{event.pk}/", {"name": "ada"}).status_code == 302


def joined_from(event, name, address):
    """A guest's browser that joined `event` from client `address`, and its key."""
    client = Client(REMOTE_ADDR=address)
    client.get("/")
    session_key, key = new_session(name)
    client.cookies["sessionid"] = session_key
    assert client.post(f"/events/{event.pk}/", {"name": name}).status_code == 302
    return client, key


def explore(event, key, looks=12):
    """A spare entry looks under the first deal's cards: a pair played, taken back."""
    race = play.game_to_play(event, key)
    actions.connect(race.room, key, "socket")
    for look in range(looks):
        actions.move(race.room, key, 2 * look + 1, WIN[0])
        actions.undo(race.room, key, 2 * look + 2)


def test_a_spare_entry_s_peeks_under_the_deal_count_against_the_real_entry():
    event = running_event()
    _spare, spare = joined_from(event, "Spare", "203.0.113.7")
    _real, real = joined_from(event, "Real", "203.0.113.7")
    explore(event, spare)
    won = win_at_a_persons_pace(play.game_to_play(event, real), real)
    assert won.review == Entry.FLAGGED
    assert "peeks" in fairplay.reasons(fairplay.tempo_of(won))
    last = standings.tick(event.pk)[1][-1]
    assert (last[2], last[5]) == ("Real", "held")
    # the same look from another address is another person's: it counts against no one
    honest = running_event()
    _spare, spare = joined_from(honest, "Spare", "203.0.113.7")
    _real, real = joined_from(honest, "Real", "198.51.100.9")
    explore(honest, spare)
    assert win_at_a_persons_pace(play.game_to_play(honest, real), real).review == Entry.CLEAN


def test_a_deleted_account_s_event_entries_keep_no_address_tag():
    event = running_event()
    client = signed_up("ada")
    assert client.post(f"/events/{event.pk}/", {"name": "ada"}).status_code == 302
    assert EventEntry.objects.get(event=event).address_tag != ""  # the address itself: never
    erase.delete_account(User.objects.get(username="ada"))
    assert EventEntry.objects.get(event=event).address_tag == ""
