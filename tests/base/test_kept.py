"""
What a process keeps for a second (game/base/kept.py): built once while it is younger
than its age, again after; the oldest key dropped past the most kept; readers arriving
while it is built wait for that build instead of building it too.
"""

import threading

from game.base.kept import Kept


def counting(values):
    """A build that returns its call's number, counting calls in `values`."""

    def build():
        values.append(len(values) + 1)
        return values[-1]

    return build


def test_a_value_is_built_once_while_young_and_again_once_it_is_its_age(clock):
    kept, builds = Kept(1.0, most=4), []
    assert [kept.get("day", counting(builds)) for _ in range(3)] == [1, 1, 1]
    clock[0] += 0.99
    assert kept.get("day", counting(builds)) == 1
    clock[0] += 0.01
    assert kept.get("day", counting(builds)) == 2


def test_past_the_most_kept_the_oldest_built_goes(clock):
    kept = Kept(1.0, most=2)
    for key in ("a", "b", "c"):
        kept.get(key, lambda key=key: key.upper())
    assert list(kept.values) == ["b", "c"]
    kept.forget()
    assert kept.values == {}


def test_readers_arriving_during_a_build_wait_for_it_instead_of_building(clock):
    kept, builds, started, release = Kept(1.0, most=4), [], threading.Event(), threading.Event()

    def slow():
        started.set()
        release.wait(5)
        return counting(builds)()

    first = threading.Thread(target=kept.get, args=("day", slow))
    first.start()
    assert started.wait(5)
    seen = []
    second = threading.Thread(target=lambda: seen.append(kept.get("day", counting(builds))))
    second.start()
    release.set()
    first.join(5)
    second.join(5)
    assert builds == [1] and seen == [1]
