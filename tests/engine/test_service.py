"""The game service: lobby, exactly-once actions, per-channel locking, AI seats, restarts."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.models import Seat, to_json
from engine.core.record import replay
from engine.games import get
from engine.games.risk import RiskState
from engine.service import GameService, Outcome
from engine.store import SqliteStore, open_store
from engine.table import Lobby

ALICE, BOB, CAROL, DAVE = (111111111111111111 + i for i in range(4))
CHANNEL, OTHER, THIRD = 5000, 5001, 5002


def seat(uid: int, name: str | None = None) -> Seat:
    return Seat(id=uid, name=name or f"user{uid % 100}")


async def code_of(coro: object) -> str:
    with pytest.raises(RuleError) as info:
        await coro  # type: ignore[misc]
    return info.value.code


async def three_humans(service: GameService, channel: int = CHANNEL, **options: object) -> RiskState:
    await service.new_game(channel, 1, seat(ALICE), "risk", {"setup": "random_deal",
                                                            "setup_placement": "bulk_sequential", **options})
    await service.join(channel, seat(BOB))
    await service.join(channel, seat(CAROL))
    outcome = await service.start(channel, ALICE)
    assert isinstance(outcome.state, RiskState)
    return outcome.state


async def play_setup(service: GameService, channel: int = CHANNEL) -> RiskState:
    """Each human deploys all setup armies on their first territory."""
    _, state = await service.current(channel)
    assert isinstance(state, RiskState)
    while state.phase.value == "setup_place":
        pid = state.current
        plan = {state.territories_of(pid)[0]: state.setup_left[pid]}
        outcome = await service.act(channel, pid, {"type": "deploy", "placements": plan})
        state = outcome.state  # type: ignore[assignment]
    return state


@pytest.mark.rule("RISK-ERR-4", "RISK-ERR-21")
async def test_no_game_in_the_channel(service: GameService) -> None:
    assert await code_of(service.act(CHANNEL, ALICE, {"type": "end_turn"})) == "E_NO_GAME"
    with pytest.raises(RuleError) as info:
        await service.current(CHANNEL)
    assert "no game in this channel" in info.value.message


@pytest.mark.rule("RISK-ERR-62", "RISK-ERR-63", "RISK-ERR-64", "RISK-ERR-65")
async def test_lobby_errors(service: GameService) -> None:
    await service.new_game(CHANNEL, 1, seat(ALICE, "Alice"), "risk", {"mode": "two_player"})
    assert await code_of(service.join(CHANNEL, seat(ALICE))) == "E_ALREADY_JOINED"
    await service.join(CHANNEL, seat(BOB))
    err = await code_of(service.join(CHANNEL, seat(CAROL)))
    assert err == "E_GAME_FULL"
    with pytest.raises(RuleError) as info:
        await service.join(CHANNEL, seat(CAROL))
    assert info.value.message == "This game is full: two_player takes at most 2 players."
    with pytest.raises(RuleError) as info:
        await service.start(CHANNEL, BOB)
    assert (info.value.code, info.value.message) == ("E_NOT_HOST", f"Only the host (<@{ALICE}>) can do that.")
    await service.start(CHANNEL, ALICE)
    assert await code_of(service.join(CHANNEL, seat(CAROL))) == "E_ALREADY_STARTED"


async def test_a_channel_holds_one_game_and_options_are_validated(service: GameService) -> None:
    assert await code_of(service.new_game(CHANNEL, 1, seat(ALICE), "chess", {})) == "E_UNKNOWN_GAME"
    assert await code_of(service.new_game(CHANNEL, 1, seat(ALICE), "risk", {"mode": "blitz"})) == "E_BAD_OPTION"
    await service.new_game(CHANNEL, 1, seat(ALICE), "risk", {})
    assert await code_of(service.new_game(CHANNEL, 1, seat(BOB), "risk", {})) == "E_CHANNEL_BUSY"
    assert await code_of(service.start(CHANNEL, ALICE)) == "E_PLAYER_COUNT"


async def test_start_seats_players_and_ai_seats_answer_their_decisions(service: GameService) -> None:
    await service.new_game(CHANNEL, 1, seat(ALICE), "risk", {"setup": "random_deal"})
    await service.add_ai(CHANNEL, ALICE)
    await service.add_ai(CHANNEL, ALICE)
    assert await code_of(service.add_ai(CHANNEL, BOB)) == "E_NOT_HOST"
    outcome = await service.start(CHANNEL, ALICE)
    state = outcome.state
    assert isinstance(state, RiskState)
    assert {p.id for p in state.players} == {ALICE, 1, 2}
    assert all(d.player == ALICE for d in outcome.pending), "AI seats played until the human must decide"
    assert any(step.ai for step in outcome.steps) or state.current == ALICE


@pytest.mark.rule("RISK-DIG-53")
async def test_every_action_is_saved_and_survives_a_restart(location: str) -> None:
    store = await open_store(location)
    service = GameService(store, seed_source=lambda: 42)
    await three_humans(service)
    state = await play_setup(service)
    game, _ = await service.current(CHANNEL)
    assert await store.count_actions(game.id) == state.seq
    await store.close()
    reopened = GameService(await open_store(location), seed_source=lambda: 1)
    game2, again = await reopened.current(CHANNEL)
    assert again == state and game2.version == game.version
    outcome = await reopened.act(CHANNEL, state.current, {"type": "place", "territory": state.territories_of(
        state.current)[0], "count": state.pool})
    assert outcome.state.seq == state.seq + 1
    await reopened.store.close()


async def test_a_rule_error_changes_nothing(service: GameService) -> None:
    await three_humans(service)
    state = await play_setup(service)
    game, _ = await service.current(CHANNEL)
    other = next(p.id for p in state.players if p.id != state.current)
    assert await code_of(service.act(CHANNEL, other, {"type": "end_turn"})) == "E_NOT_YOUR_TURN"
    assert await code_of(service.act(CHANNEL, state.current, {"type": "attack"})) == "E_BAD_ACTION"
    after, same = await service.current(CHANNEL)
    assert same == state and after.version == game.version
    assert await service.store.count_actions(game.id) == state.seq


async def test_concurrent_fifty_deliveries_of_one_interaction_apply_once(service: GameService) -> None:
    await three_humans(service)
    state = await play_setup(service)
    t = state.territories_of(state.current)[0]
    data = {"type": "place", "territory": t, "count": 1}
    outcomes = await asyncio.gather(*(service.act(CHANNEL, state.current, data, "itx-1") for _ in range(50)),
                                    return_exceptions=True)
    assert sum(not isinstance(o, RuleError) for o in outcomes) == 1
    assert {o.code for o in outcomes if isinstance(o, RuleError)} == {"E_DUPLICATE"}
    _, after = await service.current(CHANNEL)
    assert after.armies[t] == state.armies[t] + 1 and after.seq == state.seq + 1


@pytest.mark.rule("RISK-DIG-51")
async def test_concurrent_commands_in_one_channel_apply_one_at_a_time(service: GameService) -> None:
    await three_humans(service)
    state = await play_setup(service)
    player = state.current
    await service.act(CHANNEL, player, {"type": "place", "territory": state.territories_of(player)[0],
                                        "count": state.pool})
    results = await asyncio.gather(*(service.act(CHANNEL, player, {"type": "end_turn"}, f"end-{k}")
                                     for k in range(10)), return_exceptions=True)
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, RuleError)]
    assert len(applied) == 1 and len(refused) == 9
    assert {r.code for r in refused} == {"E_NOT_YOUR_TURN"}


async def test_concurrent_channels_do_not_block_each_other(service: GameService) -> None:
    await three_humans(service, CHANNEL)
    await three_humans(service, OTHER)
    other_state = await play_setup(service, OTHER)
    async with service.lock(CHANNEL):  # a long command holds the first channel
        outcome = await asyncio.wait_for(service.act(OTHER, other_state.current, {"type": "place", "territory":
                                         other_state.territories_of(other_state.current)[0], "count": 1}), 2)
    assert outcome.state.seq == other_state.seq + 1


async def test_a_corrupt_game_affects_only_its_channel(sqlite_service: GameService) -> None:
    await three_humans(sqlite_service, CHANNEL)
    await three_humans(sqlite_service, OTHER)
    game = await sqlite_service.store.live_game(CHANNEL)
    async with sqlite_service.store.transaction() as db:
        await db.execute("UPDATE games SET state = '{\"game\": \"risk\", \"oops\": 1}', version = version + 1 "
                         "WHERE id = ?", (game.id,))
    assert await code_of(sqlite_service.act(CHANNEL, ALICE, {"type": "end_turn"})) == "E_GAME_CORRUPT"
    _, state = await sqlite_service.current(OTHER)
    assert state is not None and state.seq == 0


async def test_an_unreadable_lobby_row_stops_only_its_own_game(sqlite_service: GameService) -> None:
    """Invalid JSON in one game's lobby column: the bot still resumes, /stats still counts, that channel is told."""
    await three_humans(sqlite_service, CHANNEL)
    await three_humans(sqlite_service, OTHER)
    for user in (BOB, CAROL):
        await sqlite_service.act(OTHER, user, {"type": "resign"})  # a finished game, for /stats
    game = await sqlite_service.store.live_game(CHANNEL)
    async with sqlite_service.store.transaction() as db:
        await db.execute("UPDATE games SET lobby = '{not json', version = version + 1 WHERE id = ?", (game.id,))
    sqlite_service._cache.clear()
    assert await sqlite_service.resume_all() == []
    stats = await sqlite_service.stats(1)
    assert [place for place, _ in stats["risk"][ALICE]] == [1]
    assert await code_of(sqlite_service.act(CHANNEL, ALICE, {"type": "end_turn"})) == "E_GAME_CORRUPT"
    assert await code_of(sqlite_service.vote(CHANNEL, ALICE, "draw")) == "E_GAME_CORRUPT"
    await sqlite_service.new_game(THIRD, 1, seat(DAVE), "risk", {})  # the rest of the server plays on


