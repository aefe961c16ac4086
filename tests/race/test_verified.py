"""
A verified #1 (docs/fair-play.md): the day's top wins are replayed on the server from
their stored moves before they show as final, a stored result its moves do not make
is held for staff, and a win far faster than its player's history is held until they
win a deal nobody has seen at a comparable pace, or staff confirm it. An event's top 3
are replayed before its final ranks.
"""

import datetime

import pytest
from django.test import Client

from game.base import days
from game.deals import codes, daily
from game.engine.examples import RULE_BOOK_DEAL
from game.lobby import alone
from game.models import DailyDeal, Deal, Entry, EventEntry, Race
from game.players import identity
from game.results import fairplay, verify
from tests.events.test_events import end_event, joined, running_event
from tests.support.server import move_clock, signed_up, win_on_clock

from .test_fair_play import daily_result

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def rule_book_today():
    """Today's ranked deal is the rule book's, so its known 48-move win can be played."""
    return DailyDeal.objects.create(
        date=days.today(),
        deal=Deal.for_code(RULE_BOOK_DEAL),
        guest_deal=Deal.for_code("HM1-N-QZQZQZG"),
    )


def board(client=None, date=None):
    date = date or days.today()
    return (client or Client()).get(f"/api/daily/{date.isoformat()}/leaderboard/").json()


def win_today(name, gap_s, client=None):
    """`name`, an account old enough to rank (signed up unless `client` is its browser),
    wins today's deal `gap_s` s a move on average: (its browser, its Entry)."""
    client = client or signed_up(name)
    key = client.session[identity.PLAYER_KEY]
    race = alone.daily_race(daily.daily_deal(), key, name)
    return client, win_on_clock(race, key, move_clock(gap_s))


def ranked_names(answer):
    return [(line["name"], line["verified"]) for line in answer["entries"]]


def test_the_days_first_wins_are_replayed_on_the_server_and_marked_verified():
    _, ada = win_today("ada", 3)
    _, bob = win_today("bob", 4)
    assert ada.verification == Entry.VERIFIED and ada.ranked
    assert Entry.objects.get(pk=bob.pk).verification == Entry.VERIFIED
    assert ranked_names(board()) == [("ada", True), ("bob", True)]
    page = Client().get(f"/daily/{days.today().isoformat()}/").content.decode()
    assert page.count('class="verified"') == 2


@pytest.mark.parametrize("tampered", [{"score": 999}, {"time_ms": 1_000}, {"moves": 30}])
def test_a_stored_result_edited_in_the_database_is_held_before_the_day_is_final(
    monkeypatch, tampered
):
    _, ada = win_today("ada", 3)
    bobs_client, bob = win_today("bob", 4)
    Entry.objects.filter(pk=bob.pk).update(**tampered)  # verified, then written by hand
    tomorrow = days.today() + datetime.timedelta(days=1)
    monkeypatch.setattr(days, "today", lambda: tomorrow)
    answer = board(bobs_client, ada.daily_date)  # the day's first read: its final check
    assert ranked_names(answer) == [("ada", True)]
    assert answer["you"]["held"] and not answer["you"]["ranked"]
    bob = Entry.objects.get(pk=bob.pk)
    assert bob.verification == Entry.HELD_REPLAY and bob.review == Entry.FLAGGED
    assert DailyDeal.objects.get(date=ada.daily_date).top_checked_at is not None


def test_a_won_game_whose_moves_do_not_make_its_stored_result_never_ranks(admin_client):
    _, ada = win_today("ada", 3)
    Entry.objects.filter(pk=ada.pk).update(verification=Entry.UNVERIFIED, score=999)
    verify.verify_day(ada.daily_date)
    assert board()["entries"] == []
    assert Entry.objects.get(pk=ada.pk).verification == Entry.HELD_REPLAY
    staff = admin_client.get("/admin/game/review/flagged/").context["rows"]
    why = [(row["entry"].pk, [str(reason) for reason in row["why"]]) for row in staff]
    assert why == [(ada.pk, ["the server's replay of its moves does not give this result"])]


def with_history(name, count, ms):
    """A browser signed up as `name`, with `count` ranked daily wins on the days before
    today, `ms` each."""
    client = signed_up(name)
    for back in range(1, count + 1):
        daily_result(days.today() - datetime.timedelta(days=back), name, ms=ms)
    return client


