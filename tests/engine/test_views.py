"""Hidden information, for every registered game: no hand, mission, secret order, deck order or future die of the
real state reaches its views (beyond the viewer's own), the narration of public events, or what the service posts
and exports of a live game (issue #15, part 5)."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import FormatError
from engine.core.models import Action, Event, GameState, Seat, from_json, to_json
from engine.core.play import play_out
from engine.core.record import apply_entry, start
from engine.core.rng import RngState
from engine.core.ruleset import Ruleset
from engine.core.views import HIDDEN, SEALED, is_view
from engine.games import NAMES, get
from engine.games.risk import RiskState
from engine.positions import load_position
from engine.service import GameService, Outcome
from engine.store import SqliteStore
from renderer import has_board, render_board
from tests.engine.conftest import DAY, Table
from tests.engine.test_service import ALICE, CHANNEL, three_humans

HUMAN = 111111111111111111


# ---------------------------------------------------------------- each game's secrets, declared once

def secrets(name: str) -> dict[str, Any]:
    """A game's secrets, declared in `tests/engine/<game>/hidden.py` as `SECRETS`: options that bring them into
    play, a change to a new game that brings in those the AI seats leave unused, the game's own secrets beyond
    hands, deck and dice (to change them), and the words that would give one away in text. A new game fails
    here until it declares its own."""
    try:
        return importlib.import_module(f"tests.engine.{name}.hidden").SECRETS  # type: ignore[no-any-return]
    except ModuleNotFoundError as err:
        raise AssertionError(f"{name}: declare its secrets in tests/engine/{name}/hidden.py") from err


# ---------------------------------------------------------------- checks on one state

def scrambled(name: str, s: GameState, viewer: int | None, rng: random.Random) -> GameState:
    """`s` with every secret `viewer` may not see changed: the dice, the deck order, the others' cards (dealt
    afresh from the others' hands and the deck), and the game's own (its `secrets`)."""
    changes: dict[str, Any] = {"rng": RngState(state=s.rng.state ^ 0x5DEECE66D, forced=list(s.rng.forced))}
    hands: dict[int, list[str]] = getattr(s, "hands", {})
    deck: list[str] = list(getattr(s, "deck", []))
    pool = deck + [c for p, cards in hands.items() if p != viewer for c in cards]
    rng.shuffle(pool)
    if hasattr(s, "hands"):
        dealt = {}
        for p, cards in hands.items():
            dealt[p] = list(cards) if p == viewer else [pool.pop() for _ in cards]
        changes["hands"] = dealt
    if hasattr(s, "deck"):
        changes["deck"] = pool[::-1]
    changes.update(secrets(name)["scramble"](s, viewer, rng))
    return replace(s, **changes)


def secret_cards(s: GameState, viewer: int | None) -> set[str]:
    """The cards `viewer` must not learn: the deck and the others' hands, but for the cards he holds himself (a
    game with several copies of a card, like Battlemist, shows him his own copy)."""
    hands: dict[int, list[str]] = getattr(s, "hands", {})
    others = {*getattr(s, "deck", []), *(c for p, cards in hands.items() if p != viewer for c in cards)}
    return others - set(hands.get(viewer, []) if viewer is not None else [])


def strings(data: Any) -> Iterator[str]:
    """Every string (keys too) in a JSON value."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings(value)


