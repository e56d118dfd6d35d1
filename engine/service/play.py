"""Play: a player's action applied exactly once, then the AI seats and stand-ins answer theirs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from engine.core.errors import RuleError, first_problem
from engine.core.i18n import Msg, mention, msg
from engine.core.models import Action
from engine.core.play import ai_random
from engine.games import get, title
from engine.service.games import lobby_of
from engine.service.models import Outcome
from engine.service.news import Told
from engine.service.posts import Posts
from engine.store import GameRow, TimerRow, VersionConflict
from engine.table import Lobby

log = logging.getLogger("gamemaster.service")

CONFLICT_TRIES = 3
"""How often a player's command is tried when another process changed the game at the same moment."""
AI_BATCH = 20
"""AI actions played under one hold of a channel's lock: a player's command waits for at most this many."""
MAX_AI_STEPS = 100_000
"""A safety valve: AI seats answering one command (an all-AI game plays out whole) stop after this many."""
RESUME_SEAT = -1
"""The timers' seat of a game's resume timer, which belongs to no seat's clock."""


class Play(Posts):
    """Actions: the player's command, then every decision AI seats and stand-ins answer, in the background."""

    async def act(self, channel_id: int, user_id: int, data: dict[str, Any],
                  interaction_id: str | None = None, game_name: str | None = None) -> Outcome:
        """Apply one player command exactly once (E_DUPLICATE for an interaction applied already); a RuleError
        says whether anything changed. The command's post is queued before this returns; AI seats and stand-ins
        answer what follows in the background (`idle` waits for them).

        With `game_name`, a channel playing another game refuses it: one game's commands never reach another's
        rules. A command that met another process's change to the game, before it changed anything itself, is
        tried again on the new position.
        """
        for _ in range(CONFLICT_TRIES - 1):
            try:
                return await self._act(channel_id, user_id, data, interaction_id, game_name)
            except RuleError as err:
                if err.code != "E_CONFLICT":
                    raise
        return await self._act(channel_id, user_id, data, interaction_id, game_name)

    async def _act(self, channel_id: int, user_id: int, data: dict[str, Any], interaction_id: str | None,
                   game_name: str | None) -> Outcome:
        async with self._command(channel_id, interaction_id):
            game = await self.live(channel_id)
            if game.status != "running":
                raise RuleError("E_NOT_STARTED")
            ruleset = get(game.ruleset)
            if game_name is not None and ruleset.name != game_name:
                raise RuleError("E_OTHER_GAME", game=title(ruleset.name))
            lobby = lobby_of(game)
            state = self.state_of(game)
            if any(d.player in lobby.stand_ins() for d in ruleset.pending(state)):
                caught_up = Outcome(game=game, ruleset=ruleset, state=state)  # the AI seats were cut off
                await self._play_for(caught_up, lobby, lobby.stand_ins())
                game, state = caught_up.game, caught_up.state or state
            try:
                action = ruleset.parse_action({**data, "player": user_id})
            except ValidationError as err:
                raise RuleError("E_BAD_ACTION", problem=first_problem(err)[1]) from err
            new_state, events = ruleset.apply(state, action)
            outcome = Outcome(game=game, ruleset=ruleset, state=state)
            await self._save(outcome, action, new_state, events, interaction_id, ai=False)
            status = lobby.status.get(user_id)
            if status is not None and ((status.timeouts and not status.absent) or status.clock_left is not None):
                if not status.absent:
                    status.timeouts = 0  # the count is of consecutive timeouts (RISK-DIG-48)
                status.clock_left = None  # the decision a vacation held is answered
                await self._save_lobby(outcome, lobby)
            await self._keep_a_host(outcome, lobby)
            await self._after(outcome, lobby, actor=user_id)
        return outcome

    async def _keep_a_host(self, outcome: Outcome, lobby: Lobby) -> None:
        """When the host is out of the game (resigned, kicked, eliminated), the next human still playing is host."""
        state = outcome.state
        if state is None or outcome.game.status != "running":
            return
        alive = set(outcome.ruleset.alive(state))
        heir = next((s.id for s in lobby.seats if not s.ai and s.id in alive), None)
        if outcome.game.host_id in alive or heir is None:
            return
        outcome.game = await self.store.update_game(outcome.game, host_id=heir)
        outcome.new_host = heir
        self._remember(outcome.game.id, outcome.game.version, state)

    async def _after(self, outcome: Outcome, lobby: Lobby, *, lead: Msg | None = None, actor: int | None = None,
                     also_ping: Iterable[int] = (), picture: bool = False, opening: Sequence[Told] = ()) -> None:
        """After a command: the seats' clocks, the post that tells it, then the AI seats and stand-ins play."""
        await self._arm(outcome, lobby)
        tail = [] if outcome.new_host is None else [msg("table.new_host", player=mention(outcome.new_host))]
        await self._announce(outcome, lobby, lead=lead, actor=actor, tail=tail, also_ping=also_ping, picture=picture,
                             opening=opening)
        state = outcome.state
        if state is not None and outcome.ruleset.winners(state) is None and any(
                d.player in lobby.stand_ins() for d in outcome.ruleset.pending(state)):
            await self._keep_alive(outcome.game.id)
            self._kick(outcome.game.channel_id)

    async def _keep_alive(self, game_id: int) -> None:
        """While this process plays a game's AI seats, a resume timer stays armed a little ahead: if the process
        dies mid-way, the timer falls due and whichever process fires it plays on (`resume`)."""
        now = self.clock()
        due = self._resumes.get(game_id)
        if due is not None and due - now > self.takeover_after / 2:
            return  # armed far enough ahead: no write for each batch
        await self.store.delete_timers(game_id, RESUME_SEAT)
        await self.store.add_timers(game_id, RESUME_SEAT, [("resume", now + self.takeover_after, {})])
        self._resumes[game_id] = now + self.takeover_after
        self._timers_changed()

    async def _rest(self, game_id: int) -> None:
        """The game's AI seats have nothing left to play: its resume timer goes."""
        if self._resumes.pop(game_id, None) is not None:
            await self.store.delete_timers(game_id, RESUME_SEAT)

    async def play_on(self, game: GameRow, timer: TimerRow) -> None:
        """A resume timer fell due: the process playing the game's AI seats died (or is this one, slow); play on."""
        await self.store.delete_timer(timer.id)
        self._resumes.pop(game.id, None)
        if game.status != "running":
            return
        outcome = Outcome(game=game, ruleset=get(game.ruleset), state=self.state_of(game))
        await self._after(outcome, lobby_of(game))

    def _stand_in(self, outcome: Outcome, lobby: Lobby, player: int) -> Action:
        """What an AI stand-in plays for `player` (the ai policy, or the skip auto-play)."""
        state = outcome.state
        assert state is not None
        seat = lobby.seat(player)
        if seat is not None and not seat.ai and lobby.clock.timeout_action == "skip":
            return outcome.ruleset.timeout_action(state, player)
        policy = outcome.ruleset.policy(lobby.ai_policy)
        return policy.choose(state, player, ai_random(outcome.game.seed, state.seq))

    async def _play_for(self, outcome: Outcome, lobby: Lobby, players: set[int]) -> None:
        """Answer every decision of `players` at once, each as its own logged action, until none is theirs."""
        for _ in range(MAX_AI_STEPS):
            player = self._answerable(outcome, players)
            if player is None:
                return
            assert outcome.state is not None
            action = self._stand_in(outcome, lobby, player)
            new_state, events = outcome.ruleset.apply(outcome.state, action)
            await self._save(outcome, action, new_state, events, None, ai=True)

    # -- the AI seats of a channel, in the background

    def _kick(self, channel_id: int) -> None:
        """Let the channel's AI seats and stand-ins (RISK-DIG-49) answer what is theirs, after the command that
        woke them: one task per channel, one action at a time, each under the channel's lock."""
        task = self._runners.get(channel_id)
        if task is None or task.done():
            self._runners[channel_id] = asyncio.create_task(self._run(channel_id), name=f"ai-seats-{channel_id}")

    async def idle(self, channel_id: int) -> None:
        """Wait until the channel's AI seats and stand-ins have nothing left to answer."""
        while (task := self._runners.get(channel_id)) is not None and not task.done():
            await asyncio.shield(task)

    async def settle(self) -> None:
        """Wait until no channel's AI seats are playing (before the store closes)."""
        for channel_id in list(self._runners):
            await self.idle(channel_id)

    async def stop(self) -> None:
        """Stop every channel's AI seats between two actions (each action is one transaction): a restart resumes
        them where they stopped."""
        tasks = [task for task in self._runners.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._runners.clear()

    async def _run(self, channel_id: int) -> None:
        try:
            for _ in range(MAX_AI_STEPS):
                try:
                    if not await self._ai_step(channel_id):
                        return
                except VersionConflict:  # another process moved the game on: look again
                    continue
            log.error("channel %s: the AI seats stopped after %d actions", channel_id, MAX_AI_STEPS)
        except Exception:  # the store is down, or a bug: the next command in the channel, or a restart, resumes
            log.exception("channel %s: the AI seats stopped", channel_id)

    @staticmethod
    def _answerable(outcome: Outcome, stand_ins: set[int]) -> int | None:
        """The first seat among `stand_ins` with a decision pending, while the game goes on; None if there is none."""
        state = outcome.state
        if state is None or outcome.ruleset.winners(state) is not None:
            return None
        return next((d.player for d in outcome.ruleset.pending(state) if d.player in stand_ins), None)

    async def _ai_step(self, channel_id: int) -> bool:
        """Up to AI_BATCH actions of AI seats and stand-ins under one hold of the channel's lock (a command waits
        at most that long); False once none is due, then what they did is posted (also when the batch's last
        action ended the game)."""
        async with self.exclusive(channel_id):
            game = await self.store.live_game(channel_id)
            if game is None or game.status != "running":
                return False
            ruleset, lobby = get(game.ruleset), lobby_of(game)
            outcome = Outcome(game=game, ruleset=ruleset, state=self.state_of(game))
            stand_ins = lobby.stand_ins()
            for _ in range(AI_BATCH):
                state = outcome.state
                assert state is not None
                turn = self._answerable(outcome, stand_ins)
                if turn is None:
                    break
                action = self._stand_in(outcome, lobby, turn)
                new_state, events = ruleset.apply(state, action)
                await self._save(outcome, action, new_state, events, None, ai=True)
            else:
                if self._answerable(outcome, stand_ins) is not None:
                    await self._keep_alive(game.id)
                    return True  # more to play: a command may take the lock between two batches
            await self._keep_a_host(outcome, lobby)
            await self._arm(outcome, lobby)
            await self._announce(outcome, lobby)
            await self._rest(game.id)
            return False