async def test_a_finished_game_says_so(service: GameService) -> None:
    await service.new_game(CHANNEL, 1, seat(ALICE, "Alice"), "risk", {"setup": "random_deal"})
    await service.join(CHANNEL, seat(BOB, "Bob"))
    await service.join(CHANNEL, seat(CAROL, "Carol"))
    await service.start(CHANNEL, ALICE)
    await service.act(CHANNEL, BOB, {"type": "resign"})
    outcome = await service.act(CHANNEL, CAROL, {"type": "resign"})
    assert outcome.winners == [ALICE] and outcome.game.status == "finished"
    with pytest.raises(RuleError) as info:
        await service.act(CHANNEL, ALICE, {"type": "end_turn"})
    assert (info.value.code, info.value.message) == (
        "E_GAME_OVER", "This game is over — Alice won. Start a new one with `/new`.")


async def test_leaving_the_lobby_passes_the_host_seat(service: GameService) -> None:
    await service.new_game(CHANNEL, 1, seat(ALICE), "risk", {})
    await service.join(CHANNEL, seat(BOB))
    game = await service.leave(CHANNEL, ALICE)
    assert game is not None and game.host_id == BOB
    assert await service.leave(CHANNEL, BOB) is None
    assert await service.store.live_game(CHANNEL) is None


