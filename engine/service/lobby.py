"""The lobby: open a game, join, leave, add AI seats, start and abandon."""

from __future__ import annotations

import random
from typing import Any

from pydantic import ValidationError

from engine.core.errors import RuleError, first_problem, player_count_error
from engine.core.i18n import (
    LANGUAGES,
    Msg,
    inert,
    language_of,
    mention,
    msg,
    option_value,
    timestamp,
    translate,
)
from engine.core.models import Action, Seat, json_text
from engine.core.ruleset import Ruleset
from engine.games import get, spec, title
from engine.service.games import lobby_of
from engine.service.models import Outcome, Step
from engine.service.news import Told, who
from engine.service.play import Play
from engine.store import ChannelBusy, GameRow, GuildFull, HostFull
from engine.table import CLOCK_OPTIONS, Clock, Lobby

AI_NAMES = ("Ada", "Björn", "Chiyo", "Dmitri", "Eun-ji", "Farah")


LOBBY_DAYS = 7
"""A lobby that has not started after this many days closes, with a notice."""


def checked_language(language: str) -> None:
    """Refuse a language the bot does not speak."""
    if language not in LANGUAGES:
        raise RuleError("E_UNKNOWN_LANGUAGE", language=inert(language),
                        languages=", ".join(f"`{code}`" for code in LANGUAGES))


def options_summary(game: str, options: dict[str, Any]) -> list[Msg]:
    """The options a lobby of `game` announces (its `GameSpec.summarised`), e.g. `mode: standard, setup: claim`,
    named as `/new` names them in the reader's language."""
    found = spec(game)
    names = found.summarised or tuple(k for k in found.options_model.model_fields if k not in CLOCK_OPTIONS)
    return [msg("option.shown", name=msg(f"cmd.new.{found.slug}.{found.option_names.get(k, k)}.name"),
                value=option_value(options[k])) for k in names if options.get(k) is not None]