def check_view(ruleset: Ruleset, name: str, s: GameState, viewer: int | None, rng: random.Random) -> GameState:
    """The view of `s` for `viewer` is a view of the same type that depends on no secret of someone else."""
    v = ruleset.view(s, viewer)
    assert type(v) is type(s) and is_view(v) and not is_view(s) and v.seq == s.seq
    assert v.rng == SEALED, "the view foretells the dice"
    data = to_json(v)
    assert from_json(ruleset.state_model, data) == v, "a view does not survive its JSON (the outbox keeps it)"
    assert str(s.rng.state) not in json.dumps(data)
    assert {d.player for d in ruleset.pending(v)} == {d.player for d in ruleset.pending(s)}, "the view lost a decision"
    assert ruleset.winners(v) == ruleset.winners(s)
    other = scrambled(name, s, viewer, rng)
    assert to_json(other) != to_json(s)  # the dice at least always change
    assert to_json(ruleset.view(other, viewer)) == data, f"the view for {viewer} shows a secret"
    hands: dict[int, list[str]] = getattr(s, "hands", {})
    seen: dict[int, list[str]] = getattr(v, "hands", {})
    assert {p: len(cards) for p, cards in seen.items()} == {p: len(cards) for p, cards in hands.items()}
    for p, cards in hands.items():
        assert seen[p] == (cards if p == viewer else [HIDDEN] * len(cards)), f"{p}'s hand as {viewer} sees it"
    assert getattr(v, "deck", []) == [HIDDEN] * len(getattr(s, "deck", []))
    public_strings = set(strings({k: data[k] for k in data if k not in ("hands", "deck")}))
    assert not (secret_cards(s, viewer) - public_strings) & set(strings(data)), "a secret card is in the view"
    return v


def check_events(ruleset: Ruleset, name: str, s: GameState, events: list[Event], public: GameState) -> None:
    """The step's public events and their narration hold no card still secret and no secret's wording."""
    data = to_json(public)
    revealed = secrets(name).get("revealed", lambda e: set())  # a card the step plays face up
    secret = secret_cards(s, None) - set(strings(data)) - {c for e in events for c in revealed(e)}
    words = secrets(name)["words"](s)
    for event in events:
        if event.private_to is not None:
            assert ruleset.narrate(event, public) is None
            continue
        assert not secret & set(strings(to_json(event))), f"{event.type} tells a secret card"
        text = ruleset.narrate(event, public) or ""
        assert not any(w in text for w in words), f"{event.type} tells a secret: {text}"
    board = ruleset.text_board(public)
    assert not any(w in board for w in words)
    for decision in ruleset.pending(public):
        prompt = ruleset.prompt(decision, public)
        assert not any(w in prompt for w in words) and not secret & set(prompt.split())


def configs() -> Iterator[Any]:
    for name in NAMES:
        for k, options in enumerate(secrets(name)["options"]):
            yield pytest.param(name, options, id=f"{name}-{k}")


def play_and_check(ruleset: Ruleset, name: str, options: dict[str, Any], players: int, seed: int) -> GameState:
    """Play a random game, checking every view and the public events of every step of the setup and the first
    turns, then of every fourth and of the end; the final position."""
    seats = [Seat(id=HUMAN + i, name=f"P{i}") for i in range(players)]
    state, opening = ruleset.new_game(seats, ruleset.options_model.model_validate(options), seed)
    state = secrets(name)["prepare"](state)
    rng = random.Random(seed)
    check_events(ruleset, name, state, opening, check_view(ruleset, name, state, None, rng))

    def step(before: GameState, action: Action, after: GameState, events: list[Event]) -> None:
        if after.seq > 100 and after.seq % 4 and ruleset.winners(after) is None:
            return
        check_events(ruleset, name, after, events, check_view(ruleset, name, after, None, rng))
        for seat in seats:
            check_view(ruleset, name, after, seat.id, rng)

    final, actions = play_out(ruleset, state, {seat.id: ruleset.policy("random") for seat in seats}, seed,
                              max_actions=3000, on_step=step)
    assert len(actions) > 50  # a random 2-player Battlemist game of 3 rounds may take as few as 56
    return final


@pytest.mark.rule("RISK-DIG-2", "RISK-DIG-6", "RISK-DIG-8", "RISK-DIG-38", "WQ-DIG-1", "WQ-TRS-9")
@pytest.mark.parametrize(("name", "options"), list(configs()))
def test_random_games_show_no_secret_in_any_view(name: str, options: dict[str, Any]) -> None:
    ruleset = get(name)
    low, high = ruleset.player_range(ruleset.options_model.model_validate(options))
    finals = [play_and_check(ruleset, name, options, low + seed % (high - low + 1), seed) for seed in range(3)]
    assert any(ruleset.winners(final) is not None for final in finals), "the end of a game goes unchecked"


