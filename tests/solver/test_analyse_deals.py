"""``manage.py analyse_deals`` and the admin's one-deal analysis: verdicts land on Deal rows."""

import io

import pytest
from django.core.management import CommandError, call_command

from game.engine import WON, replay
from game.engine import Deal as EngineDeal
from game.engine.solver import SOLVER_VERSION
from game.models import Deal
from game.solver.verdicts import analyse_deal_row

pytestmark = pytest.mark.django_db

FIRST_FOUR = ["HM1-N-AAAAAAA", "HM1-N-AAAAAAB", "HM1-N-AAAAAAC", "HM1-N-AAAAAAD"]
LOST = "HM1-N-AAAAAAD"
"""Deal 3: the first numbered deal the solver proves lost (it needs a few thousand nodes)."""


def analyse(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("analyse_deals", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def row(code):
    return Deal.objects.get(code=code)


def test_the_first_deals_get_a_verdict_a_winning_line_and_a_difficulty():
    out, err = analyse("--first", "4", "--workers", "1")
    assert sorted(Deal.objects.values_list("code", flat=True)) == FIRST_FOUR
    assert "4 analysed: 3 winnable, 1 not winnable, 0 unknown" in out
    assert "winnable 3 · not 1 · unknown 0" in err, "the progress bar keeps the tally"
    for deal in Deal.objects.filter(verdict="winnable"):
        game = replay(deal.engine_deal(), deal.winning_line)
        assert (game.status, game.score, game.moves) == (WON, 520, 48)
        assert 0 <= deal.difficulty <= 1 and deal.difficulty_label
        assert deal.solver_version == SOLVER_VERSION and deal.analyzed_at
        assert deal.solver_nodes > 0 and deal.solver_seconds >= 0
    lost = row(LOST)
    assert lost.verdict == "not_winnable"
    assert (lost.winning_line, lost.difficulty, lost.difficulty_label) == (None, None, None)


def test_a_second_run_skips_what_is_already_analysed():
    analyse("--first", "2", "--workers", "1")
    stamped = row(FIRST_FOUR[0]).analyzed_at
    out, err = analyse("--first", "4", "--workers", "1")
    assert "analysing 2 deals (2 already analysed)" in err
    assert "2 analysed" in out
    assert row(FIRST_FOUR[0]).analyzed_at == stamped


def test_deals_of_an_older_solver_version_are_analysed_again():
    analyse(FIRST_FOUR[0], "--workers", "1")
    Deal.objects.update(solver_version="0")
    analyse(FIRST_FOUR[0], "--workers", "1")
    assert row(FIRST_FOUR[0]).solver_version == SOLVER_VERSION


def test_unknown_verdicts_are_left_for_a_retry_with_a_larger_budget():
    out, _ = analyse(LOST, "--seconds", "0", "--workers", "1")
    assert row(LOST).verdict == "unknown"
    assert "still unknown" in out
    analyse(LOST, "--workers", "1")
    assert row(LOST).verdict == "unknown", "a plain run keeps a current verdict"
    analyse("--retry-unknown", "--seconds", "10", "--workers", "1")
    assert row(LOST).verdict == "not_winnable"


def test_workers_in_separate_processes_store_the_same_verdicts():
    analyse("--first", "4", "--workers", "2")
    verdicts = dict(Deal.objects.values_list("code", "verdict"))
    assert verdicts == dict.fromkeys(FIRST_FOUR[:3], "winnable") | {LOST: "not_winnable"}


def test_a_custom_deal_is_analysed_from_its_layout():
    layout = EngineDeal.from_code(FIRST_FOUR[1]).to_layout()
    Deal.objects.create(code="HM1-C-AAAAAAA", source=Deal.CUSTOM, layout=layout)
    analyse("hm1-c-aaaaaaa", "--workers", "1")
    custom = row("HM1-C-AAAAAAA")
    assert custom.verdict == "winnable"
    assert replay(custom.engine_deal(), custom.winning_line).status == WON


@pytest.mark.parametrize(
    "args, message",
    [
        ((), "say which deals"),
        (("HM1-X-AAAAAAA",), "not a deal code"),
        (("HM1-C-ZZZZZZZ",), "no such custom deal"),
    ],
)
def test_bad_requests_are_refused_with_a_reason(args, message):
    with pytest.raises(CommandError, match=message):
        analyse(*args)


def test_the_admin_analyses_one_row_in_place():
    deal = Deal.for_code(FIRST_FOUR[1])
    analyse_deal_row(deal)
    stored = row(FIRST_FOUR[1])
    assert stored.verdict == "winnable" and stored.winning_line == deal.winning_line
    assert stored.difficulty_label == deal.difficulty_label


def test_staff_analyse_selected_deals_from_the_admin(admin_client):
    deals = [Deal.for_code(code) for code in FIRST_FOUR[2:]]
    response = admin_client.post(
        "/admin/game/deal/",
        {"action": "analyse_selected", "_selected_action": [deal.pk for deal in deals]},
        follow=True,
    )
    assert "Analysed: 1 not winnable, 1 winnable." in response.content.decode()
    assert row(FIRST_FOUR[2]).verdict == "winnable"
    assert row(LOST).verdict == "not_winnable"
    listing = admin_client.get("/admin/game/deal/?difficulty_label=easy").content.decode()
    assert FIRST_FOUR[2] in listing, "deal 2 is easy and the list filters by difficulty"


def test_the_old_spelling_still_runs_and_says_it_is_deprecated():
    out, err = io.StringIO(), io.StringIO()
    call_command("analyze_deals", FIRST_FOUR[0], "--workers", "1", stdout=out, stderr=err)
    assert "deprecated: use analyse_deals" in err.getvalue()
    assert row(FIRST_FOUR[0]).verdict == "winnable"
