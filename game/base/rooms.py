"""
Room codes: made here, and read from a URL exactly once.

A room is six characters from an alphabet with no look-alikes (no I, L, O, 0,
1), but a typed or older link is read without regard to case: the route's
converter upper-cases it, so every view, consumer and race action downstream
sees the canonical code and never normalises it again.
"""

import secrets

from django.urls import register_converter

LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 6


def new_room():
    return "".join(secrets.choice(LETTERS) for _ in range(LENGTH))


class RoomConverter:
    """`<room:room>` in a route: 1-8 letters or digits, upper-cased."""

    regex = "[A-Za-z0-9]{1,8}"

    def to_python(self, value):
        return value.upper()

    def to_url(self, value):
        return value


register_converter(RoomConverter, "room")