@pytest.mark.rule("RISK-DIG-38")
@pytest.mark.parametrize(("name", "options"), list(configs()))
def test_the_board_is_the_same_drawn_from_the_public_view(name: str, options: dict[str, Any]) -> None:
    """The picture and the text board read nothing a view hides, so drawing the view changes nothing."""
    ruleset = get(name)
    low, _ = ruleset.player_range(ruleset.options_model.model_validate(options))
    seats = [Seat(id=HUMAN + i, name=f"P{i}") for i in range(low)]
    state, _ = ruleset.new_game(seats, ruleset.options_model.model_validate(options), 5)
    state, _ = play_out(ruleset, state, {s.id: ruleset.policy("random") for s in seats}, 5, max_actions=150)
    public = ruleset.view(state, None)
    assert ruleset.text_board(public) == ruleset.text_board(state)
    if has_board(name):
        assert render_board(public) == render_board(state)


@pytest.mark.parametrize("name", NAMES)
def test_a_view_is_never_taken_for_a_position(name: str) -> None:
    ruleset = get(name)
    low, _ = ruleset.player_range(ruleset.options_model())
    state, _ = ruleset.new_game([Seat(id=HUMAN + i, name=f"P{i}") for i in range(low)], ruleset.options_model(), 1)
    assert load_position(to_json(state))[1] == state
    with pytest.raises(FormatError) as info:
        load_position(to_json(ruleset.view(state, None)))
    assert info.value.field == "rng"


# ---------------------------------------------------------------- what the service posts and exports

DRAWN: list[GameState] = []
"""What the service handed the renderer."""


def renderer(key: tuple[int, int], state: GameState, events: Sequence[Event], away: frozenset[int],
             language: str) -> bytes:
    DRAWN.append(state)
    return b"png"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    service = GameService(store, seed_source=lambda: 7, renderer=renderer)
    DRAWN.clear()
    yield service
    await service.settle()
    await store.close()


async def positions(service: GameService, ruleset: Ruleset) -> dict[int, GameState]:
    """Every position of the channel's game, by seq, replayed from its whole record."""
    record = await service.record(CHANNEL)
    state, _ = start(ruleset, record)
    found = {state.seq: state}
    for data in record.actions:
        state, _ = apply_entry(ruleset, state, data)
        found[state.seq] = state
    return found


async def check_live_outputs(service: GameService, ruleset: Ruleset, name: str, real: GameState) -> None:
    """The export, /history and the public view of the live game hide every secret of `real`."""
    exported = (await service.export(CHANNEL)).model_dump(mode="json")
    assert exported["position"] == to_json(ruleset.view(real, None))
    assert all(e.get("private_to") is None for entry in exported["history"] for e in entry["events"])
    page = await service.history(CHANNEL, 1, 15)
    assert page.state == ruleset.view(real, None)
    assert all(e.private_to is None for entry in page.entries for e in entry.events)
    _, public = await service.view(CHANNEL, None)
    _, mine = await service.view(CHANNEL, HUMAN)
    assert public == ruleset.view(real, None) and mine == ruleset.view(real, HUMAN)
    assert await service.board(CHANNEL) == b"png" and DRAWN[-1] == public, "the board shows a secret"
    words = secrets(name)["words"](real)
    text = json.dumps(exported, ensure_ascii=False)
    assert not any(w in text for w in words)


