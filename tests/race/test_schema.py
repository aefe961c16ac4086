"""
One schema for every frame and body: docs/protocol.md's tables say what
game/race/protocol.py (the client's frames), game/race/schema.py (the server's) and
game/web/bodies.py (the HTTP API's bodies) declare — every type and every field, both
ways — and game/race/frames.py is the only module that writes a server frame's `type`.
Whether each frame sent is as declared is checked for every server test
(tests/support/server.py, `frames_as_declared`).
"""

import ast
import re
from pathlib import Path

import msgspec
import pytest
from django.urls import resolve

from game.base.errors import GameError
from game.race import frames, protocol, schema
from game.web import bodies

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()
LITERALS = {"null", "true", "false"}
SAMPLE = {
    "<ROOM>": "K7QX2M",
    "<player>": "12",
    "<YYYY-MM-DD>": "2026-11-29",
    "<username>": "ada",
    "<id>": "7",
}
"""A value for each placeholder of the doc's paths, to resolve them to their views."""


def tables(header):
    """The rows (lists of cells) of every table of the doc whose header is `header`."""
    rows, inside = [], False
    for line in DOC.splitlines():
        if line.startswith("|"):
            cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
            if cells[0] == header[0] and cells[1] == header[1]:
                inside = True
            elif inside and not set(line) <= set("|-"):
                rows.append(cells)
        else:
            inside = False
    return rows


def _flat(text):
    """`text` without its parenthesized asides and what follows an em dash."""
    text = text.split(" — ")[0]
    while re.search(r"\([^()]*\)", text):
        text = re.sub(r"\([^()]*\)", "", text)
    return text


def field_names(cell):
    """The top-level fields a cell names: `seq`, `you {player, …}`, `kind: "move"`."""
    names = re.findall(r"`(\w+)", _flat(cell))
    return {name for name in names if name not in LITERALS}


def inner_names(cell, field):
    """The fields listed inside `field {…}` in a cell (None when it lists none, or only
    "…": described elsewhere)."""
    found = re.search(rf"`{field} \{{([^`]*)\}}", cell)
    if found is None or found[1].strip() in ("…", "..."):
        return None
    return {part.strip().split(":")[0].rstrip("?") for part in found[1].split(",")}


def declared(struct):
    return set(struct.__struct_fields__)


def test_every_client_frame_and_its_fields_are_the_docs():
    rows = {
        cells[0].strip("`"): cells[1] for cells in tables(["type", "fields"]) if len(cells) == 4
    }
    assert list(rows) == protocol.KINDS
    for message in protocol.MESSAGES:
        assert field_names(rows[message.__struct_config__.tag]) == declared(message), message


def test_every_server_frame_and_its_fields_are_the_docs():
    rows = {
        cells[0].strip("`"): cells[1] for cells in tables(["type", "fields"]) if len(cells) == 2
    }
    assert sorted(rows) == sorted(schema.TYPES)
    for kind, frame in schema.TYPES.items():
        assert field_names(rows[kind]) == declared(frame), kind
        for field in msgspec.inspect.type_info(frame).fields:
            listed = inner_names(rows[kind], field.name)
            if listed is not None and isinstance(field.type, msgspec.inspect.StructType):
                assert listed == declared(field.type.cls), (kind, field.name)


def _view(method_path):
    method, path = method_path.split(" ", 1)
    for placeholder, value in SAMPLE.items():
        path = path.replace(placeholder, value)
    return method, resolve(path).func


def test_every_request_body_and_its_fields_are_the_docs():
    documented = set()
    for cells in tables(["method, path", "body"]):
        method, view = _view(re.search(r"`([A-Z]+ [^`]+)`", cells[0])[1])
        if method != "POST":
            continue
        body = view.body
        documented.add(body)
        if cells[1] == "—":
            assert body is bodies.Empty, cells[0]
        else:
            assert inner_names(f"`x {cells[1].strip('`')}`", "x") == declared(body), cells[0]
    assert documented == set(bodies.BODIES)


def test_the_doc_parser_sees_nested_fields_and_skips_asides():
    cell = '`a`, `you {player, role: "p" \\| "s"}` (`null` else, `P1`) — then a `state`'
    assert field_names(cell) == {"a", "you"}
    assert inner_names(cell, "you") == {"player", "role"}


@pytest.mark.parametrize(
    ("body", "text", "code"),
    [
        (bodies.NewRace, b'{"deal": 5}', "bad_field"),
        (bodies.NewRace, b'{"name": ["Ada"]}', "bad_name"),
        (bodies.NewRace, b"[]", "bad_json"),
        (bodies.DailyGhost, b'{"of": "anyone"}', "bad_field"),
        (bodies.DailyGhost, b"{}", "bad_field"),
        (bodies.QuickGhost, b'{"ghost": 99999999999999999999999}', "bad_field"),
        (bodies.QuickGhost, b'{"ghost": true}', "bad_field"),
        (bodies.Challenge, b'{"name": ""}', "bad_field"),
        (bodies.Empty, b'"x"', "bad_json"),
        (bodies.Quick, b'{"rated": "yes", "pad": "' + b"x" * 4100 + b'"}', "too_large"),
    ],
)
def test_a_body_unlike_its_declaration_is_refused_with_a_registered_code(body, text, code):
    from game.base import inputs

    with pytest.raises(GameError) as refused:
        inputs.Reader(body, "a request body", body.refusals).read(text)
    assert refused.value.code == code and refused.value.message


FRAME_BUILDER = Path(frames.__file__).resolve()


def _frame_dicts(tree):
    """(line, type) of every dict literal whose "type" is a server frame's."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "type"
                    and isinstance(value, ast.Constant)
                    and value.value in schema.TYPES
                ):
                    yield node.lineno, value.value


def test_frames_py_is_the_only_module_that_builds_a_server_frame():
    built_elsewhere = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        if path.resolve() == FRAME_BUILDER or "testing" in path.parts:
            continue
        tree = ast.parse(path.read_text())
        built_elsewhere += [
            f"{path.relative_to(ROOT)}:{line} {kind}" for line, kind in _frame_dicts(tree)
        ]
    assert built_elsewhere == []
    assert {kind for _, kind in _frame_dicts(ast.parse(FRAME_BUILDER.read_text()))} == set(
        schema.TYPES
    )
