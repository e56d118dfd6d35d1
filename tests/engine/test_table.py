"""Asynchronous play on the service: deadlines, reminders, stand-ins, vacation, pause, moderation, votes, replays.

Time is a fake clock: the timekeeper sleeps on it, and `tick` moves it on and waits until every due timer fired.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from PIL import Image

from engine.core.errors import RuleError
from engine.core.models import Seat, to_json
from engine.core.record import replay
from engine.core.seats import reseat
from engine.games import get
from engine.games.risk import RiskState
from engine.service import GameService
from engine.store import SqliteStore
from tests.engine.conftest import DAY, GUILD, HOUR, FakeClock, Table, open_table, pending_player
from tests.engine.test_service import ALICE, BOB, CAROL, CHANNEL, DAVE, code_of, seat, three_humans


async def deploy(t: Table) -> RiskState:
    """The pending player deploys all their setup armies on their first territory."""
    state = await t.state()
    pid = state.current
    plan = {state.territories_of(pid)[0]: state.setup_left[pid]}
    outcome = await t.service.act(CHANNEL, pid, {"type": "deploy", "placements": plan})
    assert isinstance(outcome.state, RiskState)
    return outcome.state


# ---------------------------------------------------------------- deadlines and reminders


@pytest.mark.rule("RISK-DIG-41")
async def test_deadline_and_reminders_at_half_and_nine_tenths(table: Table) -> None:
    state = await three_humans(table.service)
    first = pending_player(state)
    start = table.clock.now
    assert await table.deadlines() == {first: start + DAY}  # the default: 24 hours
    assert await table.tick(0.5 * DAY - 1) == []
    [half] = await table.tick(1)
    assert (half.kind, half.player, half.due) == ("reminder", first, start + DAY)
    assert await table.tick(0.4 * DAY - 1) == []
    [late] = await table.tick(1)
    assert late.kind == "reminder"
    assert await table.tick(0.1 * DAY - 1) == []
    [timeout] = await table.tick(1)
    assert (timeout.kind, timeout.player) == ("timeout", first)


async def test_reminder_is_dropped_once_the_player_has_acted(table: Table) -> None:
    await three_humans(table.service)
    await deploy(table)
    second = pending_player(await table.state())
    alarms = await table.tick(0.5 * DAY)
    assert [(a.kind, a.player) for a in alarms] == [("reminder", second)]  # the first player's clock is gone


async def test_a_clock_keeps_running_while_the_same_player_acts(table: Table) -> None:
    """Mid-turn actions do not restart the clock: the deadline is the turn's."""
    await three_humans(table.service)
    for _ in range(3):
        await deploy(table)
    state = await table.state()
    pid = pending_player(state)
    due = (await table.deadlines())[pid]
    await table.tick(HOUR)
    target = state.territories_of(pid)[0]
    await table.service.act(CHANNEL, pid, {"type": "place", "territory": target, "count": 1})
    assert (await table.deadlines())[pid] == due


# ---------------------------------------------------------------- timeouts, stand-ins, absence


@pytest.mark.rule("RISK-DIG-42", "RISK-DIG-48", "RISK-DIG-49")
async def test_timeouts_then_absent_then_back(table: Table) -> None:
    state = await three_humans(table.service)
    first = pending_player(state)
    [*_, timeout] = await table.tick(DAY)
    assert (timeout.kind, timeout.player) == ("timeout", first)
    state = await table.state()
    assert state.setup_left[first] == 0  # the stand-in deployed for them
    assert (await table.lobby()).status[first].timeouts == 1
    while state.phase.value == "setup_place":
        state = await deploy(table)
    assert pending_player(state) == first  # their first turn
    [*_, absent] = await table.tick(DAY)
    assert (absent.kind, absent.player) == ("absent", first)
    lobby = await table.lobby()
    assert lobby.absent(first) and first in lobby.stand_ins()
    state = await table.state()
    assert pending_player(state) != first and state.turn == 2
    # While absent, their turns are played at once: no clock is armed for them.
    assert set(await table.deadlines()) == {pending_player(state)}
    seen: list[frozenset[int]] = []
    table.service.renderer = lambda _key, _state, _events, away, _language: seen.append(away) or b"png"
    await table.service.board(CHANNEL)
    assert seen == [frozenset({first})]  # the board marks the seat an AI plays
    await table.service.back(CHANNEL, first)
    assert not (await table.lobby()).absent(first)
    assert await code_of(table.service.back(CHANNEL, first)) == "E_NOT_AWAY"


