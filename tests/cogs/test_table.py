"""/game table and host commands, /history pages, /stats and the timers cog, through real dispatch."""

from __future__ import annotations

import asyncio
import copy
import io
import json
import random
import re
import time
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot import GameMasterBot, Settings
from engine.core.models import json_text, to_json
from engine.core.record import GameRecord, replay
from engine.core.views import HIDDEN, SEALED
from engine.games import get
from engine.table import Lobby
from tests.cogs.conftest import channel_id, delivered, refused, start_game, state_of, uid
from tests.discord.harness import DispatchHarness
from tests.sql import execute

TIMESTAMP = re.compile(r"<t:(\d+):R>")


async def lobby_of(h: DispatchHarness) -> Lobby:
    game, _ = await h.bot.service.current(channel_id(h))  # type: ignore[attr-defined]
    return game.lobby


def pending_member(members: list[dict], player: int) -> dict:
    return next(m for m in members if uid(m) == player)


async def test_the_turn_ping_carries_a_discord_timestamp_deadline(h: DispatchHarness) -> None:
    before = time.time()
    members = await start_game(h, "Ada", "Bo", "Cy")
    posted = " ".join(m.content for m in h.messages(h.world.channel["id"]) if "(deadline <t:" in m.content)
    stamp = TIMESTAMP.search(posted)
    assert stamp, posted
    assert before + 24 * 3600 - 5 <= int(stamp.group(1)) <= time.time() + 24 * 3600 + 5
    status = await h.slash("game", "status", user=members[1])
    assert TIMESTAMP.search(status.content) and "Turn deadline: 24 h" in status.said


