"""
The error registry (game/base/errors.py) is the whole truth: every code the server
sends is registered, the client has a text for every code it can receive, and
docs/protocol.md lists the same codes and close codes.

Codes are found in the source, not listed by hand: a code typed at a new raise site
fails here (and in `GameError` itself) until it is registered and given its text.
"""

import ast
import gettext
import re
from pathlib import Path

import pytest

from game.base.errors import CLIENT_CODES, REFUSALS, CloseCode, GameError, http_status
from game.engine import rules
from game.web import pages

ROOT = Path(__file__).resolve().parents[2]
CODE_ARGUMENT = {
    "GameError": 0,
    "IllegalMove": 0,
    "frames.rejected": 1,
    "frames.error": 0,
    "api_error": 0,
    "refused": 2,
}
"""Where a call takes a code: the callee as written, and the argument's position."""
PASSED_ON = {"exc.code", "error", "*refusal", "code"}
"""Codes passed on, not written: a caught error's (checked where raised), the engine's
`rules.move_error` (its constants, below), `refusals.move`'s returns (scanned), and
`guards.refused`'s own argument (its callers are scanned)."""
ENGINE_RULE_CODES = {rules.SUM_NOT_11, rules.NEEDS_JQK, rules.BAD_COUNT}
SCHEMAS = {"game/race/protocol.py", "game/web/bodies.py"}
"""Where a field's refusal is declared, as {field: (code, message)} (game/base/inputs.py's
`Reader` raises it)."""


def _trees():
    for path in sorted((ROOT / "game").rglob("*.py")):
        if "migrations" not in path.parts:
            yield path, ast.parse(path.read_text(), str(path))


def _code_arguments(tree):
    """(code argument, line) of every call that takes a code."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in CODE_ARGUMENT:
            position = CODE_ARGUMENT[ast.unparse(node.func)]
            if len(node.args) > position:
                yield node.args[position], node.lineno


def _compared_codes(tree):
    """Literals compared with a `.code`, as in `exc.code == "no_session"`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and ast.unparse(node.left).endswith(".code"):
            for other in node.comparators:
                if isinstance(other, ast.Constant) and isinstance(other.value, str):
                    yield other.value, node.lineno


