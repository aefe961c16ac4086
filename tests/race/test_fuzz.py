"""
The protocol under arbitrary input (Hypothesis): `protocol.parse` answers every
frame with a message or a `GameError`, nothing else, and a live consumer answers
every frame it cannot parse with an `error` frame carrying that code — and is
still there afterwards. `bench/fuzz.py` does the same at scale, on real daphne
processes.
"""

import json

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.base.errors import GameError
from game.engine import SLOTS
from game.race import moves, protocol
from tests.support.server import close_all, started_race

KINDS = protocol.KINDS
MESSAGES = protocol.MESSAGES

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
"""Any JSON value (NaN and infinities included: Python's json reads them)."""

near_frames = st.fixed_dictionaries(
    {"type": st.sampled_from(KINDS) | json_values},
    optional={
        "seq": st.integers(min_value=-5, max_value=2_000_000) | json_values,
        "slots": st.lists(st.sampled_from(SLOTS) | st.text(max_size=4), max_size=5) | json_values,
        "name": st.text(max_size=30) | json_values,
    },
).map(json.dumps)
"""Frames that look like the protocol's, with every field possibly wrong."""

frames = st.one_of(
    st.text(max_size=300),
    near_frames,
    json_values.map(json.dumps),
    st.binary(max_size=64),
)


def parsed(frame):
    """What `protocol.parse` makes of a frame: a message, or the GameError's code."""
    try:
        return protocol.parse(frame if isinstance(frame, str) else None)
    except GameError as exc:
        return exc.code


@given(frames)
@settings(max_examples=1000, deadline=None)
def test_parse_answers_any_frame_with_a_message_or_a_coded_error(frame):
    outcome = parsed(frame)
    assert isinstance(outcome, MESSAGES) or (isinstance(outcome, str) and outcome)


@given(near_frames)
@settings(max_examples=1000, deadline=None)
def test_a_parsed_move_is_always_well_formed(frame):
    outcome = parsed(frame)
    if isinstance(outcome, protocol.Move):
        assert 1 <= outcome.seq <= protocol.MAX_SEQ and 1 <= len(outcome.slots) <= 3


@pytest.mark.django_db(transaction=True)
@given(st.lists(frames, min_size=1, max_size=12))
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_a_live_consumer_answers_every_bad_frame_with_an_error_and_survives(frame_list):
    async def scenario():
        _, [(ada, _)] = await started_race("Ada")
        for frame in frame_list:
            field = "text" if isinstance(frame, str) else "bytes"  # empty ones too
            await ada.communicator.send_input({"type": "websocket.receive", field: frame})
            await ada.request("ping")
            outcome = parsed(frame)
            pongs = 2 if isinstance(outcome, protocol.Ping) else 1  # the frame was a ping too
            answers = []
            while pongs:
                answer = await ada.receive(timeout=5)
                assert answer["type"] != "closed", answer
                pongs -= answer["type"] == "pong"
                answers.append(answer)
            if isinstance(outcome, str):
                assert {"type": "error", "code": outcome} in [
                    {"type": a["type"], "code": a.get("code")} for a in answers
                ]
        await ada.request("sync")
        assert (await ada.expect("state", timeout=5))["you"]["name"]
        await close_all(ada)

    async def closing_its_pools():
        """Each example runs on a loop of its own, whose move pools would otherwise
        hold their connections to the end of the session (two an example)."""
        try:
            await scenario()
        finally:
            await moves.close_pool()

    async_to_sync(closing_its_pools)()
