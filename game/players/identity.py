"""
Who a player is: a random key kept in their Django session.

Not the session key itself, which Django rotates on login; the player key
lives inside the session data, so it survives that and is the same on every
server process (sessions live in the database).
"""

import re
import secrets

PLAYER_KEY = "hm_player"
NAME_KEY = "hm_name"
DEFAULT_NAME = "Player"
"""Stored for a player who chose no name; pages show it translated (player_name)."""
NUMBERED_NAME = re.compile(r"Player ([1-9][0-9]?)")
"""A quick race's player who chose no name, told apart from the others (`numbered`)."""
DELETED_NAME = "deleted player"
"""The name left on the results of a deleted account (game/players/erase.py); pages
show it translated (player_name)."""


def player_key(session):
    """This session's player key, created on first use (the caller saves the session)."""
    key = session.get(PLAYER_KEY)
    if not _valid(key):
        key = new_key()
        session[PLAYER_KEY] = key
    return key


def stored_key(session):
    """The session's player key if it has one (a mapping: a session or its decoded data),
    else None; creates nothing."""
    key = session.get(PLAYER_KEY)
    return key if _valid(key) else None


def viewer_key(session):
    """This session's player key for a page that only shows things: a stranger's (a
    fresh key kept nowhere, so it is no one's) when the session has none, which
    then stays unchanged and unsaved: a look costs no session row."""
    key = session.get(PLAYER_KEY)
    return key if _valid(key) else new_key()


def _valid(key):
    return isinstance(key, str) and len(key) == 32


def new_key():
    return secrets.token_hex(16)


def numbered(name, number):
    """`name`, or "Player <number>" for one who chose none: two quick racers with no
    name are not both "Player" (pages translate it: player_name, i18n.js playerName)."""
    return f"{DEFAULT_NAME} {number}" if name == DEFAULT_NAME else name


def remembered_name(session):
    return session.get(NAME_KEY) or DEFAULT_NAME


def remember_name(session, name):
    if session.get(NAME_KEY) != name:
        session[NAME_KEY] = name
