"""
The staff's deal calendar: staff plan the coming weeks' daily deals without ever
scheduling an unwinnable one, and a day is history once it has started.
"""

import datetime
import threading
from concurrent.futures import Future
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.utils import timezone

from game.base import days
from game.deals import daily
from game.engine import Deal as EngineDeal
from game.engine.examples import RULE_BOOK_DEAL
from game.models import DailyDeal, Deal, Entry, Race
from game.solver import background
from game.solver.verdicts import analyse, analyse_job
from game.staff import fill

from .test_admin import layout_form

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("todays_deal")]
CALENDAR = "/admin/game/dailydeal/"
FILL = f"{CALENDAR}fill/"


def day_url(date):
    return f"{CALENDAR}day/{date.isoformat()}/"


def days_ahead(count):
    return days.today() + datetime.timedelta(days=count)


def a_deal(code, verdict):
    deal = Deal.for_code(code)
    deal.verdict = verdict
    deal.save()
    return deal


def schedule(client, date, code, **extra):
    return client.post(day_url(date), {"deal_code": code, **extra})


def refusal(response):
    return " ".join(str(error) for error in response.context["form"].non_field_errors())


# --- staff only ------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in(client):
    for url in (CALENDAR, day_url(days_ahead(3))):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith("/admin/login/")


def test_a_logged_in_player_who_is_not_staff_is_refused(client, django_user_model):
    player = django_user_model.objects.create_user("ada", password="moon-race-42!")
    client.force_login(player)
    assert client.get(CALENDAR).status_code == 302
    tomorrow = days_ahead(1)
    response = schedule(client, tomorrow, RULE_BOOK_DEAL)
    assert response.status_code == 302 and response.url.startswith("/admin/login/")
    assert not DailyDeal.objects.filter(date=tomorrow).exists()


