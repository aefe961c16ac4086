"""
The HTML pages that show people (a profile, the rating board) are limited as the JSON
API that answers the same is (the "read" limit, per player and per client address,
counted together): a script read 700 profile pages a minute from one address while
the API stopped it at 600. Past the limit the page is a plain 429 that says to wait,
and nothing of the page is read.
"""

import functools

from django.shortcuts import render

from game.base import limits
from game.base.errors import GameError, http_status
from game.players import identity


def limited(view):
    """`view`, each request counted against the "read" limit; past it, the 429 page."""

    @functools.wraps(view)
    def counted(request, *args, **kwargs):
        try:
            limits.spend(request, "read", identity.viewer_key(request.session))
        except GameError as exc:
            return render(request, "429.html", status=http_status(exc.code))
        return view(request, *args, **kwargs)

    return counted
