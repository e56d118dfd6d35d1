"""A whole Wizard's Quest game through the real bot process, on a Russian server (the language of its seed
rulebook): one human and two AI seats, to a winner, every post and private answer in Russian.

The unmodified `python bot.py` runs as a subprocess pointed at a FakeDiscord on 127.0.0.1. The test plays the
human seat: it reads the game from the bot's SQLite file (read-only), lets the baseline policy pick the action and
turns it into the /wq command, button or menu a player would use. AI seats play inside the bot.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from engine.core.i18n import translate
from engine.games.wizards_quest import RULESET, WQState
from engine.games.wizards_quest import actions as A
from engine.games.wizards_quest.state import Phase
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

HUMAN_SEED = 71
MAX_INTERACTIONS = 600
"""Simulated games of this line-up need 30–150 human decisions; the round limit bounds the rest."""
ROUND_LIMIT = 30
TIME_BUDGET_S = 50.0
LANGUAGE = "ru"
STALE_TEXT = fragment("button.stale", LANGUAGE)


class Human(Driver):
    """Plays the human seat through Discord: the baseline policy decides, /wq commands, buttons and menus act."""

    def __init__(self, fake: FakeDiscord, db: Path, member: dict[str, Any]) -> None:
        super().__init__(fake, db)
        self.member = member
        self.id = int(member["user"]["id"])
        self.policy = RULESET.policy("baseline")
        self.rng = random.Random(HUMAN_SEED)
        self.offered: list[str] = []
        """The /wq buttons on the answer to the last action (current until the next action)."""
        self.menus: list[tuple[SentMessage, dict[str, Any]]] = []
        """The select menus on that answer, with their messages."""
        self.first_button: str | None = None
        self.battled = False
        """Whether the human's seat has come to a battle or the end of a campaign (the decisions buttons answer)."""

    async def slash(self, *path: str, options: dict[str, Any] | None = None,
                    public: bool = True) -> tuple[InteractionRecord, SentMessage]:
        given = {k: v for k, v in (options or {}).items() if v is not None}
        record = await self.fake.slash(path[0], *path[1:], options=given, user=self.member)
        return record, await self.answer(record, "/" + " ".join(path), public=public)

    async def button(self, custom_id: str, *, public: bool = True) -> InteractionRecord:
        record = await self.fake.button(custom_id, user=self.member)
        await self.answer(record, f"button {custom_id.split(':')[1]}", public=public)
        return record

    @property
    def state(self) -> WQState:
        assert self.snapshot is not None
        return self.snapshot.parse(WQState)

    async def settled(self) -> GameSnapshot:
        """The game once the AI seats have played: the human decides, or it is over."""
        return await self.settle(lambda snapshot: any(
            d.player == self.id for d in RULESET.pending(snapshot.parse(WQState))[:1]))

    async def step(self) -> None:
        """Take the human's pending decision once."""
        before = self.state
        decisions = RULESET.pending(before)
        assert decisions and decisions[0].player == self.id, f"the bot left {decisions} undecided at {before.seq}"
        action = self.policy.choose(before, self.id, self.rng)
        self.battled = self.battled or isinstance(action, A.Roll | A.End | A.Capture)
        record = await self.perform(before, action)
        after = (await self.settled()).parse(WQState)
        assert after.seq > before.seq, f"{action!r} was answered but changed nothing"
        await self.collect(record, after)

    def offer(self, custom_id: str) -> bool:
        return custom_id in self.offered

    async def perform(self, s: WQState, action: A.Action) -> InteractionRecord:
        """Send the command, or press the button or menu, that makes `action`."""
        seq = s.seq
        match action:
            case A.ChooseCastle(castle=castle):
                record, _ = await self.slash("wq", "castle", options={"castle": castle})
            case A.Claim(territory=territory):
                record, _ = await self.slash("wq", "claim", options={"territory": territory})
            case A.Hide(owner=owner, treasure=kind, territory=territory):
                record, _ = await self.slash("wq", "hide", options={"treasure": f"{owner}:{kind}",
                                                                    "territory": territory})
            case A.Place(placements=placements):
                (first, count), *rest = placements.items()
                more = " ".join(f"{loc}:{n}" for loc, n in rest) or None
                record, _ = await self.slash("wq", "place", options={"location": first, "count": count, "more": more})
            case A.Buy(leader=leader, location=location):
                record, _ = await self.slash("wq", "buy", options={"leader": leader, "location": location})
            case A.Draw():
                record, _ = await self.slash("wq", "draw")
            case A.Play(card=card, location=location, to=to, count=count, leader=leader):
                record, _ = await self.slash("wq", "play", options={"card": card, "location": location, "to": to,
                                                                    "count": count, "leader": leader})
            case A.Done():
                record, _ = await self.slash("wq", "done")
            case A.Declare(source=source, target=target, leader=leader, boat=boat):
                record, _ = await self.slash("wq", "attack", options={"source": source, "target": target,
                                                                      "leader": leader, "boat": boat or None})
            case A.FreeAttack(source=source, beast=beast, boat=boat):
                record, _ = await self.slash("wq", "free", options={"beast": beast, "source": source,
                                                                    "boat": boat or None})
            case A.Aid(source=source, count=count):
                record = await self.aid(source, count)
            case A.Roll(times=times, until_below=until_below):
                verb = {(1, None): "roll", (3, None): "roll3", (0, None): "rollall", (0, 3): "rollsafe"}.get(
                    (times, until_below))
                if verb is not None and self.offer(f"wq:{verb}:{seq}"):
                    record = await self.button(f"wq:{verb}:{seq}")
                else:
                    record, _ = await self.slash("wq", "roll", options={"times": times, "until_below": until_below})
            case A.Stop() | A.Cancel():
                if self.offer(f"wq:{action.type}:{seq}"):
                    record = await self.button(f"wq:{action.type}:{seq}")
                else:
                    record, _ = await self.slash("wq", action.type)
            case A.Capture(count=count, leader=leader):
                button = f"wq:capture:{seq}:{count}" + (":leader" if leader else "")
                if self.offer(button):
                    record = await self.button(button)
                else:
                    record, _ = await self.slash("wq", "capture", options={"count": count, "leader": leader})
            case A.ChooseRegion(region=region):
                record = await self.button(f"wq:region:{seq}:{region}")
            case A.MoveMage(territory=None):
                record = await self.button(f"wq:mage:{seq}")
            case A.MoveMage(territory=territory):
                record, _ = await self.slash("wq", "mage", options={"territory": territory})
            case A.End():
                record = await self.button(f"wq:end:{seq}")
            case _:
                raise AssertionError(f"the baseline policy chose {action!r}, which this driver cannot send")
        return record

    async def aid(self, source: str, count: int) -> InteractionRecord:
        """Aid through the menu under the last answer when it offers exactly this, else with /wq aid."""
        value = f"{source}:{count}"
        for message, menu in self.menus:
            if value in {o["value"] for o in menu["options"]}:
                record = await self.fake.select(menu["custom_id"], [value], message=message, user=self.member)
                await self.answer(record, "aid menu")
                return record
        record, _ = await self.slash("wq", "aid", options={"source": source, "count": count})
        return record

    async def collect(self, record: InteractionRecord, s: WQState) -> None:
        """Wait for the buttons the bot must offer for the decision pending now (they come with its last message)."""
        decisions = RULESET.pending(s)
        expected = {"battle": f"wq:roll:{s.seq}", "attack": f"wq:end:{s.seq}", "region": f"wq:region:{s.seq}:1",
                    "ring": f"wq:mage:{s.seq}"}.get(decisions[0].kind) if decisions else None

        def messages() -> list[SentMessage]:
            return self.posted_after(record)

        if expected is not None:
            await self.fake.wait_until(lambda: any(expected in m.custom_ids() for m in messages()), STEP_TIMEOUT_S,
                                       what=f"the button {expected}")
        self.offered = [c for m in messages() for c in m.custom_ids() if c.startswith("wq:")]
        self.menus = [(m, c) for m in messages() for c in iter_components(m.components) if c["type"] == STRING_SELECT]
        if self.first_button is None and self.offered:
            self.first_button = self.offered[0]

    async def press_stale_button(self) -> None:
        """A button from long ago: the bot answers privately that it is stale, and nothing changes."""
        assert self.first_button is not None
        before = self.refresh()
        record = await self.fake.button(self.first_button, user=self.member)
        message = await self.answer(record, "stale button", public=False)
        assert STALE_TEXT in message.content, message.content
        assert self.refresh() == before