async def test_skip_mode_completes_the_decision_without_ai(table: Table) -> None:
    state = await three_humans(table.service, timeout_action="skip")
    first = pending_player(state)
    expected = get("risk").timeout_actions(state, first)  # type: ignore[attr-defined]
    [*_, timeout] = await table.tick(DAY)
    assert timeout.kind == "timeout"
    assert (await table.lobby()).clock.timeout_action == "skip"
    assert [step.action for step in timeout.outcome.steps] == expected
    assert (await table.state()).setup_left[first] == 0


async def test_acting_resets_the_count_of_consecutive_timeouts(table: Table) -> None:
    state = await three_humans(table.service)
    first = pending_player(state)
    await table.tick(DAY)
    assert (await table.lobby()).status[first].timeouts == 1
    while (await table.state()).phase.value == "setup_place":
        await deploy(table)
    state = await table.state()
    await table.service.act(CHANNEL, first, {"type": "place", "territory": state.territories_of(first)[0],
                                              "count": state.pool})
    assert (await table.lobby()).status[first].timeouts == 0


async def test_deadline_off_arms_nothing(table: Table) -> None:
    await three_humans(table.service)
    await table.service.set_deadline(CHANNEL, ALICE, False, None)
    assert await table.deadlines() == {}
    assert await table.tick(30 * DAY) == []
    assert await code_of(table.service.set_deadline(CHANNEL, ALICE, False, 0.5)) == "E_DEADLINE_RANGE"
    assert await code_of(table.service.set_deadline(CHANNEL, ALICE, False, 169)) == "E_DEADLINE_RANGE"
    assert await code_of(table.service.set_deadline(CHANNEL, BOB, False, 2)) == "E_NOT_HOST"
    await table.service.set_deadline(CHANNEL, ALICE, False, 2)
    pid = pending_player(await table.state())
    assert await table.deadlines() == {pid: table.clock.now + 2 * HOUR}


async def test_a_lobby_that_never_starts_expires_after_seven_days(table: Table) -> None:
    await table.service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {})
    assert await table.tick(7 * DAY - HOUR) == []
    [expired] = await table.tick(HOUR)
    assert (expired.kind, expired.player, expired.outcome.game.status) == ("expired", ALICE, "abandoned")
    assert await table.service.store.live_game(CHANNEL) is None


async def test_a_started_game_does_not_expire(table: Table) -> None:
    await three_humans(table.service)
    assert [t.kind for t in await table.service.store.timers((await table.service.live(CHANNEL)).id)
            if t.kind == "expiry"] == []
    await table.service.act(CHANNEL, pending_player(await table.state()), {"type": "resign"})
    assert "expired" not in [a.kind for a in await table.tick(8 * DAY)]


async def test_a_lobby_opened_before_expiry_existed_gets_its_timer_at_start_up(table: Table) -> None:
    game = await table.service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {})
    await table.service.store.delete_timers(game.id)
    await table.service.resume_all()
    [timer] = await table.service.store.timers(game.id)
    assert (timer.kind, timer.due_at) == ("expiry", game.created_at + 7 * DAY)


