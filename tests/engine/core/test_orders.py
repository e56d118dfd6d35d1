"""Simultaneous secret orders: submit, revise, lock, reveal together, and views that keep them secret."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import RuleError
from engine.core.models import from_json, json_text
from engine.core.orders import (
    Orders,
    complete,
    draft,
    lock,
    missing,
    redact,
    reveal,
    submit,
    withdraw,
)

SEATS = [30, 10, 20]
"""Seat order, which is not the order of the ids."""
Book = Orders[list[str]]


def fresh() -> Book:
    """An open book for SEATS."""
    return Orders(seats=SEATS)


def code(call: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(RuleError) as err:
        call(*args, **kwargs)  # type: ignore[operator]
    return err.value.code


def test_orders_are_revised_until_locked_then_revealed_together() -> None:
    book = fresh()
    assert draft(book, 10) is None
    book = submit(book, 10, ["march north"])
    book = submit(book, 10, [*(draft(book, 10) or []), "recruit 2"])  # a revision builds on the draft
    assert draft(book, 10) == ["march north", "recruit 2"]
    book = lock(book, 10)
    assert code(submit, book, 10, ["again"]) == "E_ORDERS_LOCKED"
    assert code(draft, book, 10) == "E_ORDERS_LOCKED"
    assert code(lock, book, 10) == "E_ORDERS_LOCKED"
    book = lock(submit(book, 20, ["hold"]), 20)
    assert missing(book) == [30] and not complete(book)
    with pytest.raises(ValueError):
        reveal(book)
    book = lock(book, 30)  # locking without orders: the seat orders nothing
    assert complete(book) and book.locked == SEATS
    assert reveal(book) == [(30, None), (10, ["march north", "recruit 2"]), (20, ["hold"])]


def test_only_the_steps_seats_order_and_the_games_codes_are_used() -> None:
    book = fresh()
    assert code(submit, book, 99, ["x"]) == "E_NO_ORDERS"
    assert code(lock, book, 99, outside_error="E_MINE") == "E_MINE"
    book = lock(book, 30)
    assert code(draft, book, 30, locked_error="E_PLAN_DONE") == "E_PLAN_DONE"


def test_a_seat_that_leaves_is_withdrawn() -> None:
    book = lock(submit(fresh(), 10, ["a"]), 10)
    book = submit(book, 20, ["b"])
    book = withdraw(book, 10)
    assert book.seats == [30, 20] and 10 not in book.drafts and book.locked == []
    book = withdraw(lock(lock(book, 20), 30), 30)
    assert complete(book) and reveal(book) == [(20, ["b"])]


def test_the_view_shows_ones_own_orders_and_who_has_locked() -> None:
    book = lock(submit(submit(fresh(), 10, ["a"]), 20, ["b"]), 20)
    assert redact(book, 10) == {"locked": [20], "missing": [30, 10], "orders": ["a"]}
    assert redact(book, 20) == {"locked": [20], "missing": [30, 10], "orders": ["b"]}
    assert redact(book, 30) == {"locked": [20], "missing": [30, 10]}
    assert redact(book, None) == {"locked": [20], "missing": [30, 10]}


def test_a_book_round_trips_through_json() -> None:
    book = lock(submit(fresh(), 10, ["a"]), 10)
    assert from_json(Book, json.loads(json_text(book))) == book


steps = st.lists(st.tuples(st.sampled_from(["submit", "revise", "lock", "withdraw"]),
                           st.sampled_from([*SEATS, 99])), max_size=40)


@settings(max_examples=200, deadline=None)
@given(steps=steps)
def test_random_orders_never_reveal_early_or_leak(steps: list[tuple[str, int]]) -> None:
    """Random submit/revise/lock/withdraw sequences: a refusal changes nothing, nothing is revealed before every
    seat has locked, what is revealed is each seat's last orders, and no view shows another seat's orders."""
    book = fresh()
    last: dict[int, list[str]] = {}
    seated = list(SEATS)
    for k, (step, seat) in enumerate(steps):
        token = f"order-{seat}-{k}"  # unique: a leak shows up in any view's JSON
        before = book
        try:
            if step == "submit":
                book = submit(book, seat, [token])
            elif step == "revise":
                book = submit(book, seat, [*(draft(book, seat) or []), token])
            elif step == "lock":
                book = lock(book, seat)
            else:
                book = withdraw(book, seat)
                seated = [p for p in seated if p != seat]
                last.pop(seat, None)
        except RuleError as err:
            assert book == before
            assert err.code == ("E_NO_ORDERS" if seat not in seated else "E_ORDERS_LOCKED")
            assert seat not in seated or seat in book.locked
            continue
        if step in ("submit", "revise"):
            last[seat] = book.drafts[seat]
        assert book.seats == seated
        assert missing(book) == [p for p in seated if p not in book.locked]
        for viewer in [*SEATS, None]:
            seen = json.dumps(redact(book, viewer))
            for other, orders in book.drafts.items():
                if other != viewer:
                    assert not any(order in seen for order in orders), f"{viewer} sees {other}'s orders"
        if complete(book):
            assert reveal(book) == [(p, last.get(p)) for p in seated]
        else:
            with pytest.raises(ValueError):
                reveal(book)
