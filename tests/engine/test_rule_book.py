"""The rule book, rule by rule (rulebook/: "Eliminările permise", "Scorul", …)."""

import pytest

from game.engine import BLOCKED, PLAYING, WON, Deal, Game, IllegalMove, replay
from game.engine.examples import RULE_BOOK_WIN as WINNING_LINE
from game.engine.scheme import describe

# A layout built to make face cards and pairs easy to reach: every pile
# is one rank family, so the tests can point at exactly the cards they need.
SIMPLE_PILES = [
    ["AS", "AH", "AD", "AC", "AS", "AH", "AD", "AC"],
    ["10S", "10H", "10D", "10C", "10S", "10H", "10D", "10C"],
    ["2S", "2H", "2D", "2C", "2S", "2H", "2D", "2C"],
    ["9S", "9H", "9D", "9C", "9S", "9H", "9D", "9C"],
    ["3S", "3H", "3D", "3C", "3S", "3H", "3D", "3C"],
    ["8S", "8H", "8D", "8C", "8S", "8H", "8D", "8C"],
    ["4S", "4H", "4D", "4C", "4S", "4H", "4D", "4C"],
    ["7S", "7H", "7D", "7C", "7S", "7H", "7D", "7C"],
    ["5S", "5H", "5D", "5C", "5S", "5H", "5D", "5C"],
    ["6S", "6H", "6D", "6C", "6S", "6H", "6D", "6C"],
    ["JS", "JH", "JD", "JC", "QS", "QH", "QD", "QC"],
    ["KS", "KH", "KD", "KC", "JS", "JH", "JD", "JC"],
]
SIMPLE_RESERVE = ["QS", "QH", "QD", "QC", "KS", "KH", "KD", "KC"]


@pytest.fixture
def simple():
    return Game(Deal.from_layout(SIMPLE_PILES, SIMPLE_RESERVE))


def refused(game, slots):
    with pytest.raises(IllegalMove) as caught:
        game.remove(slots)
    return caught.value.code


# Setup ("Pregătirea jocului")


def test_a_deal_is_twelve_piles_of_eight_and_eight_reserve_cards(rule_book_deal):
    game = Game(rule_book_deal)
    assert game.cards_left == 104
    assert [game.stack(f"P{n}").__len__() for n in range(1, 13)] == [8] * 12
    assert [len(game.stack(f"R{n}")) for n in range(1, 9)] == [1] * 8


def test_only_the_top_of_each_pile_and_every_reserve_card_are_playable(rule_book_deal):
    playable = Game(rule_book_deal).playable()
    assert len(playable) == 20
    assert playable["P1"] == "5S" and playable["P8"] == "6D"
    assert [playable[f"R{n}"] for n in range(1, 9)] == list(rule_book_deal.reserve)


# Allowed removals ("Eliminările permise")


@pytest.mark.parametrize(
    "low, high", [("P1", "P2"), ("P3", "P4"), ("P5", "P6"), ("P7", "P8"), ("P9", "P10")]
)
def test_the_five_kinds_of_pair_sum_to_eleven(simple, low, high):
    assert simple.remove([low, high]).removed[0][:-1] in "A2345"
    assert simple.score == 10


def test_the_suit_does_not_matter(simple):
    assert simple.playable()["P1"] == "AC" and simple.playable()["P2"] == "10C"
    simple.remove(["P1", "P2"])
    assert (simple.playable()["P1"], simple.playable()["P2"]) == ("AD", "10D")
    simple.remove(["P2", "P1"])


def test_a_jack_a_queen_and_a_king_of_any_suits_make_a_trio(simple):
    result = simple.remove(["P12", "P11", "R5"])
    assert sorted(card[0] for card in result.removed) == ["J", "K", "Q"]
    assert simple.score == 15


def test_face_cards_never_pair(simple):
    assert refused(simple, ["P12", "P11"]) == "needs_jqk"


def test_two_number_cards_that_do_not_sum_to_eleven_are_refused(simple):
    assert refused(simple, ["P1", "P3"]) == "sum_not_11"


def test_a_number_card_then_a_face_card_asks_for_eleven(simple):
    assert refused(simple, ["P9", "R5"]) == "sum_not_11"


