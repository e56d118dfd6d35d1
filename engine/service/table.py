"""The table around a running game: vacations, pause, deadlines, kick, substitutes and votes."""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.i18n import mention, msg, timestamp
from engine.core.models import Action, Seat, json_text
from engine.core.seats import RESEAT, reseat
from engine.games import get
from engine.service.games import Games, lobby_of
from engine.service.models import Outcome, Step, VoteTally
from engine.service.news import who
from engine.table import MAX_DEADLINE_HOURS, MAX_VACATION_DAYS, MIN_DEADLINE_HOURS, Lobby, Result


class Tables(Games):
    """The host's and the players' controls of a running game."""

    async def _running(self, channel_id: int) -> tuple[Outcome, Lobby]:
        game = await self.live(channel_id)
        if game.status != "running":
            raise RuleError("E_NOT_STARTED")
        return Outcome(game=game, ruleset=get(game.ruleset), state=self.state_of(game)), lobby_of(game)

    @staticmethod
    def _host_only(outcome: Outcome, by: int, moderator: bool) -> None:
        if by != outcome.game.host_id and not moderator:
            raise RuleError("E_NOT_HOST", host=mention(outcome.game.host_id))

    def _playing_human(self, outcome: Outcome, lobby: Lobby, user_id: int) -> None:
        """Refuse unless `user_id` is a human seat still in the game."""
        seat = lobby.seat(user_id)
        if seat is None or seat.ai:
            raise RuleError("E_NOT_PLAYER")
        assert outcome.state is not None
        if user_id not in outcome.ruleset.alive(outcome.state):
            raise RuleError("E_ELIMINATED")

    async def vacation(self, channel_id: int, user_id: int, days: int,
                       interaction_id: str | None = None) -> tuple[Outcome, float]:
        """Stretch the seat's deadlines for `days` (1–14); returns when the vacation ends."""
        if not 1 <= days <= MAX_VACATION_DAYS:
            raise RuleError("E_VACATION_DAYS", most=MAX_VACATION_DAYS)
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._playing_human(outcome, lobby, user_id)
            now = self.clock()
            until = now + days * 86400
            status = lobby.status_of(user_id)
            running = (await self.deadlines(outcome.game.id)).get(user_id)
            if running is not None and status.clock_left is None:
                status.clock_left = max(0.0, running - max(now, status.vacation_until or 0.0))
            status.vacation_until = until
            await self._save_lobby(outcome, lobby)
            await self._rewind(outcome, lobby, user_id)
            outcome.game = await self._tell(outcome.game, lobby, msg(
                "table.vacation", player=mention(user_id), until=timestamp(until, "f")))
            return outcome, until

    async def back(self, channel_id: int, user_id: int, interaction_id: str | None = None) -> Outcome:
        """End an absence or a vacation: the player decides again, with what was left of the clock (a decision
        that came to them while away gets a whole one)."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._playing_human(outcome, lobby, user_id)
            status = lobby.status.get(user_id)
            if status is None or not (status.absent or status.timeouts or status.vacation_until):
                raise RuleError("E_NOT_AWAY")
            held = lobby.status.pop(user_id).clock_left
            if held is not None:
                lobby.status_of(user_id).clock_left = held
            await self._save_lobby(outcome, lobby)
            await self._rewind(outcome, lobby, user_id)
            await self._announce(outcome, lobby, lead=msg("table.back", player=mention(user_id)))
            return outcome

    async def pause(self, channel_id: int, by: int, moderator: bool, interaction_id: str | None = None) -> Outcome:
        """Stop every clock until `resume`; players may still play, without deadlines (ruling 16)."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            if lobby.paused is not None:
                raise RuleError("E_PAUSED")
            now = self.clock()
            lobby.paused = {p: max(0.0, due - now) for p, due in (await self.deadlines(outcome.game.id)).items()}
            await self._save_lobby(outcome, lobby)
            await self.store.delete_timers(outcome.game.id)
            self._forget_clocks(outcome.game.id)
            outcome.game = await self._tell(outcome.game, lobby, msg("table.paused", player=mention(by)))
            return outcome

    async def resume(self, channel_id: int, by: int, moderator: bool, interaction_id: str | None = None) -> Outcome:
        """Restart the clocks where they stopped."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            if lobby.paused is None:
                raise RuleError("E_NOT_PAUSED")
            left, lobby.paused = lobby.paused, None
            await self._save_lobby(outcome, lobby)
            now = self.clock()
            assert outcome.state is not None
            armed = await self._seat_clocks(outcome.game.id)
            for decision in outcome.ruleset.pending(outcome.state):
                player = decision.player
                length = lobby.clock.seconds(decision, outcome.ruleset)
                if player in left and length is not None and player not in armed:
                    armed[player] = await self._wind(outcome.game.id, player, now + left[player], length)
            await self._after(outcome, lobby, lead=msg("table.resumed", player=mention(by)))
            return outcome

    async def set_deadline(self, channel_id: int, by: int, moderator: bool, hours: float | None,
                           interaction_id: str | None = None) -> Outcome:
        """Change the turn deadline (None: off); running clocks restart with the new length."""
        if hours is not None and not MIN_DEADLINE_HOURS <= hours <= MAX_DEADLINE_HOURS:
            raise RuleError("E_DEADLINE_RANGE", low=int(MIN_DEADLINE_HOURS), high=int(MAX_DEADLINE_HOURS))
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            lobby.clock = lobby.clock.model_copy(update={"turn_hours": hours})
            await self._save_lobby(outcome, lobby)
            await self._rewind(outcome, lobby)
            lead = (msg("table.deadline", player=mention(by), hours=hours) if hours is not None
                    else msg("table.deadline_off", player=mention(by)))
            await self._announce(outcome, lobby, lead=lead)
            return outcome

    async def kick(self, channel_id: int, by: int, moderator: bool, target: int,
                   interaction_id: str | None = None) -> Outcome:
        """Remove a seat from the game; the rules decide what happens to its pieces (RISK-DIG-30, DIG-50)."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            assert outcome.state is not None
            if target not in outcome.ruleset.alive(outcome.state):
                raise RuleError("E_NOT_PLAYER_TARGET", player=self._seat_name(lobby, target))
            action = outcome.ruleset.parse_action({"type": "remove", "target": target, "player": by})
            new_state, events = outcome.ruleset.apply(outcome.state, action)
            await self._save(outcome, action, new_state, events, None, ai=False)
            await self._keep_a_host(outcome, lobby)
            await self._after(outcome, lobby, lead=msg("table.kicked", host=mention(by), player=mention(target)),
                              actor=by)
            return outcome

    async def replace(self, channel_id: int, by: int, moderator: bool, old: int, new: Seat,
                      interaction_id: str | None = None) -> Outcome:
        """A substitute takes over a human seat: its pieces, cards and turn (the record logs the swap)."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._host_only(outcome, by, moderator)
            assert outcome.state is not None
            seat = lobby.seat(old)
            if seat is None or seat.ai or old not in outcome.ruleset.alive(outcome.state):
                raise RuleError("E_NOT_PLAYER_TARGET", player=self._seat_name(lobby, old))
            if lobby.seat(new.id) is not None:
                raise RuleError("E_ALREADY_SEATED", player=new.name)
            substitute = new.model_copy(update={"colour": seat.colour})
            new_state = reseat(outcome.state, old, substitute)
            entry = {"type": RESEAT, "player": old, "seat": substitute.model_dump(mode="json")}
            fresh = await self.store.record_action(outcome.game, new_state.seq, by, entry, [],
                                                   json_text(new_state), None)
            lobby.seats = [substitute if s.id == old else s for s in lobby.seats]
            lobby.status.pop(old, None)
            lobby.votes = {k: [v for v in vs if v != old] for k, vs in lobby.votes.items()}  # nobody voted for them
            outcome.game = await self.store.update_game(fresh, lobby=lobby.model_dump(mode="json"),
                                                        host_id=substitute.id if fresh.host_id == old else None)
            outcome.state = new_state
            outcome.steps.append(Step(seq=new_state.seq, actor=by, action=Action(type=RESEAT, player=old), events=[],
                                      ai=False))
            self._remember(fresh.id, outcome.game.version, new_state)
            await self._rewind(outcome, lobby, old)
            await self._announce(outcome, lobby, lead=msg("table.replaced", old=mention(old),
                                                                new=mention(substitute.id)))
            return outcome

    def _seat_name(self, lobby: Lobby, seat_id: int) -> str:
        seat = lobby.seat(seat_id)
        return seat.name if seat else f"<@{seat_id}>"

    async def vote(self, channel_id: int, user_id: int, kind: str, interaction_id: str | None = None) -> VoteTally:
        """Vote to end the game as a draw, or by surrender to the leader; it carries when every remaining
        human agrees. `withdraw` takes back the user's votes."""
        async with self._command(channel_id, interaction_id):
            outcome, lobby = await self._running(channel_id)
            self._playing_human(outcome, lobby, user_id)
            assert outcome.state is not None
            alive = outcome.ruleset.alive(outcome.state)
            needed = [h for h in lobby.humans() if h in alive and not lobby.absent(h)] or [user_id]
            if kind == "withdraw":
                lobby.votes = {k: [v for v in vs if v != user_id] for k, vs in lobby.votes.items()}
                await self._save_lobby(outcome, lobby)
                await self._tell(outcome.game, lobby, msg("table.vote_withdrawn", player=mention(user_id)))
                return VoteTally(kind=kind, voters=[], needed=needed, outcome=None)
            if kind not in ("draw", "surrender"):
                raise RuleError("E_BAD_VOTE")
            voters = lobby.votes.setdefault(kind, [])
            if user_id not in voters:
                voters.append(user_id)
            carried = set(needed) <= set(voters)
            if carried:
                winners = [] if kind == "draw" else outcome.ruleset.ranking(outcome.state)[:1]
                lobby.result = Result(kind=kind, winners=winners)  # type: ignore[arg-type]
                await self._save_lobby(outcome, lobby, status="finished")
                await self.store.delete_timers(outcome.game.id)
                self._forget_clocks(outcome.game.id)
                humans = set(lobby.humans())
                lead = msg(f"table.vote_{kind}",
                                 winner=", ".join(who(w, outcome.state, humans) for w in winners))
            else:
                await self._save_lobby(outcome, lobby)
                lead = msg("table.vote", player=mention(user_id), kind=msg(f"vote.{kind}"),
                                 votes=len(voters), needed=len(needed))
            outcome.game = await self._tell(outcome.game, lobby, lead)
            return VoteTally(kind=kind, voters=list(voters), needed=needed, outcome=outcome if carried else None)
