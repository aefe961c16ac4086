"""
Every refusal a player's request can meet, and every way a race socket closes.

A frame, an HTTP request or a race action that cannot be done raises
`GameError(code, message)`; a move or undo the engine or the race refuses is a
`rejected` frame with a code of the same kind. The socket answers with an
`error` (or `rejected`) frame, the JSON API with `{"error": {code, message}}`
and the status `http_status(code)` gives, and the client shows its own
translated text for each code (frontend/js/errors.js); the message is English,
for developers. The codes are the wire format: they never change once sent.

A new refusal is one line in `REFUSALS`, plus its text in frontend/js/errors.js;
`GameError` refuses a code not registered here, and tests/web/test_errors.py
finds every code the server sends and holds the client's texts and
docs/protocol.md to this module.
"""

from enum import IntEnum
from typing import NamedTuple


class Refusal(NamedTuple):
    status: int
    """The HTTP status when it answers a request (a code only a socket sends keeps 400)."""
    meaning: str
    staff: bool = False
    """Only the staff's daily calendar meets it, as its translated message: no client text."""


REFUSALS = {
    # a frame or request the server cannot read
    "bad_json": Refusal(400, "not one JSON object, or a binary frame"),
    "too_large": Refusal(413, "a frame or request body over 4 KiB"),
    "unknown_type": Refusal(400, "a frame whose type is missing or unknown"),
    "bad_field": Refusal(400, "a field of the wrong type or out of its range"),
    "bad_name": Refusal(400, "a name that is not 1 to 24 printable characters"),
    "bad_deal": Refusal(400, "text that is not a deal code"),
    # the server's own limits and failures; nothing was applied
    "rate_limited": Refusal(429, "too many requests or frames in a short time"),
    "too_many_sockets": Refusal(429, "too many sockets open for the session or the address"),
    "no_session": Refusal(403, "a socket without the session cookie a page sets"),
    "busy": Refusal(400, "more frames waiting than the server takes: send it again shortly"),
    "server_error": Refusal(503, "the database does not answer just now (a socket: sync)"),
    # lookups
    "not_found": Refusal(404, "nothing there, or a replay that may not be watched yet"),
    "no_such_race": Refusal(404, "no race has this room code"),
    "no_such_deal": Refusal(404, "no custom deal has this code"),
    "no_such_event": Refusal(404, "no event has this number"),
    # reminders (game/reminders/)
    "reminders_off": Refusal(404, "reminders asked of a server with no VAPID key (none here)"),
    "push_refused": Refusal(400, "a push address at a service the server does not post to"),
    # the race
    "race_started": Refusal(409, "join or start once the race has left its lobby"),
    "race_full": Refusal(409, "join when every seat is taken"),
    "race_blocked": Refusal(403, "join a race with an account one blocked, or that blocked one"),
    "not_host": Refusal(409, "start or rematch asked by someone other than the host"),
    "no_players": Refusal(409, "start with nobody in the race"),
    "not_running": Refusal(409, "a move, undo or resign when the race is not running"),
    "not_finished": Refusal(409, "a rematch before the race is over"),
    "not_a_player": Refusal(409, "a move, undo, resign or restart from a spectator"),
    "not_solo": Refusal(409, "a restart of a race, a daily attempt or a ghost race"),
    # a move or undo refused (`rejected`: its seq is not used up)
    "bad_seq": Refusal(400, "a seq that is not the next one, or a retry that differs: sync"),
    "game_over": Refusal(400, "a move or undo once the player's game is over"),
    "not_playable": Refusal(400, "a slot whose cards are all gone"),
    "bad_slot": Refusal(400, "no such pile or reserve slot"),
    "duplicate_slot": Refusal(400, "one slot twice in a move"),
    "bad_count": Refusal(400, "a move of other than two or three cards"),
    "sum_not_11": Refusal(400, "number cards that do not sum to 11"),
    "needs_jqk": Refusal(400, "face cards, or three cards, that are not a Jack, Queen and King"),
    "nothing_to_undo": Refusal(400, "an undo with no move left to undo"),
    # the daily deal, its ghosts, the after-game analysis
    "daily_locked": Refusal(403, "today's daily deal raced, or analysed before its day ends"),
    "attempt_first": Refusal(409, "a ghost race before one's own attempt at the deal is over"),
    "no_leader": Refusal(404, "a ghost race on a deal nobody has a ranked result on"),
    "no_best": Refusal(404, "racing one's best on a deal one has not finished"),
    "still_playing": Refusal(409, "an analysis asked while the race is running"),
    # friends: follows, blocks, challenges (game/friends/)
    "no_such_player": Refusal(404, "no account has this username"),
    "account_needed": Refusal(403, "a guest follows, blocks or challenges: only accounts do"),
    "self_follow": Refusal(400, "following, blocking or challenging one's own account"),
    "blocked": Refusal(403, "following or challenging across a block, whoever made it"),
    "too_many_follows": Refusal(409, "following more accounts than one may (500)"),
    "not_following": Refusal(409, "challenging an account one does not follow"),
    "challenge_open": Refusal(409, "a challenge while one between the two accounts is open"),
    "challenge_gone": Refusal(409, "answering a challenge that is over or not one's own"),
    # ratings
    "rated_needs_account": Refusal(403, "a guest asking for a rated quick race"),
    "event_over": Refusal(409, "joining or playing an event once it is over"),
    "event_not_started": Refusal(409, "playing an event's deals before its start"),
    "event_needs_account": Refusal(403, "a guest joining a rated event"),
    # the staff's daily calendar
    "not_winnable": Refusal(400, "a deal the solver proved not winnable", staff=True),
    "unconfirmed": Refusal(400, "a deal of unknown verdict, not confirmed", staff=True),
    "day_started": Refusal(400, "a day that has started: its deal is fixed", staff=True),
    "event_started": Refusal(400, "an event's deals changed once it started", staff=True),
    "daily_deal": Refusal(400, "an event given a daily deal not over, or one to come", staff=True),
    "event_deal": Refusal(400, "a daily deal scheduled that an event holds", staff=True),
}
"""Each code sent for a refusal: its HTTP status and what it means."""

