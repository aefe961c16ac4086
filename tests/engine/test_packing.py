"""A packed game decodes to exactly the rows stored (docs/storage.md is the spec)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import Deal, Game
from game.engine.deals import MAX_NUMBER
from game.engine.examples import RULE_BOOK_DEAL, RULE_BOOK_WIN
from game.engine.packing import PackingError, decode, encode, seqs
from game.engine.solver import WINNABLE, solve

VECTOR_ROWS = [
    (1, "move", ("P1", "P8"), 4210),
    (2, "move", ("P8", "P5", "P3"), 6005),
    (3, "undo", ("P8", "P5", "P3"), 7000),
    (4, "move", ("P5", "P8", "P3"), 8123),
    (5, "move", ("P9", "P2"), 9500),
]
VECTORS = [
    # (rows on the rule book's deal, their packed bytes): docs/storage.md explains each byte.
    (VECTOR_ROWS, "01 01 05 f2 20 83 0e e3 07 e3 08 e1 0a a6 cf ee 04"),
    (
        [(1, "move", ("P1", "P8"), 4210), (2, "move", ("P8", "P5", "P3"), 3000)],
        "81 01 02 e4 41 f3 12 a6 c0",
    ),
    ([], "01 01 00"),
]


@pytest.mark.parametrize(("rows", "packed"), VECTORS)
def test_the_documented_vectors(rows, packed):
    deal = Deal.from_code(RULE_BOOK_DEAL)
    assert encode(deal, rows).hex(" ") == packed
    assert decode(deal, bytes.fromhex(packed)) == rows
    assert list(seqs(bytes.fromhex(packed))) == [row[0] for row in rows]


def random_rows(deal, rng, undo_rate=0.1):
    """A game played at random until it is over or the player stops, with undos and
    slots named in any order, at human-like times (some going backwards)."""
    game, rows, ms = Game(deal), [], rng.randrange(-500, 5000)
    while rng.random() > 0.01:
        legal = game.legal_moves()
        if game.undoable and (not legal or rng.random() < undo_rate):
            if not legal and rng.random() < 0.5:
                break
            rows.append((len(rows) + 1, "undo", game.undo().slots, ms))
        elif legal:
            move = rng.choice(legal)
            slots = tuple(rng.sample(move, len(move)))
            game.remove(slots)
            rows.append((len(rows) + 1, "move", slots, ms))
        else:
            break
        ms += int(rng.lognormvariate(7.3, 0.8)) - (rng.random() < 0.01) * 3000
    return rows


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=MAX_NUMBER), st.integers(min_value=0))
def test_a_random_game_with_undos_decodes_to_its_rows(number, seed):
    deal = Deal.from_number(number)
    rows = random_rows(deal, random.Random(seed))
    assert decode(deal, encode(deal, rows)) == rows


def test_thousands_of_random_games_decode_to_their_rows():
    rng = random.Random(30)
    for _ in range(2000):
        deal = Deal.from_number(rng.randrange(MAX_NUMBER))
        rows = random_rows(deal, rng, undo_rate=rng.choice([0, 0.05, 0.3]))
        assert decode(deal, encode(deal, rows)) == rows


def solver_rows(deal, line, rng):
    return [(n, "move", tuple(rng.sample(m, len(m))), n * 1500) for n, m in enumerate(line, 1)]


@pytest.mark.parametrize("number", [0, 2, 4])
def test_solver_games_decode_and_fit_the_budget(number):
    deal = Deal.from_number(number)
    result = solve(deal, max_seconds=2.0)
    assert result.verdict == WINNABLE
    rows = solver_rows(deal, result.moves, random.Random(number))
    packed = encode(deal, rows)
    assert decode(deal, packed) == rows
    assert len(packed) <= 150


def test_the_rule_book_win_decodes():
    deal = Deal.from_code(RULE_BOOK_DEAL)
    rows = solver_rows(deal, RULE_BOOK_WIN, random.Random(1))
    assert decode(deal, encode(deal, rows)) == rows


@pytest.mark.parametrize(
    ("rows", "error"),
    [
        ([(1, "move", ("P1", "P2"), 0)], "not a legal move"),
        ([(1, "undo", (), 0)], "nothing to undo"),
        ([(1, "move", ("P1", "P8"), 0), (2, "undo", ("P8", "P1"), 0)], "other slots"),
        ([(1, "move", ("P1", "P8"), 0), (3, "undo", (), 0)], "seqs must follow"),
    ],
)
def test_rows_that_are_no_game_are_refused_clearly(rows, error):
    with pytest.raises(PackingError, match=error):
        encode(Deal.from_code(RULE_BOOK_DEAL), rows)


@pytest.mark.parametrize(
    "packed", ["", "02 01 00", "01 01 05 f2", "01 01 01 00 ff ff", "01 01 00 00"]
)
def test_bytes_that_are_no_packed_game_are_refused_clearly(packed):
    with pytest.raises(PackingError, match="not a packed game"):
        decode(Deal.from_code(RULE_BOOK_DEAL), bytes.fromhex(packed))
