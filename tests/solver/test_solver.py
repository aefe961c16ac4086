"""The solver: every verdict is checked, never trusted.

``winnable`` must come with a line the engine replays to a win; ``not
winnable`` is compared with a plain exhaustive search, on positions small
enough for it; an exhausted budget says ``unknown``.
"""

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from game.engine import BLOCKED, WON, Deal, Game, replay
from game.engine.cards import SLOTS
from game.engine.examples import RULE_BOOK_DEAL
from game.engine.solver import NOT_WINNABLE, SOLVER_VERSION, UNKNOWN, WINNABLE, solve
from game.engine.solver.board import Board
from game.engine.solver.rules import candidate_moves, forced_moves
from tests.support.layouts import one_family_per_pile

WINNABLE_DEALS = (0, 1, 2, 4, 5, 6, 7, 8, 9, 11)
NOT_WINNABLE_DEALS = (3, 10, 125)
"""Among the first numbered deals, the first three the solver proves lost; every
other deal of 0-11 is winnable. Each deal has one verdict, pinned here."""


def assert_wins(game_or_deal, moves):
    """The line replays through the engine, from the given position, to a win."""
    game = _copy(game_or_deal)
    start_score, start_moves = game.score, game.moves
    for move in moves:
        game.remove(move)
    assert game.status == WON
    assert (game.score - start_score, game.moves - start_moves) == _still_to_score(game_or_deal)


def _copy(game_or_deal):
    if isinstance(game_or_deal, Game):
        return replay(game_or_deal.deal, game_or_deal.history)
    return Game(game_or_deal)


def _still_to_score(game_or_deal):
    game = _copy(game_or_deal)
    return 520 - game.score, 48 - game.moves


def exhaustive_winnable(game):
    """The plain search the solver must agree with: every legal move, nothing skipped."""
    lost = set()

    def can_win():
        if game.cards_left == 0:
            return True
        position = tuple(len(game.stack(slot)) for slot in SLOTS)
        if position in lost:
            return False
        for move in game.legal_moves():
            game.remove(move)
            won = can_win()
            game.undo()
            if won:
                return True
        lost.add(position)
        return False

    return can_win()


def late_position(number, keep, wander, seed):
    """A small position of deal ``number``: its winning line (or random play) for
    ``keep`` moves, then ``wander`` random legal moves — winnable or not."""
    deal = Deal.from_number(number)
    line = solve(deal, max_seconds=1.0).moves or []
    game = Game(deal)
    rng = random.Random(seed)
    for step in range(keep + wander):
        moves = game.legal_moves()
        if not moves:
            break
        game.remove(line[step] if step < min(keep, len(line)) else rng.choice(moves))
    return game


# The rule book's deal


def test_the_rule_book_deal_is_winnable_and_its_line_replays_to_520_in_48_moves():
    deal = Deal.from_code(RULE_BOOK_DEAL)
    result = solve(deal)
    assert result.verdict == WINNABLE
    game = replay(deal, result.moves)
    assert (game.status, game.score, game.moves, game.cards_left) == (WON, 520, 48, 0)


@pytest.mark.parametrize("number", WINNABLE_DEALS)
def test_a_winnable_deal_comes_with_a_line_that_replays_to_a_win(number):
    deal = Deal.from_number(number)
    result = solve(deal, max_seconds=None)
    assert result.verdict == WINNABLE
    assert_wins(deal, result.moves)


@pytest.mark.parametrize("number", NOT_WINNABLE_DEALS)
def test_some_deals_cannot_be_won(number):
    result = solve(Deal.from_number(number), max_seconds=None)
    assert (result.verdict, result.moves) == (NOT_WINNABLE, None)


# Positions: games in progress, blocked, won


def test_a_game_in_progress_gets_a_line_from_where_it_stands(rule_book_deal):
    game = Game(rule_book_deal)
    for move in solve(rule_book_deal).moves[:20]:
        game.remove(move)
    result = solve(game)
    assert result.verdict == WINNABLE
    assert len(result.moves) == 48 - 20
    assert_wins(game, result.moves)
    assert game.moves == 20, "solving does not touch the game"


