"""A whole Battlemist game through the real bot process, on a German server: two humans and an AI seat, to the
round cap's winner, with the bot killed and restarted midway; posts, panels and private answers in German.

The unmodified `python bot.py` runs as a subprocess pointed at a FakeDiscord on 127.0.0.1. The test plays the
human seats: it reads the game from the bot's SQLite file (read-only), lets the baseline policy pick an action,
and sends it as a player would: `/bm move` for a move, `/bm orders …` lines then `/bm lock` for an order set, and
otherwise the button or menu of the player's private panel (`/bm choices`) that stands for it, or the panel's
first choice when the policy's action is not on it.
"""

from __future__ import annotations

import copy
import random
import re
import time
from pathlib import Path
from typing import Any

from engine.core.controls import Control
from engine.core.i18n import msg, translate
from engine.games.battlemist import RULESET, BMState, commands, legal
from engine.games.battlemist import economy as E
from engine.games.battlemist import movement as M
from engine.games.battlemist.state import Phase
from tests.discord.fakeapi import CHANNEL_PINNED_MESSAGE, InteractionRecord, SentMessage
from tests.discord.fakediscord import FakeDiscord
from tests.discord.payloads import World
from tests.e2e.botprocess import (
    ERROR_MARK,
    STEP_TIMEOUT_S,
    TOKEN,
    Driver,
    GameSnapshot,
    bot_env,
    integrity,
    read_game,
    running,
)
from tests.texts import fragment

HUMAN_SEED = 17
ROUND_CAP = 3
MAX_INTERACTIONS = 900
TIME_BUDGET_S = 240.0
RESTART_AFTER = 40
LANGUAGE = "de"
PANEL = fragment("bm.panel.title", LANGUAGE).split("(")[0].strip()
MOVED_ON = fragment("bm.panel.moved_on", LANGUAGE)