async def test_abandon_needs_the_host_or_a_moderator(service: GameService) -> None:
    await service.new_game(CHANNEL, 1, seat(ALICE), "risk", {})
    assert await code_of(service.abandon(CHANNEL, BOB, moderator=False)) == "E_NOT_HOST"
    await service.abandon(CHANNEL, BOB, moderator=True)
    assert await service.store.live_game(CHANNEL) is None


async def test_ai_seats_cut_off_by_a_crash_move_after_a_restart(location: str) -> None:
    store = await open_store(location)
    service = GameService(store, seed_source=lambda: 42)
    await service.new_game(CHANNEL, 1, seat(ALICE), "risk", {"setup": "random_deal"})
    await service.add_ai(CHANNEL, ALICE)
    await service.add_ai(CHANNEL, ALICE)
    await service.start(CHANNEL, ALICE)
    await service.idle(CHANNEL)
    _, state = await service.current(CHANNEL)
    assert isinstance(state, RiskState) and {d.player for d in get("risk").pending(state)} == {ALICE}
    service._kick = lambda channel_id: None  # type: ignore[method-assign]  # the process dies before the AIs move
    cut = await service.act(CHANNEL, ALICE, {"type": "place", "territory": state.territories_of(ALICE)[0]})
    assert {d.player for d in cut.pending} <= {1, 2}, "an AI seat is due after Alice's setup placement"
    await store.close()

    restarted = GameService(await open_store(location))
    await restarted.resume_all()
    await restarted.settle()
    _, after = await restarted.current(CHANNEL)
    game = await restarted.store.live_game(CHANNEL)
    assert isinstance(after, RiskState) and {d.player for d in get("risk").pending(after)} == {ALICE}
    assert game is not None and after.seq > cut.state.seq and game.announced == after.seq, \
        "the AI seats moved, and it was told"
    assert await restarted.resume_all() == [], "nothing is left to resume"
    await restarted.store.close()


