"""One move rule: the solver and the casual player move only as rules.py allows.

They work on card values with their own fast encoding (``Board``), so each
move they would play is checked here against the engine's rule itself,
``move_error`` on the cards, on positions reached by random legal play.
"""

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import Deal, Game
from game.engine.cards import ALL_CARDS, SLOTS, VALUE
from game.engine.deals import MAX_NUMBER
from game.engine.difficulty import _legal_moves
from game.engine.rules import move_error
from game.engine.solver.board import CLASS_OF, Board
from game.engine.solver.rules import candidate_moves, forced_moves

from .test_properties import play_randomly


def played_position(number, choices):
    game = Game(Deal.from_number(number))
    play_randomly(game, choices)
    return game, Board([VALUE[card] for card in game.stack(slot)] for slot in SLOTS)


def moves_the_rule_allows(game):
    """Every set of playable slots whose cards ``move_error`` accepts, by brute force."""
    playable = game.playable()
    return {
        frozenset(slots)
        for size in (2, 3)
        for slots in permutations(playable, size)
        if move_error([playable[slot] for slot in slots]) is None
    }


def as_slots(moves):
    return [frozenset(SLOTS[s] for s in move) for move in moves]


positions = given(
    st.integers(min_value=0, max_value=MAX_NUMBER),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=45),
)


@settings(max_examples=80, deadline=None)
@positions
def test_the_casual_player_sees_exactly_the_moves_the_rule_allows(number, choices):
    game, board = played_position(number, choices)
    allowed = moves_the_rule_allows(game)
    casual = as_slots(_legal_moves(board))
    assert set(casual) == allowed and len(casual) == len(allowed)
    assert allowed == set(map(frozenset, game.legal_moves()))


@settings(max_examples=80, deadline=None)
@positions
def test_every_move_the_solver_tries_or_forces_is_one_the_rule_allows(number, choices):
    game, board = played_position(number, choices)
    allowed = moves_the_rule_allows(game)
    assert set(as_slots(candidate_moves(board))) <= allowed
    forced = as_slots(forced_moves(board))
    assert set(forced) <= allowed
    # Forced moves are played one after another: they must not share a stack.
    assert sum(map(len, forced)) == len(set().union(*forced))


def test_cards_that_go_together_share_a_solver_class():
    # The class guards search each class alone: exact only if no removal mixes classes.
    one_per_rank = [card for card in ALL_CARDS if card.endswith("S")]
    removals = [
        cards
        for size in (2, 3)
        for cards in permutations(one_per_rank, size)
        if move_error(cards) is None
    ]
    assert len(removals) == 5 * 2 + 6
    for cards in removals:
        assert len({CLASS_OF[VALUE[card]] for card in cards}) == 1, cards


def test_the_games_table_of_removals_is_every_pair_and_trio_the_rule_allows():
    from game.engine import game

    every = {
        cards
        for size in (2, 3)
        for cards in permutations(ALL_CARDS, size)
        if move_error(cards) is None
    }
    assert every == game._FITTING
    assert len(every) == 5 * 4 * 4 * 2 + 6 * 4**3  # 5 pairs of values, 2 orders; J, Q, K