CLIENT_CODES = frozenset(code for code, refusal in REFUSALS.items() if not refusal.staff)
"""The codes a player's client can receive: each has a text in frontend/js/errors.js."""


class CloseCode(IntEnum):
    """Why the server closes a race socket: application codes (4000-4999), since
    daphne's websocket stack refuses to send 1008, and 1012, which it is taught to send
    (game/realtime/shutdown.py). Pass `int(code)`: autobahn takes only an exact int."""

    RESTART = 1012, "service restart: this process is stopping; reconnect at once (jittered)"

    FLOOD = 4008, "the socket spent its credit of frames"
    NO_SUCH_PATH = 4400, "no socket is served at this path (a race's or an event's only)"
    NO_SESSION = 4401, "no session cookie a page made (after an error no_session)"
    NO_SUCH_RACE = 4404, "no race has this room code (an event's socket: no such event)"
    IDLE = 4408, "nothing received, not even a ping, for HALFMOON_IDLE_S"
    TOO_MANY_SOCKETS = 4429, "too many sockets open (after an error too_many_sockets)"
    UNAVAILABLE = 4503, "the channel layer (Redis) does not answer: reconnect later"

    def __new__(cls, value, meaning):
        member = int.__new__(cls, value)
        member._value_ = value
        member.meaning = meaning
        return member


class GameError(Exception):
    def __init__(self, code, message):
        if code not in REFUSALS:
            raise ValueError(f"unregistered error code {code!r}: add it to game/base/errors.py")
        super().__init__(message)
        self.code = code
        self.message = message


def http_status(code):
    return REFUSALS[code].status