async def test_one_human_and_two_ais_play_wizards_quest_to_a_winner(tmp_path: Path) -> None:
    started = time.monotonic()
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(World(locale=LANGUAGE), token=TOKEN) as fake:
        alice = await fake.add_member("Alice")
        env = bot_env(fake.env(), db)
        human = Human(fake, db, alice)
        async with running(fake, env, tmp_path):

            _, created = await human.slash("new", "wizards-quest", options={
                                                                   "round_limit": ROUND_LIMIT})
            assert translate("title.wizards_quest", LANGUAGE) in created.content
            await human.slash("game", "add-ai")
            await human.slash("game", "add-ai")
            _, begun = await human.slash("game", "start")
            assert fragment("lobby.started", LANGUAGE) in begun.content
            assert (await human.settled()).status == "running"
            assert sorted(p.ai for p in human.state.players) == [False, True, True]

            stale_checked = False
            while human.snapshot is not None and human.snapshot.status == "running":
                assert human.interactions < MAX_INTERACTIONS, f"no winner after {human.interactions} interactions"
                elapsed = time.monotonic() - started
                assert elapsed < TIME_BUDGET_S, f"no winner after {elapsed:.0f}s ({human.interactions} interactions)"
                if not stale_checked and human.first_button is not None and human.first_button not in human.offered:
                    await human.press_stale_button()
                    stale_checked = True
                    continue
                await human.step()
                await human.settled()

            final = human.snapshot
            assert final is not None and final.status == "finished"
            state = final.parse(WQState)
            assert state.phase is Phase.GAME_OVER and state.winners

            def crowned() -> bool:
                return any("👑" in m.content and any(state.name(w) in m.content for w in state.winners)
                           for m in fake.messages() if not m.ephemeral)

            await fake.wait_until(crowned, STEP_TIMEOUT_S, what="the announcement of the winner")
            second = translate("wq.event.round_started", LANGUAGE, round=2)
            assert state.round < 2 or any(second in m.content and "🐉" in m.content and "🧙" in m.content
                       for m in fake.messages() if not m.ephemeral), "a round's automated phases make one message"
            said = " ".join(m.content for m in fake.messages())
            assert len(re.findall(r"[а-яё]", said, re.I)) > 1000, "the game spoke Russian"
            used = human.used
            assert used["/wq castle"] and used["/wq claim"] and used["/wq hide"] and used["/wq place"], dict(used)
            assert sum(n for k, n in used.items() if k.startswith("button")) or not human.battled, dict(used)
            print(f"winners {[state.name(w) for w in state.winners]} after {human.interactions} interactions,"
                  f" round {state.round}, {final.actions} actions, {time.monotonic() - started:.1f}s;"
                  f" used {dict(used)}")
        assert integrity(db) == "ok"
        assert not fake.unhandled(), [str(r) for r in fake.unhandled()]

