"""Play: a player's action applied exactly once, then the AI seats and stand-ins answer theirs."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError

from engine.core.errors import RuleError
from engine.core.models import Action
from engine.core.play import ai_random
from engine.games import get
from engine.service.games import Games, lobby_of
from engine.service.models import Outcome
from engine.store import StoreUnavailable
from engine.table import Lobby

log = logging.getLogger("gamemaster.service")

MAX_AI_STEPS = 100_000
"""A safety valve: AI seats answering one command (an all-AI game plays out whole) stop after this many."""


class Play(Games):
    """Actions: the player's command, then every decision AI seats and stand-ins answer."""

    async def act(self, channel_id: int, user_id: int, data: dict[str, Any],
                  interaction_id: str | None = None, game_name: str | None = None) -> Outcome:
        """Apply one player command exactly once (E_DUPLICATE for an interaction applied already); a RuleError
        says whether anything changed.

        With `game_name`, a channel playing another game refuses it: one game's commands never reach another's
        rules.
        """
        async with self._command(channel_id, interaction_id):
            game = await self.live(channel_id)
            if game.status != "running":
                raise RuleError("E_NOT_STARTED")
            ruleset = get(game.ruleset)
            if game_name is not None and ruleset.name != game_name:
                raise RuleError("E_OTHER_GAME", game=ruleset.title)
            lobby = lobby_of(game)
            state = self.state_of(game)
            stand_ins = lobby.stand_ins()
            if any(d.player in stand_ins for d in ruleset.pending(state)):
                healing = Outcome(game=game, ruleset=ruleset, state=state)  # a storage fault stopped AI seats
                await self._after(healing, lobby)
                game, state = healing.game, healing.state or state
            try:
                action = ruleset.parse_action({**data, "player": user_id})
            except ValidationError as err:
                raise RuleError("E_BAD_ACTION", problem=err.errors()[0]["msg"]) from err
            new_state, events = ruleset.apply(state, action)
            outcome = Outcome(game=game, ruleset=ruleset, state=state)
            await self._save(outcome, action, new_state, events, interaction_id, ai=False)
            try:
                status = lobby.status.get(user_id)
                if status is not None and ((status.timeouts and not status.absent) or status.clock_left is not None):
                    if not status.absent:
                        status.timeouts = 0  # the count is of consecutive timeouts (RISK-DIG-48)
                    status.clock_left = None  # the decision a vacation held is answered
                    await self._save_lobby(outcome, lobby)
                await self._keep_a_host(outcome, lobby)
                await self._after(outcome, lobby)
            except StoreUnavailable:  # the player's action is saved; AI seats go on at the next command
                log.exception("game %s: storage failed after a %s", game.id, action.type)
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

    async def _after(self, outcome: Outcome, lobby: Lobby) -> None:
        """After a command: AI seats and stand-ins play their decisions, then the seats' clocks are re-armed."""
        await self._run_ai(outcome, lobby)
        await self._arm(outcome, lobby)

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
        """Answer every decision of `players`, each as its own logged action, until none is theirs."""
        ruleset = outcome.ruleset
        for _ in range(MAX_AI_STEPS):
            state = outcome.state
            if state is None or ruleset.winners(state) is not None:
                return
            turn = [d for d in ruleset.pending(state) if d.player in players]
            if not turn:
                return
            action = self._stand_in(outcome, lobby, turn[0].player)
            new_state, events = ruleset.apply(state, action)
            await self._save(outcome, action, new_state, events, None, ai=True)

    async def _run_ai(self, outcome: Outcome, lobby: Lobby) -> None:
        """Let AI seats, and stand-ins for absent players (RISK-DIG-49), answer every decision that is theirs."""
        await self._play_for(outcome, lobby, lobby.stand_ins())