async def test_one_member_may_host_only_a_few_open_lobbies(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    service = GameService(store, seed_source=lambda: 42, max_games_per_guild=25, max_lobbies_per_member=3)
    try:
        for channel in range(3):
            await service.new_game(channel, GUILD, seat(ALICE), "risk", {})
        assert await code_of(service.new_game(3, GUILD, seat(ALICE), "risk", {})) == "E_TOO_MANY_LOBBIES"
        await service.new_game(3, GUILD + 1, seat(ALICE), "risk", {})  # another server counts on its own
        await service.new_game(4, GUILD, seat(BOB), "risk", {})  # and so does another member
        await service.join(0, seat(BOB))
        await service.join(0, seat(CAROL))
        await service.start(0, ALICE)  # a started game is no longer an open lobby
        await service.new_game(5, GUILD, seat(ALICE), "risk", {})
    finally:
        await store.close()


# ---------------------------------------------------------------- vacation and pause


async def test_vacation_extends_the_deadline(table: Table) -> None:
    state = await three_humans(table.service)
    first = pending_player(state)
    _, until = await table.service.vacation(CHANNEL, first, 3)
    assert until == table.clock.now + 3 * DAY
    assert await table.deadlines() == {first: until + DAY}
    assert [a.kind for a in await table.tick(3 * DAY)] == []  # the reminders moved too
    assert [a.kind for a in await table.tick(0.5 * DAY)] == ["reminder"]
    assert [a.kind for a in await table.tick(0.4 * DAY)] == ["reminder"]
    assert [a.kind for a in await table.tick(0.1 * DAY)] == ["timeout"]
    assert await code_of(table.service.vacation(CHANNEL, first, 15)) == "E_VACATION_DAYS"
    assert await code_of(table.service.vacation(CHANNEL, DAVE, 2)) == "E_NOT_PLAYER"


async def test_back_from_a_vacation_gives_back_what_was_left_of_the_clock(table: Table) -> None:
    """`/game vacation 1` then `/game back` must not dodge a deadline with a fresh, full clock."""
    state = await three_humans(table.service)
    first = pending_player(state)
    start = table.clock.now
    await table.tick(20 * HOUR)
    await table.service.vacation(CHANNEL, first, 1)
    assert await table.deadlines() == {first: table.clock.now + DAY + 4 * HOUR}, "the clock is held, not reset"
    await table.tick(HOUR)
    await table.service.back(CHANNEL, first)
    assert await table.deadlines() == {first: table.clock.now + 4 * HOUR}
    await table.service.vacation(CHANNEL, first, 2)
    await table.service.vacation(CHANNEL, first, 3)  # a longer vacation holds the same 4 hours
    await table.service.back(CHANNEL, first)
    assert await table.deadlines() == {first: table.clock.now + 4 * HOUR}
    [*_, timeout] = await table.tick(4 * HOUR)
    assert (timeout.kind, timeout.player) == ("timeout", first) and table.clock.now == start + 25 * HOUR


async def test_a_decision_after_the_vacation_gets_a_whole_clock(table: Table) -> None:
    state = await three_humans(table.service)
    first = pending_player(state)
    await table.tick(20 * HOUR)
    await table.service.vacation(CHANNEL, first, 1)
    await table.service.back(CHANNEL, first)
    after = await deploy(table)  # the held decision is answered: the next one of theirs gets a full clock
    assert first not in await table.deadlines()
    game, _ = await table.service.current(CHANNEL)
    assert game.lobby.status_of(first).clock_left is None and pending_player(after) != first


async def test_pause_stops_the_clocks_and_resume_restarts_them(table: Table) -> None:
    state = await three_humans(table.service)
    first = pending_player(state)
    await table.tick(10 * HOUR)
    await table.service.pause(CHANNEL, ALICE, False)
    assert await table.deadlines() == {}
    assert await table.tick(5 * DAY) == []
    assert await code_of(table.service.pause(CHANNEL, ALICE, False)) == "E_PAUSED"
    assert await code_of(table.service.resume(CHANNEL, BOB, False)) == "E_NOT_HOST"
    await table.service.resume(CHANNEL, BOB, True)  # a moderator may
    assert await table.deadlines() == {first: table.clock.now + 14 * HOUR}  # 14 of 24 hours were left
    # The reminders keep their place on the clock: 2 h and 11.6 h after resuming.
    assert [a.kind for a in await table.tick(2 * HOUR)] == ["reminder"]
    assert [a.kind for a in await table.tick(10 * HOUR)] == ["reminder"]
    assert [a.kind for a in await table.tick(2 * HOUR)] == ["timeout"]


async def test_players_may_play_on_during_a_pause_without_deadlines(table: Table) -> None:
    """Ruling 16: a pause stops the clocks, not the game."""
    await three_humans(table.service)
    await table.service.pause(CHANNEL, ALICE, False)
    await deploy(table)
    assert await table.deadlines() == {}
    await table.service.resume(CHANNEL, ALICE, False)
    nxt = pending_player(await table.state())
    assert await table.deadlines() == {nxt: table.clock.now + DAY}  # a fresh clock for the new decision


async def test_timers_are_rearmed_after_a_restart(location: str) -> None:
    clock = FakeClock()
    path = location
    t, store, task = await open_table(path, clock)
    state = await three_humans(t.service)
    first = pending_player(state)
    task.cancel()
    await store.close()
    clock.advance(2 * DAY)  # the bot was down past the deadline
    t2, store2, task2 = await open_table(path, clock)
    try:
        await asyncio.wait_for(t2.keeper.idle.wait(), 10)
        assert [(a.kind, a.player) for a in t2.alarms] == [("timeout", first)], "no reminder of a passed deadline"
    finally:
        task2.cancel()
        await store2.close()


# ---------------------------------------------------------------- resign, kick, replace


async def test_resign_keeps_the_game_consistent(table: Table) -> None:
    state = await three_humans(table.service)
    leaver = next(p.id for p in state.players if p.id != pending_player(state))
    outcome = await table.service.act(CHANNEL, leaver, {"type": "resign"})
    assert isinstance(outcome.state, RiskState)
    assert leaver not in outcome.ruleset.alive(outcome.state)
    assert outcome.state.territories_of(leaver) == []
    assert leaver not in await table.deadlines()


@pytest.mark.rule("RISK-DIG-30", "RISK-DIG-50")
async def test_kick_by_the_host_only(table: Table) -> None:
    state = await three_humans(table.service)
    assert await code_of(table.service.kick(CHANNEL, BOB, False, CAROL)) == "E_NOT_HOST"
    outcome = await table.service.kick(CHANNEL, ALICE, False, CAROL)
    assert isinstance(outcome.state, RiskState)
    assert CAROL not in outcome.ruleset.alive(outcome.state)
    assert sum(outcome.state.armies.values()) == sum(state.armies.values())  # the armies stay, as Neutral
    assert await code_of(table.service.kick(CHANNEL, ALICE, False, CAROL)) == "E_NOT_PLAYER_TARGET"
    assert CAROL not in await table.deadlines()


@pytest.mark.parametrize("leaves", ["resign", "kick"])
async def test_a_host_who_leaves_the_game_hands_the_host_role_to_the_next_human(table: Table, leaves: str) -> None:
    """A kicked or resigned host keeps none of pause, resume, deadline, kick and abandon."""
    state = await three_humans(table.service)
    if leaves == "resign":
        outcome = await table.service.act(CHANNEL, ALICE, {"type": "resign"})
    else:
        outcome = await table.service.kick(CHANNEL, BOB, True, ALICE)  # a moderator removes the host
    heir = next(p.id for p in state.players if p.id != ALICE)
    assert outcome.new_host == heir and outcome.game.host_id == heir
    for refused in (table.service.pause(CHANNEL, ALICE, False), table.service.resume(CHANNEL, ALICE, False),
                    table.service.set_deadline(CHANNEL, ALICE, False, 2.0),
                    table.service.kick(CHANNEL, ALICE, False, heir), table.service.abandon(CHANNEL, ALICE, False)):
        assert await code_of(refused) == "E_NOT_HOST"
    await table.service.pause(CHANNEL, heir, False)
    await table.service.resume(CHANNEL, heir, False)


async def test_a_host_who_plays_on_stays_host(table: Table) -> None:
    await three_humans(table.service)
    outcome = await table.service.act(CHANNEL, BOB, {"type": "resign"})
    assert outcome.new_host is None and outcome.game.host_id == ALICE


async def test_replace_hands_the_seat_to_a_substitute(table: Table) -> None:
    state = await three_humans(table.service)
    first = pending_player(state)
    held = state.territories_of(first)
    outcome = await table.service.replace(CHANNEL, ALICE, False, first, seat(DAVE, "Dave"))
    after = outcome.state
    assert isinstance(after, RiskState)
    assert after.territories_of(DAVE) == held and after.player(first) is None
    assert after.name(DAVE) == "Dave" and pending_player(after) == DAVE
    assert set(await table.deadlines()) == {DAVE}
    assert await code_of(table.service.act(CHANNEL, first, {"type": "end_turn"})) == "E_NOT_PLAYER"
    after = await deploy(table)
    assert after.setup_left[DAVE] == 0
    # The exported record replays the substitution exactly.
    record = await table.service.record(CHANNEL)
    replayed, _ = replay(get("risk"), record)
    assert replayed.digest() == (await table.state()).digest()
    game, _ = await table.service.current(CHANNEL)
    host = DAVE if first == ALICE else ALICE  # a substitute for the host also takes over hosting
    assert game.host_id == host
    other = next(p for p in (BOB, CAROL) if p != first)
    assert await code_of(table.service.replace(CHANNEL, host, False, other, seat(DAVE))) == "E_ALREADY_SEATED"
    assert await code_of(table.service.replace(CHANNEL, other, False, host, seat(ALICE + 99))) == "E_NOT_HOST"


# ---------------------------------------------------------------- votes


async def test_a_draw_needs_every_remaining_human(table: Table) -> None:
    await three_humans(table.service)
    first = await table.service.vote(CHANNEL, ALICE, "draw")
    assert (first.voters, first.outcome) == ([ALICE], None)
    await table.service.vote(CHANNEL, BOB, "draw")
    await table.service.vote(CHANNEL, BOB, "withdraw")
    second = await table.service.vote(CHANNEL, CAROL, "draw")
    assert second.outcome is None and sorted(second.voters) == sorted([ALICE, CAROL])
    assert await code_of(table.service.vote(CHANNEL, DAVE, "draw")) == "E_NOT_PLAYER"
    final = await table.service.vote(CHANNEL, BOB, "draw")
    assert final.outcome is not None
    game, _ = await table.service.current(CHANNEL)
    assert game.status == "finished"
    assert game.lobby.result is not None
    assert await table.deadlines() == {}
    assert await code_of(table.service.act(CHANNEL, ALICE, {"type": "end_turn"})) == "E_GAME_OVER"


async def test_a_substitute_does_not_inherit_the_vote_of_the_player_replaced(table: Table) -> None:
    await three_humans(table.service)
    await table.service.vote(CHANNEL, ALICE, "draw")
    await table.service.vote(CHANNEL, BOB, "draw")
    await table.service.replace(CHANNEL, ALICE, False, BOB, seat(DAVE, "Dave"))
    tally = await table.service.vote(CHANNEL, CAROL, "draw")
    assert tally.outcome is None and sorted(tally.voters) == sorted([ALICE, CAROL]) and DAVE in tally.needed


async def test_surrender_ends_with_the_leader_winning_and_counts_in_stats(table: Table) -> None:
    state = await three_humans(table.service)
    for pid in (ALICE, BOB):
        await table.service.vote(CHANNEL, pid, "surrender")
    tally = await table.service.vote(CHANNEL, CAROL, "surrender")
    assert tally.outcome is not None
    leader = get("risk").ranking(state)[0]
    stats = await table.service.stats(GUILD)
    assert stats["risk"][leader] == [(1, True)]
    assert sorted(place for uid, r in stats["risk"].items() for place, won in r if not won) == [2, 3]


async def test_stats_read_standings_stored_once_per_finished_game(table: Table) -> None:
    await three_humans(table.service)
    for pid in (ALICE, BOB, CAROL):
        await table.service.vote(CHANNEL, pid, "surrender")
    first = await table.service.stats(GUILD)
    game = await table.service.store.latest_game(CHANNEL)
    assert game is not None and game.status == "finished"
    await table.service.store.update_game(game, state="{not json")  # the state is not read again
    assert await table.service.stats(GUILD) == first
    assert sorted(place for results in first["risk"].values() for place, _ in results) == [1, 2, 3]
    assert await table.service.stats(GUILD + 1) == {}


async def test_the_service_keeps_a_bounded_number_of_states_in_memory(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "bot.sqlite3")
    service = GameService(store, seed_source=lambda: 42, state_cache_size=2)
    channels = (CHANNEL, CHANNEL + 1, CHANNEL + 2)
    started = [await three_humans(service, channel) for channel in channels]
    for channel, state in zip(channels, started, strict=True):
        assert (await service.current(channel))[1] == state
        assert len(service._cache) <= 2
    game, _ = await service.current(CHANNEL + 2)
    assert set(service._cache) == {game.id, game.id - 1}, "the two most recently used games stay"
    await store.close()


# ---------------------------------------------------------------- replay GIF

LIMIT = 10 * 1024 * 1024
"""Discord's upload limit for a server without boosts."""


async def test_the_replay_gif_holds_one_frame_per_turn(table: Table) -> None:
    await table.service.new_game(CHANNEL, GUILD, seat(ALICE), "risk", {"setup": "random_deal",
                                                                      "setup_placement": "bulk_sequential"})
    await table.service.add_ai(CHANNEL, ALICE)
    await table.service.add_ai(CHANNEL, ALICE)
    await table.service.start(CHANNEL, ALICE)
    ruleset = get("risk")
    state = await table.state()

    async def play_to(turn: int) -> RiskState:
        state = await table.state()
        while state.turn < turn:
            for action in ruleset.timeout_actions(state, ALICE):  # type: ignore[attr-defined]
                await table.service.act(CHANNEL, ALICE, to_json(action, exclude={"player"}))
            state = await table.state()
        return state

    state = await play_to(4)
    made = await table.service.replay_gif(CHANNEL, LIMIT)
    assert made is not None and (made.turns, made.shown, made.step) == (state.turn, state.turn, 1)
    image = Image.open(io.BytesIO(made.gif))
    assert image.format == "GIF" and image.n_frames == state.turn and image.width == 800
    assert await table.service.replay_gif(CHANNEL, LIMIT) is made, "the same version's picture is reused"
    state = await play_to(state.turn + 1)
    again = await table.service.replay_gif(CHANNEL, LIMIT)
    assert again is not None and again.turns == state.turn > made.turns, "a game that moved on is replayed anew"


async def test_nothing_to_replay_before_the_first_turn(table: Table) -> None:
    await three_humans(table.service)
    assert await table.service.replay_gif(CHANNEL, LIMIT) is None


def test_reseat_refuses_ai_ids() -> None:
    ruleset = get("risk")
    state, _ = ruleset.new_game([Seat(id=ALICE, name="a"), Seat(id=BOB, name="b"), Seat(id=3, name="c")],
                                ruleset.options_model(), 1)
    with pytest.raises(RuleError) as info:
        reseat(state, 3, Seat(id=DAVE, name="d"))
    assert info.value.code == "E_RESEAT_AI"


async def test_clocks_work_for_every_game_wizards_quest_too(table: Table) -> None:
    """The table is generic: a Wizard's Quest seat's deadline passes and its stand-in plays that decision."""
    await table.service.new_game(CHANNEL, GUILD, seat(ALICE), "wizards-quest", {})
    await table.service.add_ai(CHANNEL, ALICE)
    await table.service.start(CHANNEL, ALICE)
    await table.service.idle(CHANNEL)
    ruleset = get("wizards_quest")
    _, started = await table.service.current(CHANNEL)
    assert started is not None and ruleset.pending(started)[0].player == ALICE
    before = started.seq
    assert await table.deadlines() == {ALICE: table.clock.now + DAY}
    [*_, timeout] = await table.tick(DAY)
    assert (timeout.kind, timeout.player) == ("timeout", ALICE)
    _, after = await table.service.current(CHANNEL)
    assert after is not None and after.seq > before
    assert (await table.lobby()).status[ALICE].timeouts == 1