def test_a_face_card_then_a_number_card_asks_for_a_trio(simple):
    assert refused(simple, ["R5", "P9"]) == "needs_jqk"


def test_two_faces_of_the_same_rank_are_not_a_trio(simple):
    simple.remove(["P12", "P11", "R5"])
    assert refused(simple, ["P11", "R1", "R2"]) == "needs_jqk"


def test_three_number_cards_are_not_a_move(simple):
    assert refused(simple, ["P1", "P2", "P3"]) == "needs_jqk"


def test_sources_mix_pile_and_reserve(rule_book_deal):
    game = Game(rule_book_deal)
    assert game.remove(["P1", "R2"]).removed == ("5S", "6S")
    assert game.remove(["R4", "R5"]).removed == ("4S", "7D")
    assert game.remove(["P2", "P9"]).removed == ("AH", "10D")


def test_removed_cards_leave_and_emptied_slots_stay_empty(simple):
    simple.remove(["P12", "P11", "R5"])
    assert "R5" not in simple.playable()
    assert refused(simple, ["R5", "P12", "P11"]) == "not_playable"
    for _ in range(8):
        simple.remove(["P1", "P2"])
    assert "P1" not in simple.playable() and "P2" not in simple.playable()
    assert refused(simple, ["P1", "P2"]) == "not_playable"


@pytest.mark.parametrize(
    "slots, code",
    [
        (["P1"], "bad_count"),
        (["P1", "P2", "P3", "P4"], "bad_count"),
        ([], "bad_count"),
        ("P1", "bad_count"),
        (None, "bad_count"),
        (["P1", "P13"], "bad_slot"),
        (["P1", "p2"], "bad_slot"),
        (["P1", 2], "bad_slot"),
        (["P1", ["P2"]], "bad_slot"),
        (["R9", "P1"], "bad_slot"),
        (["P1", "P1"], "duplicate_slot"),
        (["P11", "P12", "P11"], "duplicate_slot"),
    ],
)
def test_malformed_moves_are_refused_with_their_code(simple, slots, code):
    assert refused(simple, slots) == code
    assert simple.cards_left == 104 and simple.moves == 0


def test_refused_moves_say_the_rule_books_message(simple):
    with pytest.raises(IllegalMove, match="The sum must equal 11"):
        simple.remove(["P1", "P3"])
    with pytest.raises(IllegalMove, match="Requires a Jack, a Queen and a King"):
        simple.remove(["P12", "P11"])


# The worked example ("Exemplu din partida câștigată")


def test_the_worked_example_first_pair_then_the_revealed_jack_goes_in_a_trio(example_layout):
    game = Game(example_layout)
    first = game.remove(["P1", "P8"])
    assert first.removed == ("5S", "6D")
    assert game.playable()["P8"] == "JC"
    second = game.remove(["P8", "P5", "P3"])
    assert second.removed == ("JC", "QH", "KH")
    assert game.score == 25 and game.moves == 2


RULE_BOOK_SCHEME_RO = (
    "teancul 1: 7 cărți, 7 de cupă deasupra; teancul 2: 8 cărți, as de cupă deasupra; "
    "teancul 3: 8 cărți, rege de cupă deasupra; teancul 4: 8 cărți, 4 de treflă deasupra; "
    "teancul 5: 8 cărți, damă de cupă deasupra; teancul 6: 8 cărți, 5 de cupă deasupra; "
    "teancul 7: 8 cărți, 7 de pică deasupra; teancul 8: 7 cărți, valet de treflă deasupra; "
    "teancul 9: 8 cărți, 10 de caro deasupra; teancul 10: 8 cărți, 10 de treflă deasupra; "
    "teancul 11: 8 cărți, 2 de caro deasupra; teancul 12: 8 cărți, rege de cupă deasupra; "
    "teancul R1: 1 carte, 10 de cupă deasupra; teancul R2: 1 carte, 6 de pică deasupra; "
    "teancul R3: 1 carte, 3 de caro deasupra; teancul R4: 1 carte, 4 de pică deasupra; "
    "teancul R5: 1 carte, 7 de caro deasupra; teancul R6: 1 carte, 5 de pică deasupra; "
    "teancul R7: 1 carte, valet de cupă deasupra; teancul R8: 1 carte, as de treflă deasupra."
)