@pytest.mark.parametrize(("name", "options"), list(configs()))
async def test_what_the_service_posts_and_exports_shows_no_secret(service: GameService, name: str,
                                                                  options: dict[str, Any]) -> None:
    ruleset = get(name)
    await service.new_game(CHANNEL, 1, Seat(id=HUMAN, name="Human"), name, options)
    low, _ = ruleset.player_range(ruleset.options_model.model_validate(options))
    for _ in range(max(low, 3) - 1):
        await service.add_ai(CHANNEL, HUMAN)
    await service.start(CHANNEL, HUMAN)
    policy, rng = ruleset.policy("random"), random.Random(3)
    for _ in range(120):
        await service.idle(CHANNEL)
        _, real = await service.current(CHANNEL)
        assert real is not None
        if ruleset.winners(real) is not None:
            break
        await check_live_outputs(service, ruleset, name, real)
        if HUMAN in {d.player for d in ruleset.pending(real)}:
            action = policy.choose(real, HUMAN, rng)
            await service.act(CHANNEL, HUMAN, to_json(action, exclude={"player"}))
    await service.idle(CHANNEL)
    found = await positions(service, ruleset)
    async with service.store.transaction() as db:  # type: ignore[attr-defined]
        payloads = [json.loads(row[0]) for row in await db.execute_fetchall("SELECT payload FROM outbox")]
    shown = [p for p in payloads if p["state"] is not None]
    assert len(shown) > 5
    for payload in shown:
        real = found[payload["state"]["seq"]]
        assert payload["state"] == to_json(ruleset.view(real, None)), "a post keeps a secret"
    drawn = len(DRAWN)
    await service.picture(name, 1, shown[-1]["state"], shown[-1]["events"], [])
    assert DRAWN[drawn:] == [ruleset.view(found[shown[-1]["state"]["seq"]], None)]
    for payload in payloads:
        assert all(e.get("private_to") is None for e in payload["events"])
        if payload["state"] is not None:
            real = found[payload["state"]["seq"]]
            text = "\n".join(payload["messages"])
            assert not any(w in text for w in secrets(name)["words"](real))
            assert not any(p in text for p in revealing_prompts(ruleset, real)), "a post's ping tells a secret"


def revealing_prompts(ruleset: Ruleset, real: GameState) -> set[str]:
    """What the real state would ask of a seat and the public view would not: it depends on a secret."""
    public = ruleset.view(real, None)
    asked = {ruleset.prompt(d, public) for d in ruleset.pending(public)}
    return {what for d in ruleset.pending(real) if (what := ruleset.prompt(d, real)) not in asked}


async def test_a_view_is_never_saved(service: GameService) -> None:
    await service.new_game(CHANNEL, 1, Seat(id=HUMAN, name="Human"), "risk", {})
    await service.add_ai(CHANNEL, HUMAN)
    await service.add_ai(CHANNEL, HUMAN)
    outcome = await service.start(CHANNEL, HUMAN)
    await service.idle(CHANNEL)
    _, public = await service.view(CHANNEL, None)
    assert public is not None
    action = get("risk").parse_action({"type": "resign", "player": HUMAN})
    stale = Outcome(game=outcome.game, ruleset=outcome.ruleset, state=public)
    with pytest.raises(ValueError, match="view"):
        await service._save(stale, action, public, [], None, ai=False)



async def test_a_reminder_tells_no_secret(table: Table) -> None:
    """A reminder is posted in the channel: it asks for a plan without telling how far the seat got with it."""
    await three_humans(table.service, setup_placement="simultaneous")
    ruleset = get("risk")
    _, real = await table.service.current(CHANNEL)
    assert isinstance(real, RiskState)
    mine = real.territories_of(ALICE)[0]
    await table.service.act(CHANNEL, ALICE, {"type": "place", "territory": mine, "count": 2})
    _, real = await table.service.current(CHANNEL)
    assert real is not None
    secret = revealing_prompts(ruleset, real)
    assert secret, "the real state asks Alice for fewer armies than the public knows of"
    alarms = await table.tick(0.5 * DAY)
    reminders = [post for alarm in alarms if alarm.kind == "reminder" for post in alarm.outcome.posts]
    assert len(reminders) == 3
    assert not any(what in text for post in reminders for text in post.messages for what in secret)
