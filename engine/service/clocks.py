"""Clocks: each pending seat's deadline and reminders, what happens when they fire, and resuming after a restart."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from engine.core.errors import RuleError
from engine.core.i18n import mention, msg, timestamp, translate
from engine.core.models import Decision
from engine.games import get, title
from engine.service.games import Games, lobby_of
from engine.service.lobby import LOBBY_DAYS
from engine.service.models import Alarm, Outcome
from engine.store import GameRow, TimerRow
from engine.table import REMINDERS, Lobby

log = logging.getLogger("gamemaster.service")


class Clocks(Games):
    """Deadlines, reminders and lobby expiry, armed in the store and fired by the timekeeper."""

    async def _seat_clocks(self, game_id: int) -> dict[int, float | None]:
        """Which seats have timers armed, with their deadline: the timers table as this process last wrote it (read
        again each time when other processes may write it too)."""
        clocks = self._armed.get(game_id)
        if clocks is None or self.store.shared:
            clocks = {}
            for timer in await self.store.timers(game_id):
                if timer.kind == "deadline":
                    clocks[timer.player] = timer.due_at
                elif timer.kind == "reminder":
                    clocks.setdefault(timer.player, None)
            self._armed[game_id] = clocks
        return clocks

    def _forget_clocks(self, game_id: int) -> None:
        """The game's timers changed outside `_arm`: read them again next time."""
        self._armed.pop(game_id, None)

    async def _arm(self, outcome: Outcome, lobby: Lobby) -> None:
        """Give each pending human seat a deadline and reminders; disarm the seats no longer pending.

        A seat's clock runs while it stays pending and restarts when the decision comes back to it. Mid-turn
        commands usually change nothing here and cost no database work.
        """
        game, state, ruleset = outcome.game, outcome.state, outcome.ruleset
        armed = await self._seat_clocks(game.id)
        over = state is None or game.status != "running" or ruleset.winners(state) is not None
        waiting: dict[int, Decision] = {}
        if not over and lobby.paused is None:
            assert state is not None
            stand_ins = lobby.stand_ins()
            for decision in ruleset.pending(state):
                if decision.player not in stand_ins:
                    waiting.setdefault(decision.player, decision)
        for player in armed.keys() - waiting.keys():
            await self.store.delete_timers(game.id, player)
            armed.pop(player)
        now = self.clock()
        for player, decision in waiting.items():
            deadline = armed.get(player)
            if deadline is None:
                length = lobby.clock.seconds(decision, ruleset)
                if length is None:
                    continue
                if player in armed:  # reminders without their deadline: start the clock cleanly
                    await self.store.delete_timers(game.id, player)
                status = lobby.status.get(player)
                away = (status.vacation_until or 0.0) if status else 0.0
                left = status.clock_left if status and status.clock_left is not None else length
                deadline = armed[player] = await self._wind(game.id, player, max(now, away) + left, length)
            outcome.deadlines[player] = deadline

    async def _wind(self, game_id: int, player: int, due: float, length: float) -> float:
        """Arm one seat's deadline at `due` with its reminders (the timekeeper looks again); returns `due`."""
        now = self.clock()
        rows: list[tuple[str, float, dict[str, Any]]] = [("deadline", due, {"due": due})]
        rows += [("reminder", due - length * (1 - f), {"due": due}) for f in REMINDERS if due - length * (1 - f) > now]
        await self.store.add_timers(game_id, player, rows)
        self._timers_changed()
        return due

    def _timers_changed(self) -> None:
        if self._on_timers is not None:
            self._on_timers()

    async def _rewind(self, outcome: Outcome, lobby: Lobby, player: int | None = None) -> None:
        """Restart clocks from scratch: one seat's, or every seat's."""
        await self.store.delete_timers(outcome.game.id, player)
        self._forget_clocks(outcome.game.id)
        await self._arm(outcome, lobby)

    async def deadlines(self, game_id: int) -> dict[int, float]:
        """Each seat's running deadline."""
        return {p: due for p, due in (await self._seat_clocks(game_id)).items() if due is not None}

    async def drop_timer(self, timer: TimerRow) -> None:
        """Remove a timer that could not be handled."""
        await self.store.delete_timer(timer.id)
        self._forget_clocks(timer.game_id)

    def on_timers_changed(self, callback: Callable[[], None]) -> None:
        """Call `callback` whenever timers may have been added (the timekeeper wakes up early)."""
        self._on_timers = callback

    async def fire(self, timer: TimerRow) -> Alarm | None:
        """A due timer: remind the seat, or play its missed decision; None when it no longer applies."""
        row = await self.store.game(timer.game_id)
        if row is None:
            await self.store.delete_timer(timer.id)
            return None
        async with self.exclusive(row.channel_id):
            self._forget_clocks(timer.game_id)  # this timer goes now, whatever happens
            game = await self.store.game(timer.game_id)
            if game is None or timer.id not in {t.id for t in await self.store.timers(game.id)}:
                return None  # disarmed or handled meanwhile
            if timer.kind == "expiry":
                return await self._expire(game, timer)
            if timer.kind == "resume":
                await self.play_on(game, timer)
                return None
            lobby = lobby_of(game)
            try:
                state = self.state_of(game) if game.status == "running" and lobby.paused is None else None
            except RuleError:
                state = None
            ruleset = get(game.ruleset)
            decision = next((d for d in ruleset.pending(state) if d.player == timer.player), None) if state else None
            if decision is None:
                await self.store.delete_timer(timer.id)
                return None
            outcome = Outcome(game=game, ruleset=ruleset, state=state)
            due = float(timer.payload.get("due", timer.due_at))
            player = mention(timer.player)
            if timer.kind == "reminder":
                now = self.clock()
                later = [t for t in await self.store.timers(game.id) if t.player == timer.player and
                         t.kind == "reminder" and timer.due_at < t.due_at <= now]
                if due <= now or later:
                    await self.store.delete_timer(timer.id)
                    return None  # after downtime: the timeout itself, or the latest reminder, says it
                public = ruleset.view(state, None)  # the reminder is posted in the channel
                seen = next((d for d in ruleset.pending(public) if d.player == timer.player), decision)
                what = ruleset.prompt(seen, public, lobby.language)
                await self._remind(outcome, translate("timer.reminder", lobby.language, player=player, what=what,
                                                      due=timestamp(due)), timer, lobby.language)
                outcome.deadlines[timer.player] = due
                return Alarm(kind="reminder", player=timer.player, outcome=outcome, due=due)
            await self._play_for(outcome, lobby, {timer.player})  # RISK-DIG-42: the stand-in plays it
            await self.store.delete_timers(game.id, timer.player)  # a decision of theirs that follows gets a new clock
            status = lobby.status_of(timer.player)
            status.clock_left = None
            status.timeouts += decision.kind not in ruleset.reaction_kinds  # a missed defence: ruling 22
            newly_absent = not status.absent and status.timeouts >= lobby.clock.absent_after
            status.absent = status.absent or newly_absent  # RISK-DIG-48
            await self._save_lobby(outcome, lobby)
            if newly_absent:
                lead = msg("timer.absent", player=player, n=lobby.clock.absent_after)
            else:
                lead = msg("timer.timeout_skip" if lobby.clock.timeout_action == "skip" else "timer.timeout",
                                 player=player)
            await self._after(outcome, lobby, lead=lead, also_ping=[timer.player])
            return Alarm(kind="absent" if newly_absent else "timeout", player=timer.player, outcome=outcome,
                         due=due)

    async def _expire(self, game: GameRow, timer: TimerRow) -> Alarm | None:
        """Close a lobby that never started (LOBBY_DAYS after it opened)."""
        await self.store.delete_timer(timer.id)
        if game.status != "lobby":
            return None
        game = await self.store.update_game(game, status="abandoned")
        game = await self._tell(game, lobby_of(game), msg("lobby.expired", game=title(game.ruleset),
                                                                days=LOBBY_DAYS, host=mention(game.host_id)))
        return Alarm(kind="expired", player=game.host_id, outcome=Outcome(game=game, ruleset=get(game.ruleset),
                                                                          state=None), due=timer.due_at)

    async def resume_all(self) -> list[Outcome]:
        """After a restart: tell what a crash left untold (the end of a game too), re-arm the clocks, and let AI
        seats finish every decision that is theirs (a crash may have cut them off); the games that posted
        something."""
        for lobby in await self.store.lobbies_without_expiry():  # opened before lobbies expired
            await self.store.add_timers(lobby.id, 0, [("expiry", lobby.created_at + LOBBY_DAYS * 86400, {})])
        outcomes: list[Outcome] = []
        for game in [*await self.store.running_games(), *await self.store.untold_ends()]:
            async with self.exclusive(game.channel_id):
                fresh = await self.store.game(game.id)
                if fresh is None or fresh.status != game.status:
                    continue
                try:
                    outcome = Outcome(game=fresh, ruleset=get(fresh.ruleset), state=self.state_of(fresh))
                    await self._after(outcome, lobby_of(fresh))  # clocks a crash left unarmed too
                except Exception:  # one damaged game must not keep the others, or the bot, from starting
                    log.exception("game %s could not resume; its channel is told when someone acts there", game.id)
                    continue
                if outcome.posts:
                    outcomes.append(outcome)
        return outcomes