async def test_vacation_and_back(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy")
    away = await h.slash("game", "vacation", options={"days": 3}, user=members[1])
    assert away.posts and "on vacation until <t:" in away.said
    refused(await h.slash("game", "vacation", options={"days": 30}, user=members[1]), "")
    status = await h.slash("game", "status", user=members[0])
    assert "vacation until" in status.said
    back = await h.slash("game", "back", user=members[1])
    assert "is back" in back.said
    refused(await h.slash("game", "back", user=members[1]), "You are not away")
    refused(await h.slash("game", "vacation", options={"days": 2}, user=h.add_member("Stranger")),
            "You are not playing in this game")


async def test_host_controls_pause_resume_deadline(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy")
    refused(await h.slash("game", "pause", user=members[1]), "Only the host")
    paused = await h.slash("game", "pause", user=members[0])
    assert "paused the game" in paused.said
    refused(await h.slash("game", "pause", user=members[0]), "paused already")
    assert "Paused" in (await h.slash("game", "status", user=members[2])).content
    resumed = await h.slash("game", "resume", user=members[0])
    assert "resumed the game" in resumed.said and TIMESTAMP.search(resumed.said)
    refused(await h.slash("game", "deadline", options={"hours": 2.0}, user=members[2]), "Only the host")
    changed = await h.slash("game", "deadline", options={"hours": 2.0}, user=members[0])
    stamp = TIMESTAMP.search(changed.said)
    assert "deadline to 2 hours" in changed.said and stamp
    assert abs(int(stamp.group(1)) - (time.time() + 7200)) < 5
    off = await h.slash("game", "deadline", user=h.world.owner)  # a moderator may too
    assert "turned the turn deadlines off" in off.said and not TIMESTAMP.search(off.said)
    assert (await lobby_of(h)).clock.turn_hours is None


async def test_kick_and_replace(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy")
    ada, bo, cy = members
    refused(await h.slash("game", "kick", options={"player": cy}, user=bo), "Only the host")
    kicked = await h.slash("game", "kick", options={"player": cy}, user=ada)
    assert kicked.posts and "removed" in kicked.said
    assert uid(cy) not in get("risk").alive(await state_of(h))
    dee = h.add_member("Dee")
    swapped = await h.slash("game", "replace", options={"old": bo, "new": dee}, user=ada)
    assert "takes over" in swapped.said
    state = await state_of(h)
    assert state.player(uid(dee)) is not None and state.player(uid(bo)) is None
    refused(await h.slash("game", "replace", options={"old": bo, "new": h.add_member("Eve")}, user=ada),
            "is not an active player")


async def test_a_resigning_host_hands_over_and_the_channel_is_told(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy")
    ada = members[0]
    ask = await h.slash("game", "resign", user=ada)
    yes = next(c for c in ask.response.custom_ids() if c.endswith(":yes"))
    resigned = await h.button(yes, user=ada, message=ask.response)
    told = " ".join(m.content for m in resigned.channel_messages)
    heir = (await lobby_of(h)).seats
    game, _ = await h.bot.service.current(channel_id(h))  # type: ignore[attr-defined]
    assert game.host_id != uid(ada) and game.host_id in {s.id for s in heir}
    assert f"<@{game.host_id}> is the host now" in told
    refused(await h.slash("game", "pause", user=ada), f"Only the host (<@{game.host_id}>)")


async def test_resign_asks_first(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy")
    refused(await h.slash("game", "resign", user=h.add_member("Stranger")), "You are not playing")
    ask = await h.slash("game", "resign", user=members[2])
    assert ask.ephemeral and "Resign from this game?" in ask.content
    keep = next(c for c in ask.response.custom_ids() if c.endswith(":no"))
    await h.button(keep, user=members[2], message=ask.response)
    assert uid(members[2]) in get("risk").alive(await state_of(h))
    ask = await h.slash("game", "resign", user=members[2])
    yes = next(c for c in ask.response.custom_ids() if c.endswith(":yes"))
    as_shown = copy.deepcopy(ask.response.payload)  # a double click: both presses see the buttons
    await h.button(yes, user=members[2], message=as_shown)
    state = await state_of(h)
    assert uid(members[2]) not in get("risk").alive(state)
    again = await h.button(yes, user=members[2], message=as_shown)
    assert again.ephemeral  # the second press changes nothing and says so privately
    assert (await state_of(h)).seq == state.seq


async def test_a_draw_vote_needs_everyone(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy")
    first = await h.slash("game", "vote", options={"choice": "draw"}, user=members[0])
    assert "(1 of 3)" in first.said
    refused(await h.slash("game", "vote", options={"choice": "draw"}, user=h.add_member("Stranger")),
            "You are not playing")
    await h.slash("game", "vote", options={"choice": "draw"}, user=members[1])
    final = await h.slash("game", "vote", options={"choice": "draw"}, user=members[2])
    assert "ends in a draw" in final.said
    refused(await h.slash("risk", "endturn", user=members[0]), "over")
    stats = await h.slash("stats", user=members[0])
    assert f"<@{uid(members[0])}>: 1 played, 0 won, average place 1.0" in stats.said


async def test_export_replays_and_the_replay_gif(h: DispatchHarness) -> None:
    ada = h.add_member("Ada")
    await h.slash("new", "risk", options={"setup": "random_deal"}, user=ada)
    await h.slash("game", "add-ai", user=ada)
    await h.slash("game", "add-ai", user=ada)
    await h.slash("game", "start", user=ada)
    early = await h.slash("game", "replay", user=ada)
    assert "nothing to replay yet" in early.said
    state = await state_of(h)
    ruleset = get("risk")
    while state.turn < 3:
        for action in ruleset.timeout_actions(state, uid(ada)):  # type: ignore[attr-defined]
            await h.bot.service.act(channel_id(h), uid(ada), to_json(action, exclude={"player"}))  # type: ignore[attr-defined]
        state = await state_of(h)
    movie = await h.slash("game", "replay", user=ada)
    [gif] = movie.files
    assert gif.filename == "replay.gif"
    assert Image.open(io.BytesIO(gif.data)).n_frames == state.turn
    await h.slash("game", "vote", options={"choice": "draw"}, user=ada)  # over: the whole record is exported
    exported = await h.slash("game", "export", user=h.add_member("Spectator"))
    [upload] = exported.files
    record = GameRecord.model_validate(json.loads(upload.data))
    replayed, _ = replay(get("risk"), record)
    assert replayed.digest() == (await state_of(h)).digest() and "python -m engine replay" in exported.said


async def test_history_pages_with_buttons(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy")
    state = await state_of(h)
    for _ in range(3):
        pid = state.current
        plan = {state.territories_of(pid)[0]: state.setup_left[pid]}
        await h.slash("risk", "place", options={"territory": next(iter(plan)), "count": plan[next(iter(plan))]},
                      user=pending_member(members, pid))
        state = await state_of(h)
    first = await h.slash("history", user=h.add_member("Spectator"))
    assert first.ephemeral and "page 1 of" in first.content and "Turn 0 · " in first.content
    older = next(c for c in first.response.custom_ids() if c.endswith(":older"))
    pages = int(re.search(r"page 1 of (\d+)", first.content).group(1))  # type: ignore[union-attr]
    if pages > 1:
        turned = await h.button(older, message=first.response)
        assert "page 2 of" in turned.response.content


async def due_now(h: DispatchHarness, kind: str) -> int:
    """Make the first timer of `kind` fall due now and wake the timers cog; the seat it belongs to."""
    service = h.bot.service  # type: ignore[attr-defined]
    game, _ = await service.current(channel_id(h))
    timer = next(t for t in await service.store.timers(game.id) if t.kind == kind)
    await execute(service.store, "UPDATE timers SET due_at = ? WHERE id = ?", time.time() - 1, timer.id)
    h.bot.get_cog("Timers").keeper.poke()  # type: ignore[union-attr]
    return timer.player


async def posted(h: DispatchHarness, text: str) -> list[str]:
    """The channel messages containing `text`, waiting a little for the timers cog to post them."""
    for _ in range(300):
        found = [m.content for m in h.messages(h.world.channel["id"]) if text in m.content]
        if found:
            return found
        await asyncio.sleep(0.01)
    return []


async def test_reminder_is_posted_by_the_timers_cog(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy")
    player = await due_now(h, "reminder")
    [reminder] = await posted(h, "a reminder")
    assert f"<@{player}>" in reminder and TIMESTAMP.search(reminder)
    assert uid(pending_member(members, player)) == player


async def test_a_missed_deadline_is_announced_by_the_timers_cog(h: DispatchHarness) -> None:
    await start_game(h, "Ada", "Bo", "Cy", timeout_action="skip")
    before = (await state_of(h)).seq
    player = await due_now(h, "deadline")
    [notice] = await posted(h, "ran out of time")
    assert f"<@{player}>" in notice and "completed in the least harmful way" in notice
    assert (await state_of(h)).seq > before  # the decision was played for them


async def test_a_lobby_that_never_starts_closes_with_a_notice(h: DispatchHarness) -> None:
    ada = h.add_member("Ada")
    opened = await h.slash("new", "risk", user=ada)
    assert "the lobby closes <t:" in opened.said
    await due_now(h, "expiry")
    [notice] = await posted(h, "never started")
    assert "closed after 7 days" in notice and f"<@{uid(ada)}>" in notice
    assert await h.bot.service.store.live_game(channel_id(h)) is None  # type: ignore[attr-defined]
    assert "opened a game" in (await h.slash("new", "risk", user=ada)).said


@pytest.mark.rule("RISK-OPT-8", "RISK-OPT-9", "RISK-OPT-10", "RISK-OPT-11")
async def test_new_game_clock_options(h: DispatchHarness) -> None:
    """A timer of an hour or less makes a live game, whose defenders get one minute (ruling 10)."""
    ada = h.add_member("Ada")
    await h.slash("new", "risk", options={"timer": 0.5, "timeout_action": "skip",
                                          "absent_after": 3}, user=ada)
    clock = (await lobby_of(h)).clock
    assert (clock.turn_hours, clock.reaction_minutes, clock.timeout_action, clock.absent_after) == (0.5, 1.0,
                                                                                                   "skip", 3)
    await h.slash("game", "abandon", user=ada)
    await h.button(next(c for c in h.messages()[-1].custom_ids() if c.endswith(":yes")), user=ada)
    await h.slash("new", "risk", user=ada)
    clock = (await lobby_of(h)).clock
    assert (clock.turn_hours, clock.reaction_minutes, clock.timeout_action, clock.absent_after) == (24.0, 60.0,
                                                                                                   "ai", 2)


async def test_spectators_see_public_views_but_nothing_hidden(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy", mode="secret_mission")
    state = await state_of(h)
    board = get("risk").board  # type: ignore[attr-defined]
    secrets = [board.mission[m].text for m in state.missions.values()]
    spectator = h.add_member("Spectator")
    shown = [
        (await h.slash("game", "status", user=spectator)).content,
        (await h.slash("history", user=spectator)).content,
        "\n".join(m.content for m in (await h.slash("board", options={"view": "text"}, user=spectator)).messages),
    ]
    assert all(shown)
    for text in shown:
        assert not any(secret in text for secret in secrets), text
    mine = await h.slash("risk", "mission", user=members[0])
    assert mine.ephemeral and board.mission[state.missions[uid(members[0])]].text in mine.content
    refused(await h.slash("risk", "mission", user=spectator), "You are not playing")


async def test_security_rate_limit_per_user(tmp_path: Path) -> None:
    """A member who floods commands is told to wait, privately, and nothing runs; others are unaffected."""
    bot = GameMasterBot(Settings(database_path=tmp_path / "bot.sqlite3", rate_limit_per_minute=6,
                                 rate_limit_burst=3))
    async with DispatchHarness(bot, setup_hook=True) as h:
        flooder, other = h.add_member("Flood"), h.add_member("Calm")
        answers = [await h.slash("game", "status", user=flooder) for _ in range(4)]
        assert all("There is no game" in a.said for a in answers[:3])
        refused(answers[3], "please wait")
        opened = await h.slash("new", "risk", user=flooder)
        refused(opened, "please wait")
        assert await bot.service.store.live_game(channel_id(h)) is None  # the limited command did nothing
        assert "opened a game" in (await h.slash("new", "risk", user=other)).said
        await h.slash("game", "abandon", user=other)
        press = await h.button(next(c for c in h.messages()[-1].custom_ids() if c.endswith(":yes")), user=flooder)
        refused(press, "please wait")  # buttons are limited too
    await bot.close()


async def test_security_cap_on_games_per_server(tmp_path: Path) -> None:
    bot = GameMasterBot(Settings(database_path=tmp_path / "bot.sqlite3", max_games_per_server=2,
                                 rate_limit_per_minute=1000, rate_limit_burst=100))
    async with DispatchHarness(bot, setup_hook=True) as h:
        host = h.add_member("Host")
        for name in ("one", "two", "three"):
            channel = h.world.add_channel(name)
            answer = await h.slash("new", "risk", user=host, channel=channel)
        refused(answer, "already has 2 games in progress")
        assert "opened a game" not in answer.said
    await bot.close()


async def test_concurrent_fifty_players_press_at_once(h: DispatchHarness) -> None:
    """Fifty members send End turn together: only the pending player's applies; the rest are told why, privately."""
    members = await start_game(h, "Ada", "Bo", "Cy")
    service = h.bot.service  # type: ignore[attr-defined]
    state = await state_of(h)
    while state.phase.value == "setup_place":  # everyone deploys; then the first turn's player reinforces
        pid = state.current
        await service.act(channel_id(h), pid, {"type": "deploy", "placements": {
            state.territories_of(pid)[0]: state.setup_left[pid]}})
        state = await state_of(h)
    await service.act(channel_id(h), state.current, {"type": "place", "territory": state.territories_of(
        state.current)[0], "count": state.pool})
    state = await state_of(h)
    pressers = members + [h.add_member(f"Crowd{k}") for k in range(47)]
    await delivered(h)
    known = {m.id for m in h.messages()}
    results = await asyncio.gather(*(h.slash("risk", "endturn", user=m) for m in pressers))
    after = await state_of(h)
    assert after.seq == state.seq + 1 and after.current != state.current  # one turn ended, once
    answered = [r for r in results if r.response is not None and r.response.deleted]  # "thinking…" gave way to a post
    assert len(answered) == 1 and uid(pressers[results.index(answered[0])]) == state.current
    posts = {m.payload["nonce"].split(".")[0] for m in h.messages() if m.id not in known and m.source == "channel"}
    assert len(posts) == 1, "one post tells the turn's end"
    reasons = {r.content for r in results if r not in answered}
    assert all(reason.startswith("⚠️") for reason in reasons), reasons
    assert any("not playing" in r for r in reasons) and any("turn" in r for r in reasons), reasons


async def exported(h: DispatchHarness) -> dict:
    result = await h.slash("game", "export", user=h.add_member("Spectator"))
    [upload] = result.files
    return json.loads(upload.data)


async def test_a_live_export_can_not_foresee_a_die_or_learn_a_secret(h: DispatchHarness) -> None:
    """Mid-game, the export is a function of what the public may see: changing the seed, the dice state, the
    deck order, the hands and the missions changes nothing in it, and it holds none of them (item 1 of #13)."""
    await start_game(h, "Ada", "Bo", "Cy", mode="secret_mission")
    public = await exported(h)
    assert public["format"] == "gm-public/1" and "seed" not in public and "actions" not in public
    position = public["position"]
    assert position["rng"] == to_json(SEALED) and set(position["deck"]) <= {HIDDEN}
    assert all(set(hand) <= {HIDDEN} for hand in position["hands"].values())
    assert position["missions"] == {} and position["plans"] == {}
    state = await state_of(h)
    text = json.dumps(public)
    for pid, mission in state.missions.items():
        assert f'"{mission}"' not in text, f"{pid}'s mission is in the export"
    assert str(state.rng.state) not in text and str((await h.bot.service.live(channel_id(h))).seed) not in text  # type: ignore[attr-defined]
    secrets = replace(state, rng=replace(state.rng, state=state.rng.state ^ 0xFFFF),
                      deck=list(reversed(state.deck)),
                      missions={p: "M01" for p in state.missions},
                      hands={p: list(reversed(h_)) for p, h_ in state.hands.items()})
    service = h.bot.service  # type: ignore[attr-defined]
    game = await service.live(channel_id(h))
    await execute(service.store, "UPDATE games SET state = ?, seed = seed + 1, version = version + 1 WHERE id = ?",
                  json_text(secrets), game.id)
    assert await exported(h) == public, "the export depends on something secret"


async def test_a_live_wizards_quest_export_shows_no_decoy(h: DispatchHarness) -> None:
    """The logged `hide` actions said where each decoy went: the public export carries no action contents."""
    await start_game(h, "Ada", "Bo", game="wizards-quest", decoy=True)
    service = h.bot.service  # type: ignore[attr-defined]
    ruleset = get("wizards-quest")
    _, state = await service.current(channel_id(h))
    while state.phase.value.startswith("setup"):  # the humans set up as the AI would, hides included
        decision = ruleset.pending(state)[0]
        action = ruleset.policy("baseline").choose(state, decision.player, random.Random(state.seq))
        state = (await service.act(channel_id(h), decision.player, to_json(action, exclude={"player"}))).state
    game = await service.live(channel_id(h))
    hides = [row.action for row in await service.store.actions(game.id) if row.action.get("type") == "hide"]
    public = await exported(h)
    assert all(set(entry) == {"seq", "actor", "type", "events"} for entry in public["history"])
    kinds = [t["kind"] for t in public["position"]["treasures"]]
    assert kinds and all(kind is None for kind in kinds)
    assert all(json.dumps(a) not in json.dumps(public) for a in hides)


async def test_ai_turns_are_summed_up_in_a_line_each(h: DispatchHarness) -> None:
    """Item 19 of #13: an AI turn is one short line; its dice stay in /history."""
    ada = h.add_member("Ada")
    h.bot.service.seed_source = lambda: 11  # type: ignore[attr-defined]  # AI turns long enough to be summed up
    await h.slash("new", "risk", options={"setup": "random_deal", "placement": "bulk_sequential"},
                  user=ada)
    for _ in range(3):
        await h.slash("game", "add-ai", user=ada)
    await h.slash("game", "start", user=ada)
    service = h.bot.service  # type: ignore[attr-defined]
    ruleset = get("risk")
    state = await state_of(h)
    played = []
    while len(played) < 2 and ruleset.winners(state) is None:  # Ada plays two turns as the AI would
        action = ruleset.policy("baseline").choose(state, uid(ada), random.Random(state.seq))
        if action.type in ("attack", "end_attack", "fortify", "end_turn"):  # she never attacks
            await delivered(h)  # the posts of her moves so far are out: the end of turn's own post follows
            played.append(await h.slash("risk", "endturn", user=ada))
        else:
            await service.act(channel_id(h), uid(ada), to_json(action, exclude={"player"}))
        state = await state_of(h)
    told = "\n".join(r.said for r in played)
    ai_lines = [line for line in told.splitlines() if line.startswith("🤖 ")]
    assert len(ai_lines) >= 3 and all(len(line) < 300 for line in ai_lines)
    assert "(AI)" in ai_lines[0] and "the attacker rolls" not in told, "AI battles are not narrated one by one"


async def test_a_game_left_to_the_ai_seats_is_one_summary_and_the_final_board(h: DispatchHarness) -> None:
    """One human and five AIs: the human resigns, and the AIs play the game out in one short post."""
    ada = h.add_member("Ada")
    await h.slash("new", "risk", options={"setup": "random_deal"}, user=ada)
    for _ in range(5):
        await h.slash("game", "add-ai", user=ada)
    await h.slash("game", "start", user=ada)
    ask = await h.slash("game", "resign", user=ada)
    yes = next(c for c in ask.response.custom_ids() if c.endswith(":yes"))
    resigned = await h.button(yes, user=ada, message=ask.response)
    posts = resigned.channel_messages
    text = "\n".join(m.content for m in posts)
    assert get("risk").winners(await state_of(h)) is not None
    assert len(posts) <= 3 and len(text) < 3000, (len(posts), len(text))
    assert "played the rest of the game" in text and "wins" in text
    assert [f.filename for m in posts for f in m.files] == ["board.png"]