def test_a_win_far_faster_than_the_players_history_is_held_until_a_verification_deal(
    settings,
):
    client = with_history("carol", 5, ms=400_000)
    _, carol = win_today("carol", 3, client)  # 144 s, under half the 400 s of her history
    assert carol.verification == Entry.HELD_PACE and not carol.ranked
    answer = board(client)
    assert answer["entries"] == [] and answer["you"]["held"]
    page = client.get(f"/daily/{days.today().isoformat()}/").content.decode()
    assert "Play a verification deal" in page

    settings.HALFMOON_FLAG_SOLVER_SHARE = 1.01  # its line is the solver's: that check off
    slow = play_verification(client, carol, gap_s=6)  # twice her pace: not comparable
    assert slow.status == Entry.WON and slow.daily_date is None  # on no daily board
    assert Entry.objects.get(pk=carol.pk).verification == Entry.HELD_PACE

    play_verification(client, carol, gap_s=3)
    carol = Entry.objects.get(pk=carol.pk)
    assert carol.verification == Entry.VERIFIED and carol.ranked
    assert ranked_names(board()) == [("carol", True)]


def play_verification(client, held, gap_s):
    """Ask for a verification deal and win it on its solver's line, `gap_s` s a move."""
    answer = client.post("/daily/verify/")
    assert answer.status_code == 302
    race = Race.objects.get(verifies=held, status=Race.LOBBY)
    assert race.mode == Race.SOLO and race.deal_hidden and race.daily_date is None
    assert not DailyDeal.objects.filter(deal=race.deal).exists()
    line = race.deal.winning_line
    key = client.session[identity.PLAYER_KEY]
    return win_on_clock(race, key, move_clock(gap_s, moves=len(line)), line)


def test_staff_confirming_a_held_win_verifies_it(admin_user):
    _, dan = win_today("dan", 3, with_history("dan", 5, ms=400_000))
    fairplay.decide(dan, admin_user, Entry.CONFIRMED, "watched the replay: a personal best")
    dan = Entry.objects.get(pk=dan.pk)
    assert dan.verification == Entry.VERIFIED and dan.ranked


def test_a_short_history_holds_nothing():
    # one win fewer than HALFMOON_VERIFY_MIN_HISTORY
    _, erin = win_today("erin", 3, with_history("erin", 4, ms=400_000))
    assert erin.verification == Entry.VERIFIED and erin.ranked


def test_a_verification_deal_is_no_deal_anyone_has_seen(monkeypatch):
    today = daily.daily_deal()
    played = Deal.for_code("HM1-N-AAAAAAB")
    Race.objects.create(room="SEEN01", deal=played)
    fresh = Deal.for_code("HM1-N-AAAAAAD")
    fresh.verdict = "winnable"
    fresh.save()
    drawn = iter([today.deal, today.guest_deal, played, fresh])
    monkeypatch.setattr(codes, "random_deal", lambda: next(drawn))
    assert verify.unseen_deal() == fresh


def test_no_verification_deal_when_every_draw_was_seen(monkeypatch):
    today = daily.daily_deal()
    drawn = iter([today.deal, today.guest_deal])
    monkeypatch.setattr(codes, "random_deal", lambda: next(drawn))
    assert verify.unseen_deal(tries=2) is None  # the page then says to try again (503)


def test_only_a_held_account_gets_a_verification_deal():
    assert Client().post("/daily/verify/").status_code == 404
    client, _ = win_today("fay", 3)
    assert client.post("/daily/verify/").status_code == 404  # nothing of hers is held
    assert client.get("/daily/verify/").status_code == 405


def test_an_events_top_is_replayed_before_its_final_ranks_and_an_edited_game_counts_nothing():
    event = running_event()
    players = {}
    for name in ("Ada", "Bo"):
        client, key = joined(event, name)
        client.get(f"/events/{event.pk}/play/")
        race = Race.objects.get(event_game__entry__player_key=key)
        players[name] = win_on_clock(race, key, move_clock(3 if name == "Ada" else 2))
    Entry.objects.filter(pk=players["Bo"].pk).update(score=999)  # written by hand
    end_event(event)
    Client().get(f"/events/{event.pk}/")  # the first read after the end: final ranks
    ranks = dict(EventEntry.objects.filter(event=event).values_list("name", "rank"))
    assert ranks == {"Ada": 1, "Bo": 2}
    assert Entry.objects.get(pk=players["Ada"].pk).verification == Entry.VERIFIED
    bo = Entry.objects.get(pk=players["Bo"].pk)
    assert bo.verification == Entry.HELD_REPLAY and bo.review == Entry.FLAGGED
    assert EventEntry.objects.get(name="Bo").points == 0
