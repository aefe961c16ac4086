"""A socket's inbox hands its frames to the worker in order, waking it when one comes."""

import asyncio

import pytest

from game.realtime.inbox import Inbox


async def test_items_come_out_in_the_order_they_went_in():
    inbox = Inbox()
    for n in range(5):
        inbox.put_nowait(n)
    assert inbox.qsize() == 5
    assert [await inbox.get() for _ in range(5)] == [0, 1, 2, 3, 4]
    assert inbox.empty()


async def test_a_waiting_reader_wakes_with_the_first_item_put():
    inbox = Inbox()
    reader = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not reader.done()
    inbox.put_nowait("move")
    inbox.put_nowait("sync")
    assert await asyncio.wait_for(reader, 1) == "move"
    assert await inbox.get() == "sync"


async def test_a_cancelled_reader_leaves_the_items_to_the_next():
    inbox = Inbox()
    reader = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    reader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reader
    inbox.put_nowait("move")
    assert await asyncio.wait_for(inbox.get(), 1) == "move"


async def test_get_nowait_takes_the_oldest_and_fails_on_an_empty_inbox():
    inbox = Inbox()
    inbox.put_nowait(1)
    inbox.put_nowait(None)
    assert inbox.get_nowait() == 1
    assert inbox.get_nowait() is None
    with pytest.raises(IndexError):
        inbox.get_nowait()