def test_staff_without_the_right_to_change_daily_deals_may_look_but_not_schedule(
    client, django_user_model
):
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user("viewer", password="x", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_dailydeal"))
    client.force_login(staff)
    assert client.get(CALENDAR).status_code == 200
    a_deal(RULE_BOOK_DEAL, "winnable")
    assert schedule(client, days_ahead(2), RULE_BOOK_DEAL).status_code == 403
    assert not DailyDeal.objects.filter(date=days_ahead(2)).exists()
    assert client.get(FILL).json()["state"] in ("idle", "done")
    assert client.post(FILL).status_code == 403
    assert "Fill the coming four weeks" not in client.get(CALENDAR).content.decode()


# --- the calendar ----------------------------------------------------------------------


def test_the_calendar_shows_the_past_week_read_only_today_and_four_weeks_to_plan(admin_client):
    rows = admin_client.get(CALENDAR).context["days"]
    dates = [row["day"].date for row in rows]
    assert dates[0] == days_ahead(-7) and dates[-1] == days_ahead(28) and len(dates) == 36
    editable = {row["day"].date: row["day"].editable for row in rows}
    assert not editable[days_ahead(-1)] and not editable[days.today()]
    assert editable[days_ahead(1)] and editable[days_ahead(28)]
    today = next(row for row in rows if row["day"].date == days.today())
    assert today["deal"].code == "HM1-N-AAAAAAC" and today["kind"] == "picked automatically"


def test_a_coming_day_shows_the_deal_it_will_be_picked_or_midnight(admin_client):
    known, unknown = days_ahead(5), days_ahead(6)
    first, second = list(daily.candidates(known))[:2]
    a_deal(first, "not_winnable")
    a_deal(second, "winnable")
    rows = {row["day"].date: row for row in admin_client.get(CALENDAR).context["days"]}
    assert rows[known]["deal"].code == second
    assert rows[known]["kind"] == "will be picked automatically"
    assert rows[unknown]["day"].deal is None
    assert rows[unknown]["kind"] == "picked automatically at midnight"
    assert daily.daily_deal(known).deal.code == second  # the pick itself agrees


def test_analysing_the_daily_candidates_ahead_tells_each_coming_days_pick(
    admin_client, monkeypatch
):
    call_command("analyse_deals", "--daily-candidates", "2", "--workers", "1", stdout=StringIO())
    rows = {row["day"].date: row for row in admin_client.get(CALENDAR).context["days"]}
    monkeypatch.setattr(daily, "_solve", lambda deal: pytest.fail(f"{deal} not analysed"))
    for date in (days_ahead(1), days_ahead(2)):
        assert rows[date]["kind"] == "will be picked automatically"
        assert rows[date]["analysis"] == "winnable"
        assert daily.daily_deal(date).deal == rows[date]["deal"]
        assert daily.guests_deal(daily.daily_deal(date)).verdict == "winnable"  # ready too
    assert rows[days_ahead(3)]["kind"] == "picked automatically at midnight"


@pytest.fixture
def no_fill_yet():
    cache.delete_many([fill.KEY, fill.LOCK])  # the cache outlives a test's database
    yield
    cache.delete_many([fill.KEY, fill.LOCK])


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_fill_yet")
def test_staff_fill_the_coming_weeks_with_a_button_and_watch_it_run(admin_client, monkeypatch):
    monkeypatch.setattr(fill, "DAYS", 2)
    queued = []
    monkeypatch.setattr(fill.pool, "submit", lambda key, function, job: _queued(queued, job))
    answer = admin_client.post(FILL)
    assert answer.status_code == 302 and answer.url == CALENDAR
    assert admin_client.get(FILL).json()["running"]
    page = admin_client.get(CALENDAR).content.decode()
    assert "<progress" in page and "Analysing the coming days" in page
    admin_client.post(FILL)  # a second click starts no second run
    assert [t.name for t in threading.enumerate()].count(fill.THREAD) == 1
    thread = next(t for t in threading.enumerate() if t.name == fill.THREAD)
    while thread.is_alive():  # the solver pool, played by this test
        while queued:
            future, job = queued.pop(0)
            future.set_result(analyse_job(job))
        thread.join(0.05)
    status = admin_client.get(FILL).json()
    assert status["state"] == "done" and status["settled"] == status["total"] == 6
    assert status["analysed"] >= 4 and "6 of 6 picks known" in status["text"]
    rows = {row["day"].date: row for row in admin_client.get(CALENDAR).context["days"]}
    for date in (days_ahead(1), days_ahead(2)):
        assert rows[date]["kind"] == "will be picked automatically"
        assert rows[date]["analysis"] == "winnable"


def _queued(queued, job):
    future = Future()
    queued.append((future, job))
    return future


# --- scheduling ------------------------------------------------------------------------


def test_staff_schedule_a_coming_day_and_the_calendar_says_who(admin_client, admin_user):
    a_deal(RULE_BOOK_DEAL, "winnable")
    tomorrow = days_ahead(1)
    response = schedule(admin_client, tomorrow, RULE_BOOK_DEAL.lower())
    assert response.status_code == 302 and response.url == CALENDAR
    day = DailyDeal.objects.get(date=tomorrow)
    assert day.deal.code == RULE_BOOK_DEAL and day.scheduled_by == admin_user
    assert daily.daily_deal(tomorrow) == day  # the day's first player gets it
    row = next(r for r in admin_client.get(CALENDAR).context["days"] if r["day"].date == tomorrow)
    assert row["kind"] == "scheduled by staff" and row["day"].scheduled_by == admin_user
    a_deal("HM1-N-AAAAABC", "winnable")
    assert schedule(admin_client, tomorrow, "HM1-N-AAAAABC").status_code == 302
    assert DailyDeal.objects.get(date=tomorrow).deal.code == "HM1-N-AAAAABC"


def test_a_scheduled_day_goes_back_to_the_automatic_pick(admin_client):
    a_deal(RULE_BOOK_DEAL, "winnable")
    date = days_ahead(9)
    schedule(admin_client, date, RULE_BOOK_DEAL)
    response = admin_client.post(day_url(date), {"unschedule": "1"})
    assert response.status_code == 302 and not DailyDeal.objects.filter(date=date).exists()


def test_today_and_past_days_cannot_be_changed(admin_client):
    a_deal(RULE_BOOK_DEAL, "winnable")
    for date in (days.today(), days_ahead(-1)):
        page = admin_client.get(day_url(date))
        assert b"This day has started" in page.content and b'name="deal_code"' not in page.content
        response = schedule(admin_client, date, RULE_BOOK_DEAL, confirm="on")
        assert response.status_code == 400 and "has started" in refusal(response)
        assert admin_client.post(day_url(date), {"unschedule": "1"}).status_code == 400
    assert DailyDeal.objects.get(date=days.today()).deal.code == "HM1-N-AAAAAAC"
    assert not DailyDeal.objects.filter(date=days_ahead(-1)).exists()


def test_the_admins_own_forms_lead_to_the_calendar(admin_client):
    today = DailyDeal.objects.get(date=days.today())
    assert admin_client.get(f"{CALENDAR}add/").url == CALENDAR
    assert admin_client.get(f"{CALENDAR}{today.pk}/change/").url == day_url(days.today())
    assert admin_client.get(f"{CALENDAR}nonsense/change/").url == CALENDAR
    form = {"date": days.today().isoformat(), "deal_code": RULE_BOOK_DEAL}
    admin_client.post(f"{CALENDAR}{today.pk}/change/", form)
    admin_client.post(f"{CALENDAR}{today.pk}/delete/", {"post": "yes"})
    assert DailyDeal.objects.get(date=days.today()).deal.code == "HM1-N-AAAAAAC"


def test_a_deal_proven_not_winnable_is_refused_with_the_reason(admin_client):
    a_deal("HM1-N-AAAAABD", "not_winnable")
    date = days_ahead(3)
    for confirm in ({}, {"confirm": "on"}):
        response = schedule(admin_client, date, "HM1-N-AAAAABD", **confirm)
        assert response.status_code == 400
        assert refusal(response) == (
            "HM1-N-AAAAABD is not winnable (the solver proved it): pick another deal."
        )
    assert not DailyDeal.objects.filter(date=date).exists()


def test_an_unknown_verdict_asks_for_an_explicit_confirmation(admin_client, admin_user):
    a_deal("HM1-N-AAAAABE", "unknown")
    date = days_ahead(4)
    asked = schedule(admin_client, date, "HM1-N-AAAAABE")
    assert asked.status_code == 400 and "could not decide" in refusal(asked)
    assert b'name="confirm"' in asked.content and not DailyDeal.objects.filter(date=date).exists()
    confirmed = schedule(admin_client, date, "HM1-N-AAAAABE", confirm="on")
    assert confirmed.status_code == 302
    assert DailyDeal.objects.get(date=date).deal.code == "HM1-N-AAAAABE"


def test_a_deal_not_analysed_yet_asks_for_confirmation_and_gets_analysed(
    admin_client, monkeypatch, django_capture_on_commit_callbacks
):
    started = []
    monkeypatch.setattr(background, "start", started.append)
    date = days_ahead(4)
    with django_capture_on_commit_callbacks(execute=True):
        asked = schedule(admin_client, date, "HM1-N-AAAAABF")
    assert asked.status_code == 400 and "has not been analysed yet" in refusal(asked)
    assert [deal.code for deal in started] == ["HM1-N-AAAAABF"]
    assert schedule(admin_client, date, "HM1-N-AAAAABF", confirm="on").status_code == 302


def test_a_code_that_is_no_deal_is_refused_in_the_readers_language(admin_client):
    date = days_ahead(2)
    response = admin_client.post(day_url(date), {"deal_code": "nope"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert (
        response.status_code == 400 and refusal(response) == "« nope » n’est pas un code de donne."
    )
    missing = schedule(admin_client, date, "HM1-C-ZZZZZZZ")
    assert "HM1-C-ZZZZZZZ" in refusal(missing)


# --- what staff see of a deal ----------------------------------------------------------


def finished(deal, name, status, ms=None, review=Entry.CLEAN):
    race = Race.objects.create(
        room=name.upper()[:8], deal=deal, mode=Race.SOLO, status=Race.FINISHED, time_limit_s=900
    )
    return Entry.objects.create(
        race=race, player_key=name, name=name, status=status, time_ms=ms, review=review
    )


def test_a_days_page_shows_the_layout_verdict_difficulty_and_results(admin_client):
    deal = a_deal(RULE_BOOK_DEAL, "winnable")
    deal.difficulty, deal.difficulty_label = 0.31, "easy"
    deal.save()
    finished(deal, "steady", Entry.WON, 95_000)
    finished(deal, "quick", Entry.WON, 61_000)
    finished(deal, "bot", Entry.WON, 4_000, review=Entry.FLAGGED)
    finished(deal, "cheat", Entry.WON, 3_000, review=Entry.DISQUALIFIED)
    finished(deal, "gave-up", Entry.RESIGNED)
    date = days_ahead(2)
    schedule(admin_client, date, RULE_BOOK_DEAL)
    page = admin_client.get(day_url(date), HTTP_ACCEPT_LANGUAGE="fr")
    assert page.context["results"] == {"played": 4, "won": 3, "best_ms": 61_000, "win_rate": 75}
    html = page.content.decode()
    assert '<svg class="deal-picture"' in html and html.count("<g data-slot=") == 20
    # the rule book's scheme: pile 3 shows its top card in French letters, over "3 · 8"
    pile_3 = html[html.index('data-slot="P3"') :]
    assert "R♥" in pile_3[: pile_3.index("</g>")] and "3 · 8" in pile_3[: pile_3.index("</g>")]
    for shown in ("gagnable", "facile", "75 %", "1:01"):
        assert shown in html, shown


def test_the_calendar_pictures_every_deal_it_knows(admin_client):
    a_deal(RULE_BOOK_DEAL, "winnable")
    schedule(admin_client, days_ahead(1), RULE_BOOK_DEAL)
    html = admin_client.get(CALENDAR).content.decode()
    row = html[html.index(f'data-date="{days_ahead(1).isoformat()}"') :]
    row = row[: row.index("</tr>")]
    assert RULE_BOOK_DEAL in row and '<svg class="deal-picture"' in row and "winnable" in row


# --- a custom deal is analysed off the request path ------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_custom_deal_is_analysed_after_saving_and_its_page_shows_the_progress(
    admin_client, monkeypatch
):
    solver = Future()
    monkeypatch.setattr(background.pool, "submit", lambda key, function, job: solver)
    engine_deal = EngineDeal.from_code(RULE_BOOK_DEAL)
    response = admin_client.post("/admin/game/deal/add/", layout_form(engine_deal))
    deal = Deal.objects.get(source=Deal.CUSTOM)
    assert response.status_code == 302 and response.url == f"/admin/game/deal/{deal.pk}/change/"
    running = admin_client.get(response.url).content.decode()
    assert "analysing…" in running and 'http-equiv="refresh"' in running
    solver.set_result((deal.code, analyse(deal.code, deal.layout, seconds=5)))
    for thread in threading.enumerate():
        if thread.name == background.thread_name(deal):
            thread.join()
    done = admin_client.get(response.url).content.decode()
    assert "analysing…" not in done and 'http-equiv="refresh"' not in done
    deal.refresh_from_db()
    assert deal.verdict == "winnable" and deal.analysing_since is None
    assert ">winnable<" in done


def test_an_analysis_left_by_a_process_that_died_reads_as_interrupted_until_run_again(
    admin_client,
):
    deal = Deal.for_code("HM1-N-AAAAABG")
    deal.analysing_since = timezone.now() - background.STALE * 2
    deal.save()
    page = admin_client.get(f"/admin/game/deal/{deal.pk}/change/").content.decode()
    assert "analysis interrupted" in page and 'http-equiv="refresh"' not in page
    action = {"action": "analyse_selected", "_selected_action": [deal.pk]}
    admin_client.post("/admin/game/deal/", action)
    again = admin_client.get(f"/admin/game/deal/{deal.pk}/change/").content.decode()
    assert "analysis interrupted" not in again and ">winnable<" in again


def test_every_staff_page_answers(admin_client):
    for url in (CALENDAR, day_url(days_ahead(1)), day_url(days_ahead(-3))):
        assert admin_client.get(url).status_code == 200
    assert admin_client.get(f"{CALENDAR}day/someday/").status_code == 404