def _returned_codes(tree):
    """The codes of `refusals.move`'s (code, message) returns."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            first = node.value.elts[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield first.value, node.lineno


def _declared_refusals(tree):
    """The codes of a schema's {field: (code, message)} refusals."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for value in node.values:
                if isinstance(value, ast.Tuple) and len(value.elts) == 2:
                    first = value.elts[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        yield first.value, value.lineno


def codes_in_source():
    """{code: [where, …]} for every code the server's source sends or checks;
    fails on a code argument that is neither written out nor a known hand-on."""
    found, unknown = {}, []
    for path, tree in _trees():
        where = str(path.relative_to(ROOT))
        for argument, line in _code_arguments(tree):
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.setdefault(argument.value, []).append(f"{where}:{line}")
            elif ast.unparse(argument) not in PASSED_ON:
                unknown.append(f"{where}:{line}: {ast.unparse(argument)}")
        returned = _returned_codes(tree) if where == "game/race/refusals.py" else ()
        declared = _declared_refusals(tree) if where in SCHEMAS else ()
        for code, line in [*_compared_codes(tree), *returned, *declared]:
            found.setdefault(code, []).append(f"{where}:{line}")
    assert not unknown, f"a code from an expression this test cannot follow: {unknown}"
    for code in ENGINE_RULE_CODES | set(pages.DEAL_ERRORS):
        found.setdefault(code, []).append("by name")
    return found


def test_every_code_the_source_sends_is_registered_and_every_registered_one_is_sent():
    found = codes_in_source()
    unregistered = {code: where for code, where in found.items() if code not in REFUSALS}
    assert not unregistered, "register these in game/base/errors.py"
    assert set(REFUSALS) - set(found) == set(), "registered but never sent"


def test_an_unregistered_code_is_refused_at_once():
    with pytest.raises(ValueError, match="unregistered error code 'daily_lockd'"):
        GameError("daily_lockd", "a typo")
    assert GameError("daily_locked", "today's deal").code == "daily_locked"


def test_the_http_statuses_are_the_ones_clients_know():
    statuses = {code: http_status(code) for code in REFUSALS}
    assert {code for code, status in statuses.items() if status != 400} == {
        *("not_found", "no_such_race", "no_such_deal", "no_leader", "no_best"),
        *("too_large", "rate_limited", "too_many_sockets", "daily_locked", "no_session"),
        *("race_started", "race_full", "race_blocked", "not_host", "no_players", "not_running"),
        *("not_finished", "not_a_player", "still_playing", "attempt_first", "server_error"),
        *("not_solo", "rated_needs_account"),
        *("no_such_player", "account_needed", "blocked", "too_many_follows", "not_following"),
        *("challenge_open", "challenge_gone"),
        *("no_such_event", "event_over", "event_not_started", "event_needs_account"),
        "reminders_off",
    }
    assert statuses["daily_locked"] == 403 and statuses["too_large"] == 413
    assert all(refusal.meaning for refusal in REFUSALS.values())


# --- the client's texts ----------------------------------------------------------------


def js_table(path, name):
    """{key: value source} of the object literal `const <name> = {…};` in a JS file."""
    source = (ROOT / path).read_text()
    body = re.search(rf"const {name} = \{{\n(.*?)\n\}};", source, re.S)
    assert body, f"no table {name} in {path}"
    return dict(re.findall(r"^  (\w+): (.+),$", body.group(1), re.M))


def test_the_client_has_a_text_for_every_code_it_can_receive_and_no_other():
    texts = js_table("frontend/js/errors.js", "TEXTS")
    texts |= js_table("frontend/js/errors.js", "MOVE_ERRORS")
    assert CLIENT_CODES - set(texts) == set(), "give these a text in frontend/js/errors.js"
    assert set(texts) - CLIENT_CODES == set(), "texts for codes the server never sends"
    refused = js_table("frontend/js/analysis.js", "REFUSED")
    assert set(refused) <= CLIENT_CODES
    for code, text in (texts | refused).items():
        assert text == "RELOAD" or text.startswith('gettext("'), f"{code}: not translated"


@pytest.mark.parametrize("language", ["fr", "ca", "ro"])
def test_every_error_text_is_translated(language):
    source = (ROOT / "frontend/js/errors.js").read_text()
    msgids = re.findall(r'gettext\("((?:[^"\\]|\\.)*)"\)', source)
    with open(ROOT / f"locale/{language}/LC_MESSAGES/djangojs.mo", "rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)
    assert len(msgids) > 20
    assert [msgid for msgid in msgids if catalog.gettext(msgid) == msgid] == []


# --- docs/protocol.md ------------------------------------------------------------------


def protocol_section(start, end):
    text = (ROOT / "docs/protocol.md").read_text()
    return text[text.index(start) : text.index(end, text.index(start))]


WEBSOCKET_STACK_CLOSES = {1007, 1009}
"""Closes daphne's websocket stack sends itself (bad UTF-8, a message too large:
halfmoon_site/asgi.py), which the application never chooses."""


def test_the_documented_close_codes_are_the_close_codes():
    table = protocol_section("## Close codes", "## Reconnecting")
    documented = {int(code) for code in re.findall(r"^\| (\d{4}) \|", table, re.M)}
    assert documented == set(CloseCode) | WEBSOCKET_STACK_CLOSES
    assert all(close.meaning for close in CloseCode)


def test_the_documented_socket_codes_are_registered():
    rejected = protocol_section("`rejected.code`", "\n\n")
    documented = set(re.findall(r"`(\w+)`", rejected)) - {"seq"}
    table = protocol_section("`error.code`", "## Close codes")
    documented |= set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    assert len(documented) > 20
    assert documented - CLIENT_CODES == set()


def test_the_documented_http_statuses_are_the_registered_ones():
    errors = protocol_section('Errors are `{"error"', "| method, path |")
    documented = {
        code: int(status)
        for status, codes in re.findall(r"(\d{3})\s+\(((?:`\w+`(?:,\s*)?)+)\)", errors)
        for code in re.findall(r"`(\w+)`", codes)
    }
    assert len(documented) > 10
    assert documented == {code: http_status(code) for code in documented}