class Humans(Driver):
    """Plays the human seats through Discord."""

    def __init__(self, fake: FakeDiscord, db: Path, members: dict[int, dict[str, Any]]) -> None:
        super().__init__(fake, db)
        self.members = members
        self.policy = RULESET.policy("baseline")
        self.rng = random.Random(HUMAN_SEED)
        self.old_panel: tuple[dict[str, Any], str, int] | None = None
        """A panel as it was before it was used (its payload, a custom id on it, whose it is)."""

    @property
    def state(self) -> BMState:
        assert self.snapshot is not None
        return self.snapshot.parse(BMState)

    def deciding(self, snapshot: GameSnapshot) -> list[int]:
        return [d.player for d in RULESET.pending(snapshot.parse(BMState)) if d.player in self.members]

    async def settled(self) -> GameSnapshot:
        return await self.settle(lambda snapshot: bool(self.deciding(snapshot)))

    async def slash(self, pid: int, *path: str, options: dict[str, Any] | None = None,
                    public: bool = True) -> tuple[InteractionRecord, SentMessage]:
        given = {k: v for k, v in (options or {}).items() if v is not None}
        record = await self.fake.slash(path[0], *path[1:], options=given, user=self.members[pid])
        return record, await self.answer(record, "/" + " ".join(path), public=public)

    async def quiet(self, pid: int, *path: str, options: dict[str, Any] | None = None) -> None:
        """A command whose result is private (a draft line): acknowledged, and no refusal."""
        before = self.refresh().actions
        record = await self.fake.slash(path[0], *path[1:], options=options or {}, user=self.members[pid])
        self.interactions += 1
        self.used["/" + " ".join(path)] += 1
        await self.fake.wait_until(lambda: read_game(self.db, self.channel["id"]).actions > before
                                   or self.refused(record), STEP_TIMEOUT_S, what=f"/{' '.join(path)} applied")
        assert not self.refused(record), f"/{' '.join(path)}: {self.refused(record)}"

    def refused(self, record: InteractionRecord) -> str | None:
        warned = [m.content for m in self.fake.responses(record.id) if m.content.startswith(ERROR_MARK)]
        return warned[0] if warned else None

    async def panel(self, pid: int) -> SentMessage:
        _, shown = await self.slash(pid, "bm", "choices", public=False)
        assert shown.content.startswith(PANEL), shown.content
        return shown

    async def click(self, pid: int, shown: SentMessage, custom_id: str, value: str | None) -> None:
        """Press a panel's button or choose in its menu: the panel is updated in place, and nothing refused."""
        edits = shown.edits
        message = copy.deepcopy(shown.payload)
        if value is None:
            record = await self.fake.button(custom_id, message=message, user=self.members[pid])
        else:
            record = await self.fake.select(custom_id, [value], message=message, user=self.members[pid])
        self.interactions += 1
        self.used["panel " + custom_id.split(":")[1]] += 1
        await self.fake.wait_until(lambda: shown.edits > edits or self.refused(record), STEP_TIMEOUT_S,
                                   what="the panel's update")
        assert not self.refused(record), self.refused(record)
        assert not shown.content.startswith(MOVED_ON), shown.content
        if self.old_panel is None:
            self.old_panel = (message, custom_id, pid)

    async def step(self) -> None:
        """One human decision: the policy picks, and the driver sends it the way a player would."""
        s = self.state
        pid = self.deciding(self.snapshot)[0]  # type: ignore[arg-type]
        action = self.policy.choose(s, pid, self.rng)
        if isinstance(action, M.Move):
            await self.slash(pid, "bm", "move", options={"n": action.n, "unit": action.unit,
                                                          "origin": action.origin, "path": " ".join(action.path)})
        elif isinstance(action, E.EconOrders) and action.lines and not commands.draft_lines(s, pid):
            for line in action.lines:
                await self.order(pid, line)
            await self.slash(pid, "bm", "lock")
        else:
            await self.from_panel(pid, s, legal.controls(s, pid), commands.data(action))

    async def order(self, pid: int, line: E.Line) -> None:
        match line:
            case E.Recruit(unit=unit, region=region, n=n):
                await self.quiet(pid, "bm", "orders", "recruit", options={"unit": unit, "n": n, "region": region})
            case E.Build(region=region, city=city):
                await self.quiet(pid, "bm", "orders", "build", options={"region": region, "city": city})
            case E.NewHero():
                await self.quiet(pid, "bm", "orders", "hero")
            case E.Guild():
                await self.quiet(pid, "bm", "orders", "guild")
            case E.Merchant(give=give, amount=amount, get=get):
                await self.quiet(pid, "bm", "orders", "merchant", options={"give": give, "amount": amount, "get": get})
            case E.PlayCard(card=card):
                await self.quiet(pid, "bm", "play", options={"card": card})
            case E.CastSpell(spell=spell):
                await self.quiet(pid, "bm", "cast", options={"spell": spell})

    async def from_panel(self, pid: int, s: BMState, controls: list[Control], wanted: dict[str, Any]) -> None:
        """The panel's control for `wanted`, or its first one; the panel offers what the rules compute."""
        shown = await self.panel(pid)
        ids = [c["custom_id"] for row in shown.components for c in row["components"]]
        moment = commands.moment(s, pid)
        picks = [(i, None, c) for i, c in enumerate(controls) if not c.options]
        picks += [(i, j, o) for i, c in enumerate(controls) for j, o in enumerate(c.options)]
        i, j, control = next((p for p in picks if p[2].action == wanted), picks[0])
        digest = commands.digest(control.action)
        if j is None:
            custom_id, value = f"bm:do:{moment}:{i}:{digest}", None
        else:
            custom_id, value = f"bm:pick:{moment}:{i}", f"{j}:{digest}"
        assert custom_id in ids, f"the panel lacks {custom_id}: {ids}"
        await self.click(pid, shown, custom_id, value)

    async def press_old_panel(self) -> None:
        """A panel used long ago: pressing it again shows the fresh panel and applies nothing."""
        assert self.old_panel is not None
        message, custom_id, pid = self.old_panel
        before = self.refresh()
        shown = self.fake.message(message["id"])
        assert shown is not None and shown.ephemeral
        edits = shown.edits
        if custom_id.startswith("bm:pick:"):
            found = next(c for row in message["components"] for c in row["components"] if c["custom_id"] == custom_id)
            value = found["options"][0]["value"]
            record = await self.fake.select(custom_id, [value], message=message, user=self.members[pid])
        else:
            record = await self.fake.button(custom_id, message=message, user=self.members[pid])
        self.interactions += 1
        self.used["old panel"] += 1
        await self.fake.wait_until(lambda: shown.edits > edits or self.refused(record), STEP_TIMEOUT_S,
                                   what="the old panel's update")  # acknowledged silently, then edited in place
        assert not self.refused(record), self.refused(record)
        assert MOVED_ON in shown.content, shown.content
        assert self.refresh() == before


