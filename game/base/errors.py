"""
One coded error for everything a player's request can be refused for.

A frame, an HTTP request or a race action that cannot be done raises
`GameError(code, message)`. The socket answers it with an `error` frame, the
JSON API with `{"error": {code, message}}` and the status `http_status(code)`
gives; the client shows its own translated text for each code
(frontend/js/errors.js). A new refusal is a new code here, nothing more.
"""

HTTP_STATUS = {
    "not_found": 404,
    "no_such_race": 404,
    "no_such_deal": 404,
    "no_leader": 404,
    "no_best": 404,
    "too_large": 413,
    "rate_limited": 429,
    "daily_locked": 403,
    "no_session": 403,
    "too_many_sockets": 429,
    "race_started": 409,
    "race_full": 409,
    "not_host": 409,
    "no_players": 409,
    "not_running": 409,
    "not_finished": 409,
    "not_a_player": 409,
    "still_playing": 409,
    "attempt_first": 409,
    "server_error": 503,
}
"""HTTP status per code; any other code is the client's mistake (400)."""


class GameError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def http_status(code):
    return HTTP_STATUS.get(code, 400)