class Lobbies(Play):
    """Games before they start, and their end by abandon."""

    async def new_game(self, channel_id: int, guild_id: int | None, host: Seat, game: str,
                       options: dict[str, Any], ai_policy: str = "baseline",
                       interaction_id: str | None = None, language: str | None = None,
                       server_language: str | None = None) -> GameRow:
        """Open a lobby. The game speaks `language`, else the one its server chose (`/game language`), else the
        server's preferred language as Discord gives it (`server_language`), else English."""
        try:
            ruleset = get(game)
        except KeyError as err:
            raise RuleError("E_UNKNOWN_GAME", game=game) from err
        if language is None:
            chosen_here = await self.store.guild_language(guild_id) if guild_id is not None else None
            language = chosen_here or language_of(server_language)
        checked_language(language)
        fields = ruleset.options_model.model_fields
        own = {k: v for k, v in options.items() if k in fields or k not in CLOCK_OPTIONS}
        try:
            chosen = ruleset.options_model.model_validate(own).model_dump(mode="json")
            clock = Clock.from_options({**options, **chosen})
        except ValidationError as err:
            option, problem = first_problem(err)
            raise RuleError("E_BAD_OPTION", option=option, problem=problem) from err
        lobby = Lobby(game=ruleset.name, options=chosen, seats=[host], ai_policy=ai_policy, clock=clock,
                      language=language)
        async with self._command(channel_id, interaction_id):
            try:
                row = await self.store.create_game(channel_id, guild_id, ruleset.name, host.id,
                                                   self.seed_source(), lobby.model_dump(mode="json"),
                                                   max_live=self.max_games_per_guild,
                                                   max_hosted=self.max_lobbies_per_member,
                                                   expires_at=self.clock() + LOBBY_DAYS * 86400)
            except ChannelBusy as err:
                raise RuleError("E_CHANNEL_BUSY") from err
            except GuildFull as err:
                raise RuleError("E_TOO_MANY_GAMES", most=self.max_games_per_guild) from err
            except HostFull as err:
                raise RuleError("E_TOO_MANY_LOBBIES", most=self.max_lobbies_per_member) from err
            self._timers_changed()
            return await self._tell(row, lobby, msg(
                "lobby.created", host=mention(host.id), game=title(ruleset.name),
                options=options_summary(ruleset.name, chosen),
                closes=timestamp(row.created_at + LOBBY_DAYS * 86400)))

    async def set_language(self, channel_id: int, by: int, moderator: bool, language: str,
                           interaction_id: str | None = None) -> GameRow:
        """The language of the channel's game from now on (its posts, its board, its buttons); host or moderator.
        Private replies keep speaking each member's own."""
        checked_language(language)
        async with self._command(channel_id, interaction_id):
            game = await self.live(channel_id)
            if by != game.host_id and not moderator:
                raise RuleError("E_NOT_HOST", host=mention(game.host_id))
            lobby = lobby_of(game)
            if lobby.language == language:
                raise RuleError("E_SAME_LANGUAGE", language=msg(f"language.{language}"))
            lobby.language = language
            game = await self.store.update_game(game, lobby=lobby.model_dump(mode="json"))
            return await self._tell(game, lobby, msg("lobby.language", player=mention(by),
                                                     language=msg(f"language.{language}")))

    async def set_server_language(self, guild_id: int, language: str) -> None:
        """The language the server's new games speak (a moderator's choice; games under way keep theirs)."""
        checked_language(language)
        await self.store.set_guild_language(guild_id, language)

    async def _tell(self, game: GameRow, lobby: Lobby, lead: Msg) -> GameRow:
        """Post `lead` about a game that is not being played (a lobby, an ending); the row as it is now."""
        outcome = Outcome(game=game, ruleset=get(game.ruleset), state=None)
        await self._announce(outcome, lobby, lead=lead)
        return outcome.game

    async def _lobby(self, channel_id: int) -> tuple[GameRow, Lobby, Ruleset]:
        game = await self.live(channel_id)
        if game.status != "lobby":
            raise RuleError("E_ALREADY_STARTED")
        ruleset = get(game.ruleset)
        return game, lobby_of(game), ruleset

    async def join(self, channel_id: int, seat: Seat, interaction_id: str | None = None) -> GameRow:
        async with self._command(channel_id, interaction_id):
            game, lobby, ruleset = await self._lobby(channel_id)
            if any(s.id == seat.id for s in lobby.seats):
                raise RuleError("E_ALREADY_JOINED")
            _, most = ruleset.player_range(ruleset.options_model.model_validate(lobby.options))
            if len(lobby.seats) >= most:
                raise RuleError("E_GAME_FULL", mode=spec(ruleset.name).variant(lobby.options), max=most)
            lobby.seats.append(seat)
            game = await self.store.update_game(game, lobby=lobby.model_dump(mode="json"))
            return await self._tell(game, lobby, msg("lobby.joined", player=mention(seat.id),
                                                           n=len(lobby.seats)))

    async def add_ai(self, channel_id: int, by: int, interaction_id: str | None = None) -> GameRow:
        async with self._command(channel_id, interaction_id):
            game, lobby, ruleset = await self._lobby(channel_id)
            if by != game.host_id:
                raise RuleError("E_NOT_HOST", host=mention(game.host_id))
            _, most = ruleset.player_range(ruleset.options_model.model_validate(lobby.options))
            if len(lobby.seats) >= most:
                raise RuleError("E_GAME_FULL", mode=spec(ruleset.name).variant(lobby.options), max=most)
            taken = {s.id for s in lobby.seats}
            ai_id = next(i for i in range(1, 100) if i not in taken)
            names = {s.name for s in lobby.seats}
            named = [translate("lobby.ai_name", lobby.language, name=n) for n in AI_NAMES]  # the game's language
            name = next((n for n in named if n not in names), f"AI {ai_id}")
            lobby.seats.append(Seat(id=ai_id, name=name, ai=True))
            game = await self.store.update_game(game, lobby=lobby.model_dump(mode="json"))
            return await self._tell(game, lobby, msg("lobby.ai_added", name=inert(name)))

    async def leave(self, channel_id: int, user_id: int, interaction_id: str | None = None) -> GameRow | None:
        """Leave a lobby; the host's seat passes to the next human, and an empty lobby closes."""
        async with self._command(channel_id, interaction_id):
            game, lobby, _ = await self._lobby(channel_id)
            if not any(s.id == user_id for s in lobby.seats):
                raise RuleError("E_NOT_PLAYER")
            lobby.seats = [s for s in lobby.seats if s.id != user_id]
            humans = [s for s in lobby.seats if not s.ai]
            if not humans:
                game = await self.store.update_game(game, status="abandoned")
                await self._tell(game, lobby, msg("lobby.closed", player=mention(user_id)))
                return None
            host = humans[0].id if user_id == game.host_id else None
            game = await self.store.update_game(game, lobby=lobby.model_dump(mode="json"), host_id=host)
            return await self._tell(game, lobby, msg("lobby.left", player=mention(user_id)))

    async def check_start(self, channel_id: int, by: int) -> tuple[GameRow, Lobby, Ruleset]:
        """Raise the error `start` would give, without changing anything."""
        game, lobby, ruleset = await self._lobby(channel_id)
        if by != game.host_id:
            raise RuleError("E_NOT_HOST", host=mention(game.host_id))
        options = ruleset.options_model.model_validate(lobby.options)
        low, high = ruleset.player_range(options)
        if not low <= len(lobby.seats) <= high:
            raise player_count_error(spec(ruleset.name).variant(lobby.options), low, high, len(lobby.seats))
        return game, lobby, ruleset

    async def start(self, channel_id: int, by: int, interaction_id: str | None = None) -> Outcome:
        """Seat the players in random order and deal; AI seats then play until a human must decide."""
        async with self._command(channel_id, interaction_id):
            game, lobby, ruleset = await self.check_start(channel_id, by)
            options = ruleset.options_model.model_validate(lobby.options)
            seats = list(lobby.seats)
            random.Random(game.seed).shuffle(seats)
            state, events = ruleset.new_game(seats, options, game.seed)
            lobby.seats = lobby.first_seats = seats
            game = await self.store.update_game(game, lobby=lobby.model_dump(mode="json"),
                                                state=json_text(state), status="running")
            await self.store.delete_timers(game.id)  # the lobby's expiry
            self._forget_clocks(game.id)
            outcome = Outcome(game=game, ruleset=ruleset, state=state,
                              steps=[Step(seq=0, actor=0, action=Action(type="start", player=by), events=events,
                                          ai=False)])
            humans = set(lobby.humans())
            order = ", ".join(who(s.id, state, humans) for s in seats)
            await self._after(outcome, lobby, lead=msg("lobby.started", game=title(ruleset.name), order=order),
                              opening=[Told(0, False, events)], picture=True)
            return outcome

    async def abandon(self, channel_id: int, by: int, moderator: bool, interaction_id: str | None = None) -> GameRow:
        async with self._command(channel_id, interaction_id):
            game = await self.live(channel_id)
            if by != game.host_id and not moderator:
                raise RuleError("E_NOT_HOST", host=mention(game.host_id))
            game = await self.store.update_game(game, status="abandoned")
            await self.store.delete_timers(game.id)
            self._forget_clocks(game.id)
            self._cache.pop(game.id, None)
            return await self._tell(game, lobby_of(game), msg("abandon.done", player=mention(by)))
