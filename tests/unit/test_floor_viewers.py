"""A page that reads slowly, or not at all, costs the floor feed one message per part of the
floor, never a backlog: it is sent the newest state of each part when it next reads."""

from __future__ import annotations

import asyncio

from ledger.web.feed import Message, Viewer


def test_a_viewer_that_does_not_read_holds_only_the_newest_state_of_each_part():
    async def scenario() -> list[Message | None]:
        viewer = Viewer(asyncio.get_running_loop())
        for n in range(10_000):
            viewer.offer(Message(f"table-BAC-{n % 8:02d}", f"state {n}"))
            viewer.offer(Message("alerts", f"alerts {n}"))
        assert len(viewer.pending) == 9  # eight tables and the alerts, not 20,000 messages
        return await viewer.next(timeout=1.0)

    taken = asyncio.run(scenario())
    newest = {m.event: m.data for m in taken if m is not None}
    assert newest["table-BAC-07"] == "state 9999" and newest["table-BAC-00"] == "state 9992"
    assert newest["alerts"] == "alerts 9999"
    assert [m.event for m in taken if m is not None][-1] == "alerts"  # the newest goes last


def test_a_viewer_is_told_when_the_server_stops():
    async def scenario() -> list[Message | None]:
        viewer = Viewer(asyncio.get_running_loop())
        viewer.offer(Message("alerts", "none"))
        viewer.offer(None)
        return await viewer.next(timeout=1.0)

    assert asyncio.run(scenario())[-1] is None


def test_a_quiet_viewer_gets_nothing_after_the_timeout():
    async def scenario() -> list[Message | None]:
        return await Viewer(asyncio.get_running_loop()).next(timeout=0.05)

    assert asyncio.run(scenario()) == []