def test_the_worked_example_scheme_is_word_for_word_the_rule_books(example_layout):
    game = Game(example_layout)
    game.remove(["P1", "P8"])
    assert describe(game, "ro") == RULE_BOOK_SCHEME_RO


def test_deal_hm1_n_aaaaaab_is_the_rule_books_deal(rule_book_deal):
    game = Game(rule_book_deal)
    game.remove(["P1", "P8"])
    assert describe(game, "ro") == RULE_BOOK_SCHEME_RO
    game.remove(["P8", "P5", "P3"])


def test_five_of_spades_and_ace_of_hearts_of_the_same_deal_do_not_pair(rule_book_deal):
    assert refused(Game(rule_book_deal), ["P1", "P2"]) == "sum_not_11"


def test_five_of_spades_and_king_of_hearts_do_not_go_together(rule_book_deal):
    assert refused(Game(rule_book_deal), ["P1", "P3"]) == "sum_not_11"


# Score ("Scorul")


def test_a_pair_scores_ten_and_a_trio_fifteen(simple):
    simple.remove(["P1", "P2"])
    simple.remove(["P12", "P11", "R5"])
    assert simple.score == 25 and simple.moves == 2


def test_a_won_game_is_always_40_pairs_8_trios_48_moves_and_520(rule_book_deal):
    game = replay(rule_book_deal, WINNING_LINE)
    assert game.status == WON
    assert (game.cards_left, game.moves, game.score) == (0, 48, 520)
    assert sum(len(move) == 2 for move in WINNING_LINE) == 40
    assert game.legal_moves() == []


def test_no_move_is_accepted_after_the_win(rule_book_deal):
    game = replay(rule_book_deal, WINNING_LINE)
    assert refused(game, ["P1", "P2"]) == "game_over"


# End of the game ("Sfârșitul partidei")


def test_a_game_with_a_pair_or_trio_to_play_is_playing(simple):
    assert simple.status == PLAYING


def test_blocked_when_no_pair_and_no_trio_is_playable(blocking_deal):
    game = Game(blocking_deal)
    assert game.legal_moves() == [("P2", "P1")]
    game.remove(["P2", "P1"])
    assert game.playable()["P1"] == "JS"  # a Jack, two Queens, no King: no trio
    assert game.status == BLOCKED
    assert game.legal_moves() == [] and game.cards_left == 102


def test_blocked_game_can_still_undo(blocking_deal):
    game = Game(blocking_deal)
    game.remove(["P2", "P1"])
    game.undo()
    assert game.status == PLAYING and game.moves == 0 and game.score == 0


# What the app does ("Ce face aplicația")


def test_undo_puts_the_cards_back_and_lowers_score_and_moves(rule_book_deal):
    game = Game(rule_book_deal)
    game.remove(["P1", "P8"])
    game.remove(["P8", "P5", "P3"])
    result = game.undo()
    assert result.slots == ("P8", "P5", "P3") and result.removed == ("JC", "QH", "KH")
    assert game.playable()["P8"] == "JC" and game.score == 10 and game.moves == 1
    game.undo()
    assert game.playable()["P1"] == "5S" and game.score == 0 and game.moves == 0


def test_undo_with_nothing_to_undo_is_refused(rule_book_deal):
    with pytest.raises(IllegalMove) as caught:
        Game(rule_book_deal).undo()
    assert caught.value.code == "nothing_to_undo"


def test_undo_reaches_back_over_a_whole_won_game(rule_book_deal):
    game = replay(rule_book_deal, WINNING_LINE)
    for _ in range(48):
        game.undo()
    assert game.cards_left == 104 and game.score == 0 and game.moves == 0


def test_history_is_the_line_from_the_deal(rule_book_deal):
    game = replay(rule_book_deal, WINNING_LINE[:5])
    game.undo()
    assert game.history == WINNING_LINE[:4]
    assert replay(rule_book_deal, game.history).playable() == game.playable()
