"""
The rating board's page (/ratings/): the top 100, your own line highlighted (and below
them if not among them), and the ranks' names. The lines are game/players/player_ratings.py's.
"""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from game.players import player_ratings
from game.ratings import ranks


@require_safe
def rating_board(request):
    """/ratings/: the rating board, your own line highlighted (and below if not in it)."""
    viewer = request.user if request.user.is_authenticated else None
    lines, you = player_ratings.board(viewer)
    below = you is not None and you["rank"] > len(lines)
    context = {
        "lines": lines,
        "rows": lines + [you] if below else lines,  # one loop, no template included per row
        "you": you,
        "you_below": below,
        "ranks": [(floor, player_ratings.RANK_NAMES[code]) for floor, code in ranks.RANKS],
        "mine": (you or player_ratings.rating_of(viewer)) if viewer else None,  # shown, rank_name
    }
    return render(request, "game/ratings.html", context)