def test_a_blocked_game_is_not_winnable(blocking_deal):
    game = Game(blocking_deal)
    game.remove(["P1", "P2"])
    assert game.status == BLOCKED
    assert solve(game).verdict == NOT_WINNABLE


def test_a_deal_with_one_pair_then_a_block_is_not_winnable(blocking_deal):
    assert solve(blocking_deal).verdict == NOT_WINNABLE


def test_a_won_game_needs_no_more_moves(rule_book_deal):
    game = replay(rule_book_deal, solve(rule_book_deal).moves)
    result = solve(game)
    assert (result.verdict, result.moves) == (WINNABLE, [])


def test_a_custom_layout_is_solved_like_any_deal():
    deal = one_family_per_pile()
    result = solve(deal)
    assert result.verdict == WINNABLE
    assert_wins(deal, result.moves)


# Budgets


def test_a_spent_node_budget_says_unknown():
    result = solve(Deal.from_number(122), max_nodes=300)
    assert (result.verdict, result.moves) == (UNKNOWN, None)
    assert 300 <= result.nodes < 300 + 256


def test_a_spent_time_budget_says_unknown():
    result = solve(Deal.from_number(122), max_seconds=0.0)
    assert result.verdict == UNKNOWN
    assert result.seconds >= 0


def test_results_report_nodes_seconds_and_the_solver_version():
    result = solve(Deal.from_number(0))
    assert result.nodes > 0 and 0 <= result.seconds < 5
    assert isinstance(SOLVER_VERSION, str) and SOLVER_VERSION


# Cross-check with the plain exhaustive search


@pytest.mark.parametrize("number", [0, 1, 2, 3, 10, 12, 125])
@pytest.mark.parametrize("keep", [30, 32, 34])
@pytest.mark.parametrize("wander", [0, 2, 4, 8])
def test_verdicts_on_late_positions_agree_with_exhaustive_search(number, keep, wander):
    game = late_position(number, keep, wander, seed=number * 7 + wander)
    result = solve(game, max_seconds=None)
    assert result.verdict == (WINNABLE if exhaustive_winnable(game) else NOT_WINNABLE)
    if result.verdict == WINNABLE:
        assert_wins(game, result.moves)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(min_value=0, max_value=999),
    st.integers(min_value=30, max_value=38),
    st.integers(min_value=0, max_value=8),
    st.integers(min_value=0, max_value=1_000),
)
def test_random_late_positions_agree_with_exhaustive_search(number, keep, wander, seed):
    game = late_position(number, keep, wander, seed)
    assume(game.cards_left <= 36)  # small enough for the plain search
    result = solve(game, max_seconds=None)
    assert result.verdict == (WINNABLE if exhaustive_winnable(game) else NOT_WINNABLE)
    if result.verdict == WINNABLE:
        assert_wins(game, result.moves)


# The reductions, one by one


def test_a_class_in_full_view_is_cleared_without_branching():
    # Every 5 and 6 left is on top: they go, in any pairing.
    board = Board([(1, 5), (2, 6), (3, 5), (4, 6)])
    assert sorted(forced_moves(board)) == [(0, 1), (2, 3)]


def test_a_card_whose_partners_all_lie_alone_goes_with_one_of_them():
    # Both 6s left lie alone: the 5 on top of the first stack goes with one now.
    board = Board([(9, 5), (6,), (6,), (5, 2)])
    assert forced_moves(board) == [(0, 1)]


def test_identical_stacks_are_tried_once():
    board = Board([(2, 5), (2, 5), (7, 6)])
    assert candidate_moves(board) == [(0, 2)]


def test_a_lone_partner_is_not_tried_while_another_partner_shows():
    board = Board([(2, 5), (7, 6), (6,), (9, 6)])
    assert sorted(candidate_moves(board)) == [(0, 1), (0, 3)]


def test_a_move_of_lone_cards_alone_is_never_tried_early():
    board = Board([(5,), (6,), (3, 8, 4)])
    assert candidate_moves(board) == []


def test_turning_every_stack_over_keeps_the_verdict():
    for number in (3, 10, 0):
        deal = Deal.from_number(number)
        upside_down = Deal(tuple(tuple(reversed(pile)) for pile in deal.piles), deal.reserve)
        assert solve(deal, max_seconds=None).verdict == solve(upside_down, max_seconds=None).verdict
