"""Invariants of random legal play on random deals (Hypothesis)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import BLOCKED, PLAYING, WON, Deal, Game, replay
from game.engine.cards import ALL_CARDS, SLOTS
from game.engine.deals import MAX_NUMBER

deal_numbers = st.integers(min_value=0, max_value=MAX_NUMBER)


def every_card(game):
    """All cards still in the game, hidden ones included."""
    return Counter(card for slot in SLOTS for card in game.stack(slot))


def play_randomly(game, choices):
    """Play legal moves picked by ``choices`` until the game ends or choices run out."""
    removed = Counter()
    pairs = trios = 0
    for choice in choices:
        moves = game.legal_moves()
        if not moves:
            break
        result = game.remove(moves[choice % len(moves)])
        removed.update(result.removed)
        pairs += len(result.removed) == 2
        trios += len(result.removed) == 3
    return removed, pairs, trios


@settings(max_examples=60, deadline=None)
@given(deal_numbers, st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_cards_are_conserved_and_score_counts_pairs_and_trios(number, choices):
    game = Game(Deal.from_number(number))
    removed, pairs, trios = play_randomly(game, choices)
    assert every_card(game) + removed == Counter(dict.fromkeys(ALL_CARDS, 2))
    assert game.score == 10 * pairs + 15 * trios
    assert game.moves == pairs + trios
    assert game.cards_left == 104 - sum(removed.values())


@settings(max_examples=60, deadline=None)
@given(deal_numbers, st.lists(st.integers(min_value=0, max_value=10_000), max_size=60), st.data())
def test_undo_restores_the_exact_earlier_state(number, choices, data):
    game = Game(Deal.from_number(number))
    play_randomly(game, choices)
    undo_count = data.draw(st.integers(min_value=0, max_value=game.moves))
    before = replay(game.deal, game.history[: game.moves - undo_count])
    for _ in range(undo_count):
        game.undo()
    assert [game.stack(slot) for slot in SLOTS] == [before.stack(slot) for slot in SLOTS]
    assert (game.score, game.moves, game.cards_left, game.status) == (
        before.score,
        before.moves,
        before.cards_left,
        before.status,
    )
    assert game.legal_moves() == before.legal_moves()


@settings(max_examples=80, deadline=None)
@given(deal_numbers, st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_status_follows_the_rule_book(number, choices):
    game = Game(Deal.from_number(number))
    play_randomly(game, choices)
    blocked = not game.legal_moves() and game.cards_left > 0
    assert (game.status == BLOCKED) == blocked
    assert (game.status == WON) == (game.score == 520 and game.moves == 48)
    if not blocked and game.cards_left:
        assert game.status == PLAYING


@settings(max_examples=60, deadline=None)
@given(deal_numbers, st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_every_legal_move_is_accepted_and_every_other_pair_refused(number, choices):
    game = Game(Deal.from_number(number))
    play_randomly(game, choices)
    legal = set(game.legal_moves())
    playable = sorted(game.playable())
    for first in playable:
        for second in playable:
            if first == second:
                continue
            move = (first, second)
            accepted = move in legal or move[::-1] in legal
            try:
                game.remove(move)
            except ValueError:
                assert not accepted, move
            else:
                assert accepted, move
                game.undo()


@settings(max_examples=30, deadline=None)
@given(deal_numbers, st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_replay_of_the_history_is_the_same_game(number, choices):
    game = Game(Deal.from_number(number))
    play_randomly(game, choices)
    again = replay(Deal.from_code(game.deal.code), game.history)
    assert [again.stack(slot) for slot in SLOTS] == [game.stack(slot) for slot in SLOTS]
    assert (again.score, again.moves) == (game.score, game.moves)


@settings(max_examples=40, deadline=None)
@given(deal_numbers, st.lists(st.integers(min_value=0, max_value=10_000), max_size=60), st.data())
def test_heights_and_undoable_agree_with_the_stacks_and_the_history(number, choices, data):
    """What opponents see of a board (heights) and whether undo is offered."""
    game = Game(Deal.from_number(number))
    play_randomly(game, choices)
    for _ in range(data.draw(st.integers(min_value=0, max_value=3))):
        if game.undoable:
            game.undo()
    assert game.heights() == [len(game.stack(slot)) for slot in SLOTS]
    assert game.undoable == len(game.history)
    assert sum(game.heights()) == game.cards_left
