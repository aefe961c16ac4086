"""Hand-made layouts shared by the solver and difficulty tests."""

from game.engine import Deal


def one_family_per_pile():
    """One rank per number pile: Aces pair off with Tens pile against pile, and so on.

    The faces lie in two piles and the reserve: pile 12's Jacks go with pile
    11's Queens and the reserve's Kings. (Spending the reserve's Queens first
    would strand pile 11's Jacks under its own Queens.)
    """
    ranks = ["A", "10", "2", "9", "3", "8", "4", "7", "5", "6"]
    piles = [[rank + suit for suit in "SHDCSHDC"] for rank in ranks]
    piles += [["JS", "JH", "JD", "JC", "QS", "QH", "QD", "QC"]]
    piles += [["KS", "KH", "KD", "KC", "JS", "JH", "JD", "JC"]]
    return Deal.from_layout(piles, ["QS", "QH", "QD", "QC", "KS", "KH", "KD", "KC"])
