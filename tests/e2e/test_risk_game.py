"""A whole Risk game through the real bot process, on a Korean server (the language of Risk's seed rulebook): two
humans and an AI, with a kill and restart in the middle. Nothing says the game's language: the server's preferred
locale chooses it, and every post, board and private answer is in Korean.

The unmodified `python bot.py` runs as a subprocess pointed at a FakeDiscord on 127.0.0.1. The test plays the two
human seats: it reads the game from the bot's SQLite file (read-only), lets the baseline policy pick each human's
action and turns that action into the slash command or button a player would use. AI seats play inside the bot.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

from engine.core.i18n import translate
from engine.games.risk import RULESET, RiskState
from engine.games.risk import actions as A
from engine.games.risk.state import Phase
from tests.discord.fakeapi import InteractionRecord, SentMessage
from tests.discord.fakediscord import FakeDiscord
from tests.discord.payloads import STRING_SELECT, World, iter_components
from tests.e2e.botprocess import (
    STEP_TIMEOUT_S,
    TOKEN,
    Driver,
    GameSnapshot,
    bot_env,
    integrity,
    running,
)
from tests.texts import fragment

HUMAN_SEED = 53
"""Seed of the random source the baseline policy gets for the human seats."""
MAX_INTERACTIONS = 6000
"""Simulated games of this line-up need up to ~3,700 (a few in a thousand pass 2,500); the median is ~270."""
TIME_BUDGET_S = 80.0
RESTART_AFTER = 40
"""Human interactions before the bot is killed (at the next moment a button of the last answer is current)."""
RESTART_LATEST = 3 * RESTART_AFTER
"""Restart by then even if no button is current."""
LANGUAGE = "ko"
STALE_TEXT = fragment("button.stale", LANGUAGE)
SETUP_PHASES = (Phase.SETUP_CLAIM, Phase.SETUP_PLACE, Phase.SETUP_PLACE_2P)


# ------------------------------------------------------------------------------------------------ the human seats


class Humans(Driver):
    """Plays the human seats through Discord: the baseline policy decides, slash commands and buttons act."""

    def __init__(self, fake: FakeDiscord, db: Path, members: dict[int, dict], channel: dict | None = None) -> None:
        super().__init__(fake, db, channel)
        self.members = members
        self.policy = RULESET.policy("baseline")
        self.rng = random.Random(HUMAN_SEED)
        self.offered: list[str] = []
        """The risk buttons on the answer to the last action (all current until the next action)."""
        self.first_button: str | None = None
        self.attacks = 0
        self.leaves = 0

    # -- talking to the bot

    async def slash(self, pid: int, *path: str, options: dict[str, object] | None = None,
                    public: bool = True) -> tuple[InteractionRecord, SentMessage]:
        payload = self.fake.world.slash(path[0], *path[1:], options=options, user=self.members[pid],
                                        channel=self.channel)
        return await self.send(payload, "/" + " ".join(path), public=public)

    async def button(self, pid: int, custom_id: str, *, public: bool = True,
                     label: str = "") -> tuple[InteractionRecord, SentMessage]:
        shown = next(m for m in reversed(self.fake.messages(self.channel["id"])) if m.component(custom_id))
        payload = self.fake.world.component(custom_id, message=shown.payload, user=self.members[pid])
        return await self.send(payload, label or f"button {custom_id.split(':')[1]}", public=public)

    async def send(self, payload: dict, what: str, *, public: bool) -> tuple[InteractionRecord, SentMessage]:
        """Deliver one interaction (every command, button and select goes through here) and wait for its answer."""
        record = await self.fake.send_interaction(payload)
        return record, await self.answer(record, what, public=public)

    @property
    def state(self) -> RiskState:
        assert self.snapshot is not None
        return self.snapshot.parse(RiskState)

    def decides(self, snapshot: GameSnapshot) -> bool:
        """Whether a human seat has the game's next decision."""
        return any(d.player in self.members for d in RULESET.pending(snapshot.parse(RiskState))[:1])

    async def settled(self) -> GameSnapshot:
        """The game once its AI seat has played: a human decides, or it is over."""
        return await self.settle(self.decides)

    # -- one decision

    async def step(self) -> None:
        """Let the seat that must decide now act once (or twice: a trade is a command and then a select)."""
        before = self.state
        decisions = RULESET.pending(before)
        assert decisions, f"nothing pending and no winner at seq {before.seq}"
        pid = decisions[0].player
        assert pid in self.members, f"the bot left AI seat {pid} to decide {decisions[0].kind} at seq {before.seq}"
        action = self.policy.choose(before, pid, self.rng)
        record, attacked = await self.perform(before, pid, action)
        after = self.refresh().parse(RiskState)
        assert after.seq > before.seq, f"{action!r} was answered but changed nothing"
        await self.collect_buttons(record, after, attacked)

    async def perform(self, s: RiskState, pid: int, action: A.Action) -> tuple[InteractionRecord, bool]:
        """Send the command or press the button for `action`; return the interaction and whether it attacked."""
        match action:
            case A.Deploy(placements=placements):
                ((territory, count),) = placements.items()
                record, _ = await self.slash(pid, "risk", "place", options={"territory": territory, "count": count})
            case A.Place(territory=territory, count=count):
                record, _ = await self.slash(pid, "risk", "place", options={"territory": territory, "count": count})
            case A.Trade(cards=cards):
                record = await self.trade(pid, cards)
            case A.Attack(source=source, target=target, keep=keep):
                self.attacks += 1
                blitz = f"risk:blitz:{s.seq}:{source}:{target}"
                if blitz in self.offered:
                    record, _ = await self.button(pid, blitz)
                else:
                    options: dict[str, object] = {"source": source, "target": target, "until": "conquer",
                                                  "keep": keep}
                    if self.attacks % 5 == 0:
                        options["move"] = "max"
                    record, _ = await self.slash(pid, "risk", "attack", options=options)
                return record, True
            case A.Move(count=count):
                move = f"risk:move:{s.seq}:{count}"
                if move in self.offered:
                    record, _ = await self.button(pid, move)
                else:
                    record, _ = await self.slash(pid, "risk", "move", options={"count": count})
            case A.Fortify() | A.EndTurn() if s.phase is Phase.ATTACK and self.end_attack_first():
                stop = f"risk:stop:{s.seq}"
                if stop in self.offered:
                    record, _ = await self.button(pid, stop)
                else:
                    record, _ = await self.slash(pid, "risk", "endattack")
            case A.Fortify(source=source, target=target, count=count):
                record, _ = await self.slash(pid, "risk", "fortify",
                                             options={"source": source, "target": target, "count": count})
            case A.EndTurn():
                record, _ = await self.slash(pid, "risk", "endturn")
            case _:
                raise AssertionError(f"the baseline policy chose {action!r}, which this game should never need")
        return record, False

    def end_attack_first(self) -> bool:
        """Every other time the attack phase is left, say so first (`/risk endattack` or the Stop button)."""
        self.leaves += 1
        return self.leaves % 2 == 1

    async def trade(self, pid: int, cards: list[str]) -> InteractionRecord:
        """`/risk trade` answers privately with a select of the hand; choosing three cards trades them."""
        _, menu = await self.slash(pid, "risk", "trade", public=False)
        select = next((c for c in iter_components(menu.components) if c["type"] == STRING_SELECT), None)
        assert select is not None, f"/risk trade offered no card select: {menu.components}"
        offered = {option["value"] for option in select["options"]}
        assert set(cards) <= offered, f"the select offers {sorted(offered)}, not all of {cards}"
        payload = self.fake.world.component(select["custom_id"], message=menu.payload, values=cards,
                                            user=self.members[pid])
        record, _ = await self.send(payload, "trade select", public=True)
        return record

    async def collect_buttons(self, record: InteractionRecord, s: RiskState, attacked: bool) -> None:
        """Wait for the buttons the bot must offer after an attack (they come with its last message); keep them."""
        expected: list[str] = []
        i = s.interrupt
        if attacked and i is not None and i.kind == "occupy":
            expected.append(f"risk:move:{s.seq}:{i.min}")
        elif attacked and i is None and s.phase is Phase.ATTACK:
            expected.append(f"risk:stop:{s.seq}")
        if expected:
            def offered() -> bool:
                ids = {c for m in self.posted_after(record) for c in m.custom_ids()}
                return all(c in ids for c in expected)

            await self.fake.wait_until(offered, STEP_TIMEOUT_S, what=f"the buttons {expected}")
        self.offered = [c for m in self.posted_after(record) for c in m.custom_ids() if c.startswith("risk:")]
        if self.first_button is None and self.offered:
            self.first_button = self.offered[0]

    async def press_current_button(self) -> None:
        """Press a button the bot posted before it was restarted; it is still current, so it must act."""
        s = self.state
        pid = RULESET.pending(s)[0].player
        button = next((c for prefix in ("risk:move:", "risk:stop:") for c in reversed(self.offered)
                       if c.startswith(prefix)), None)
        assert button is not None and button.split(":")[2] == str(s.seq), f"no current button in {self.offered}"
        record, _ = await self.button(pid, button, label="button posted before the restart")
        after = self.refresh().parse(RiskState)
        assert after.seq > s.seq, f"the pre-restart button {button} was answered but changed nothing"
        await self.collect_buttons(record, after, attacked=False)

    async def press_stale_button(self, custom_id: str) -> None:
        """A button from long ago: the bot must still answer, privately, that it is stale; nothing changes."""
        before = self.refresh()
        pid = RULESET.pending(before.parse(RiskState))[0].player
        _, message = await self.button(pid, custom_id, public=False, label="stale button")
        assert STALE_TEXT in message.content, message.content
        assert self.refresh() == before