async def test_a_game_the_last_action_of_an_ai_batch_ends_is_told(service: GameService,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With one action per hold of the lock, the winning move is always a batch's last: it must still be told."""
    monkeypatch.setattr("engine.service.play.AI_BATCH", 1)
    await service.new_game(CHANNEL, 1, Seat(id=1, name="Ada", ai=True), "risk", {"setup": "random_deal",
                                                                             "mode": "two_player"})
    await service.join(CHANNEL, Seat(id=2, name="AI 2", ai=True))
    await service.start(CHANNEL, 1)
    await service.idle(CHANNEL)
    game = await service.store.latest_game(CHANNEL)
    assert game is not None and game.status == "finished"
    assert game.announced == len(await service.store.actions(game.id)) > 1


async def test_the_end_of_a_game_a_crash_left_untold_is_told_after_a_restart(location: str) -> None:
    """The winning move is saved, and the game with it finished; a crash before its post must not hide the end."""
    store = await open_store(location)
    service = GameService(store, seed_source=lambda: 42)
    tell = service._announce

    async def dying_at_the_end(outcome: Outcome, lobby: Lobby, **told: Any) -> None:
        if outcome.state is None or outcome.ruleset.winners(outcome.state) is None:
            await tell(outcome, lobby, **told)  # the process dies before the winning move is told

    service._announce = dying_at_the_end  # type: ignore[method-assign]
    await service.new_game(CHANNEL, 1, Seat(id=1, name="Ada", ai=True), "risk", {"setup": "random_deal"})
    for k in (2, 3):
        await service.join(CHANNEL, Seat(id=k, name=f"AI {k}", ai=True))
    await service.start(CHANNEL, 1)
    await service.idle(CHANNEL)  # the AI seats play the game out
    game = await store.latest_game(CHANNEL)
    assert game is not None and game.status == "finished"
    last = len(await store.actions(game.id))
    assert game.announced < last
    await store.close()

    restarted = GameService(await open_store(location))
    told = await restarted.resume_all()
    game = await restarted.store.latest_game(CHANNEL)
    assert game is not None and game.announced == last
    assert len(told) == 1 and "wins" in "\n".join(told[0].posts[-1].messages)
    assert await restarted.resume_all() == [], "nothing is left to tell"
    await restarted.store.close()


async def test_concurrent_slow_render_in_one_channel_does_not_delay_another(tmp_path: Path) -> None:
    """Rendering runs in a worker thread: while one channel's picture hangs, another channel plays and renders."""
    release = threading.Event()
    slow_game: list[int] = []

    def renderer(key: tuple[int, int], state: object, events: object, away: object, language: str) -> bytes:
        if key[0] in slow_game:
            release.wait(10)  # the slow channel's picture takes as long as the test wants
        return b"png"

    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    service = GameService(store, seed_source=lambda: 42, renderer=renderer)
    try:
        await three_humans(service, CHANNEL)
        await three_humans(service, OTHER)
        slow, _ = await service.current(CHANNEL)
        slow_game.append(slow.id)
        hanging = asyncio.create_task(service.board(CHANNEL))
        await asyncio.sleep(0.05)
        other_state = await play_setup(service, OTHER)
        _, state = await service.current(OTHER)
        assert await asyncio.wait_for(service.board(OTHER), 5) == b"png"
        assert state.seq == other_state.seq and not hanging.done()
        release.set()
        assert await asyncio.wait_for(hanging, 5) == b"png"
    finally:
        release.set()
        await store.close()


@pytest.mark.rule("RISK-GEN-3")
@pytest.mark.parametrize("schema", [1, 2])
async def test_a_game_keeps_the_dice_of_its_schema_and_its_record_replays(service: GameService, schema: int) -> None:
    """A game the bot saved before position schema 2 rolls on with one draw per die; `/game export` names the schema."""
    await service.new_game(CHANNEL, 1, seat(ALICE), "risk", {"setup": "random_deal",
                                                            "setup_placement": "bulk_sequential"})
    await service.add_ai(CHANNEL, ALICE)
    await service.add_ai(CHANNEL, ALICE)
    await service.start(CHANNEL, ALICE)
    await service.idle(CHANNEL)
    game = await service.store.live_game(CHANNEL)
    assert game is not None and game.state is not None
    if schema == 1:  # what the bot before schema 2 saved: the same position, the older number
        await service.store.update_game(game, state=json.dumps(json.loads(game.state) | {"schema_version": 1}))
    policy, rng, battles = get("risk").policy("random"), random.Random(3), 0
    _, state = await service.current(CHANNEL)
    while battles < 20 and state is not None and get("risk").winners(state) is None:
        outcome = await service.act(CHANNEL, ALICE, to_json(policy.choose(state, ALICE, rng)))
        battles += sum(e.type == "battle" for step in outcome.steps for e in step.events)
        await service.idle(CHANNEL)
        _, state = await service.current(CHANNEL)
    assert battles >= 20 and state is not None and state.schema_version == schema
    record = await service.record(CHANNEL)
    assert record.schema_version == schema
    assert replay(get("risk"), record)[0] == state


async def test_every_table_command_is_applied_once_per_interaction(service: GameService) -> None:
    """Each lobby and table command, delivered twice with one interaction id, changes the game once."""
    calls = [
        ("new", lambda i: service.new_game(CHANNEL, 1, seat(ALICE), "risk", {"setup": "random_deal",
                                                                             "setup_placement": "bulk_sequential"},
                                           interaction_id=i)),
        ("join", lambda i: service.join(CHANNEL, seat(BOB), interaction_id=i)),
        ("add-ai", lambda i: service.add_ai(CHANNEL, ALICE, interaction_id=i)),
        ("start", lambda i: service.start(CHANNEL, ALICE, interaction_id=i)),
        ("vacation", lambda i: service.vacation(CHANNEL, BOB, 2, interaction_id=i)),
        ("back", lambda i: service.back(CHANNEL, BOB, interaction_id=i)),
        ("pause", lambda i: service.pause(CHANNEL, ALICE, False, interaction_id=i)),
        ("resume", lambda i: service.resume(CHANNEL, ALICE, False, interaction_id=i)),
        ("deadline", lambda i: service.set_deadline(CHANNEL, ALICE, False, 5.0, interaction_id=i)),
        ("vote", lambda i: service.vote(CHANNEL, BOB, "draw", interaction_id=i)),
        ("replace", lambda i: service.replace(CHANNEL, ALICE, False, BOB, seat(CAROL), interaction_id=i)),
        ("kick", lambda i: service.kick(CHANNEL, ALICE, False, CAROL, interaction_id=i)),
        ("abandon", lambda i: service.abandon(CHANNEL, ALICE, False, interaction_id=i)),
    ]
    for name, call in calls:
        await call(f"interaction-{name}")
        game = await service.store.latest_game(CHANNEL)
        assert await code_of(call(f"interaction-{name}")) == "E_DUPLICATE", name
        assert await service.store.latest_game(CHANNEL) == game, f"{name} changed the game twice"


async def test_two_processes_on_one_database_never_act_on_a_stale_state(postgres_url: str) -> None:
    """Each process keeps parsed states, but uses one only while its version is the row's: after the other process
    moved the game on, the next command reads the new position, and commands raced from both apply one by one."""
    first, second = await open_store(postgres_url), await open_store(postgres_url)
    a, b = GameService(first, seed_source=lambda: 42), GameService(second, seed_source=lambda: 42)
    try:
        state = await three_humans(a)
        _, seen = await b.current(CHANNEL)  # b parses and keeps the position
        assert seen == state
        placed = await a.act(CHANNEL, state.current, {"type": "place", "territory": state.territories_of(
            state.current)[0], "count": 1})
        _, now = await b.current(CHANNEL)
        assert now == placed.state, "b read the row's new version, not its own copy"
        player = now.current
        land = now.territories_of(player)[0]
        moves = [(a if k % 2 else b).act(CHANNEL, player, {"type": "place", "territory": land, "count": 1},
                                         f"race-{k}") for k in range(4)]
        results = await asyncio.gather(*moves, return_exceptions=True)
        applied = [r for r in results if not isinstance(r, BaseException)]
        game = await first.live_game(CHANNEL)
        assert game is not None and len(applied) >= 1
        assert sorted(r.state.seq for r in applied) == list(range(now.seq + 1, now.seq + 1 + len(applied))), \
            "one after the other: no seq twice, none skipped"
        assert await first.count_actions(game.id) == now.seq + len(applied), "every applied command is logged"
        assert all(isinstance(r, RuleError) for r in results if isinstance(r, BaseException)), results
    finally:
        await a.settle()
        await b.settle()
        await first.close()
        await second.close()
