"""The kernel's queue of things due (the games' clocks and the users' digests keep one each)."""

from __future__ import annotations

from bot.service.due import DueQueue


def test_the_next_due_and_what_is_due_by_a_time() -> None:
    due: DueQueue[str] = DueQueue()
    due.set("a", 30)
    due.set("b", 10)
    due.set("c", None)  # not due at all
    due.set("a", 5)  # set again: its earlier time goes
    assert due.next() == (5, "a")
    assert due.take_due(20) == ["a", "b"]  # earliest first, taken out
    assert due.next() is None and due.take_due(100) == []


def test_a_dropped_key_and_a_limit() -> None:
    due: DueQueue[int] = DueQueue()
    for key in range(5):
        due.set(key, key)
    due.drop(1)
    assert due.take_due(10, limit=2) == [0, 2]
    assert due.take_due(10) == [3, 4]
    due.set(7, 1)
    due.clear()
    assert due.next() is None