# ------------------------------------------------------------------------------------------------ the test


async def test_two_humans_and_an_ai_play_risk_to_the_end_across_a_restart(tmp_path: Path) -> None:
    started = time.monotonic()
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(World(locale=LANGUAGE), token=TOKEN) as fake:
        alice, bob = await fake.add_member("Alice"), await fake.add_member("Bob")
        members = {int(m["user"]["id"]): m for m in (alice, bob)}
        env = bot_env(fake.env(), db)
        humans = Humans(fake, db, members)
        async with running(fake, env, tmp_path) as bot:

            # The lobby: Alice hosts, Bob joins, Alice adds an AI and starts.
            alice_id, bob_id = members
            _, created = await humans.slash(alice_id, "new", "risk", options={
                "setup": "random_deal", "placement": "bulk_sequential"})
            assert translate("title.risk", LANGUAGE) in created.content
            await humans.slash(bob_id, "game", "join")
            _, added = await humans.slash(alice_id, "game", "add-ai")
            assert "🤖" in added.content
            _, begun = await humans.slash(alice_id, "game", "start")
            assert fragment("lobby.started", LANGUAGE) in begun.content
            snapshot = await humans.settled()
            assert snapshot.status == "running"
            seats = {p.id: p.ai for p in humans.state.players}
            assert sorted(seats.items()) == sorted([(alice_id, False), (bob_id, False), (1, True)])

            # Play until somebody wins, killing and restarting the bot once along the way.
            restarted, restart_note = False, ""
            while humans.snapshot is not None and humans.snapshot.status == "running":
                assert humans.interactions < MAX_INTERACTIONS, f"no winner after {humans.interactions} interactions"
                elapsed = time.monotonic() - started
                assert elapsed < TIME_BUDGET_S, f"no winner after {elapsed:.0f}s ({humans.interactions} interactions)"
                in_play = humans.state.phase not in SETUP_PHASES
                current = any(c.startswith(("risk:move:", "risk:stop:")) for c in humans.offered)
                if not restarted and in_play and humans.interactions >= RESTART_AFTER and (
                        current or humans.interactions >= RESTART_LATEST):
                    restarted = True
                    restart_note = f"restart after {humans.interactions} interactions at seq {humans.state.seq}"
                    await bot.restart(fake, db, humans.snapshot)
                    if humans.first_button is not None and humans.first_button not in humans.offered:
                        await humans.press_stale_button(humans.first_button)
                    if current:
                        await humans.press_current_button()
                    await humans.settled()
                    continue
                await humans.step()
                await humans.settled()
            assert restarted, f"the game ended after {humans.interactions} interactions, before the restart"

            # Somebody won, and everybody was told.
            final = humans.snapshot
            assert final is not None and final.status == "finished"
            state = final.parse(RiskState)
            assert state.phase is Phase.GAME_OVER and state.winner is not None
            assert RULESET.winners(state) == [state.winner]
            won = [fragment(f"risk.event.game_won.{how}", LANGUAGE) for how in ("last_standing", "mission")]
            winner = state.name(state.winner)
            channel = fake.world.channel["id"]
            await fake.wait_until(lambda: any(winner in m.content and any(w in m.content for w in won)
                                              for m in fake.messages(channel) if not m.ephemeral),
                                  STEP_TIMEOUT_S, what=f"{winner} wins, in Korean")
            _, status = await humans.slash(alice_id, "game", "status", public=False)
            assert fragment("status.winner", LANGUAGE) in status.content
            assert translate("status.state.finished", LANGUAGE) in status.content
            said = " ".join(m.content for m in fake.messages(channel))
            assert len(re.findall(r"[\uac00-\ud7a3]", said)) > 1000, "the game spoke Korean"
            used = humans.used
            assert used["/risk place"] and used["/risk attack"], dict(used)
            assert used["/risk fortify"] + used["/risk endturn"], dict(used)
            assert used["button move"] + used["button stop"] + used["button blitz"], dict(used)
            print(f"winner {state.name(state.winner)} after {humans.interactions} interactions, turn {state.turn},"
                  f" {final.actions} actions, {time.monotonic() - started:.1f}s; {restart_note};"
                  f" used {dict(humans.used)}")
        assert integrity(db) == "ok"
        assert not fake.unhandled(), [str(r) for r in fake.unhandled()]
        assert TOKEN not in bot.logs()