async def test_two_humans_and_an_ai_play_battlemist_to_the_end_across_a_restart(tmp_path: Path) -> None:
    started = time.monotonic()
    db = tmp_path / "bot.sqlite3"
    async with FakeDiscord(World(locale=LANGUAGE), token=TOKEN) as fake:
        alice, bob = await fake.add_member("Alice"), await fake.add_member("Bob")
        members = {int(m["user"]["id"]): m for m in (alice, bob)}
        alice_id, bob_id = members
        env = bot_env(fake.env(), db)
        humans = Humans(fake, db, members)
        async with running(fake, env, tmp_path) as bot:
            _, created = await humans.slash(alice_id, "new", "battlemist",
                                            options={"round_cap": ROUND_CAP, "player_trades": True})
            assert translate("title.battlemist", LANGUAGE) in created.content
            await humans.slash(bob_id, "game", "join")
            await humans.slash(alice_id, "game", "add-ai")
            _, begun = await humans.slash(alice_id, "game", "start")
            assert fragment("lobby.started", LANGUAGE) in begun.content
            assert (await humans.settled()).status == "running"

            restarted = False
            while humans.snapshot is not None and humans.snapshot.status == "running":
                assert humans.interactions < MAX_INTERACTIONS, f"no winner after {humans.interactions} interactions"
                elapsed = time.monotonic() - started
                assert elapsed < TIME_BUDGET_S, f"no winner after {elapsed:.0f}s ({humans.interactions} interactions)"
                if not restarted and humans.interactions >= RESTART_AFTER:
                    restarted = True
                    await bot.restart(fake, db, humans.snapshot)
                    await humans.press_old_panel()
                    await humans.settled()
                    continue
                await humans.step()
                await humans.settled()
            assert restarted, f"the game ended after {humans.interactions} interactions, before the restart"

            final = humans.snapshot
            assert final is not None and final.status == "finished"
            state = final.parse(BMState)
            assert state.phase is Phase.GAME_OVER and state.winners and state.round == ROUND_CAP
            channel = fake.world.channel["id"]

            def crowned() -> bool:
                return any("🏆" in m.content and any(state.name(w) in m.content for w in state.winners)
                           for m in fake.messages(channel) if not m.ephemeral)

            await fake.wait_until(crowned, STEP_TIMEOUT_S, what="the announcement of the winner")
            public = [m for m in fake.messages(channel) if not m.ephemeral]
            assert any(m.files for m in public), "the board was posted as a picture"
            [board] = [m for m in public if m.payload.get("pinned")]  # BM-DIG-17: one board, kept up to date
            assert board.content.startswith("📌") and board.edits > 10 and [f.filename for f in board.files] == [
                "board.png"]
            assert sum(m.payload["type"] == CHANNEL_PINNED_MESSAGE for m in public) == 1, "pinned more than once"
            last = next(m for m in reversed(public) if "🏆" in m.content)
            assert not last.files or last.files[0].data == board.files[0].data, "the pinned board is the final one"
            locked = translate("bm.text.event.econ_locked", LANGUAGE, player="", what=msg("bm.text.what.orders"))
            assert any(locked.strip("✅ ") in m.content for m in public)
            private = (fragment("bm.hand.cards", LANGUAGE), fragment("bm.panel.orders", LANGUAGE))
            assert not any(p in m.content for p in private for m in public), "a hand or an orders draft went public"
            said = " ".join(m.content for m in public)
            assert len(re.findall(r"[äöüßÄÖÜ]", said)) > 50 and "Runde" in said, "the game spoke German"
            used = humans.used
            assert used["/bm move"] and used["/bm lock"] and used["panel do"], dict(used)
            print(f"winners {[state.name(w) for w in state.winners]} after {humans.interactions} interactions,"
                  f" {final.actions} actions, {time.monotonic() - started:.1f}s; used {dict(used)}")
        assert integrity(db) == "ok"
        assert not fake.unhandled(), [str(r) for r in fake.unhandled()]
        assert TOKEN not in bot.logs()

