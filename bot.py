"""Entry point of the game-master bot.

`python bot.py` connects to Discord with the token from the environment or `.env`. Without a token it
explains how to get one and plays an offline demo game instead; `python bot.py --demo` always does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

# discord.py imports the deprecated audioop for voice, which the bot never uses; this must precede that import
warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning, "discord.player")

import aiohttp
import discord
import yarl
from discord.ext import commands
from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from cogs.common import on_app_command_error
from cogs.delivery import Controls
from cogs.guard import Deliveries, GuardedTree, RateLimiter
from cogs.translator import CatalogueTranslator, CommandLinks
from engine.cliargs import GAMES, Refused, check_players, game_name, game_options, option_pair, positive_int
from engine.core.events import TURN_STARTED
from engine.core.models import Event, GameState, Seat
from engine.core.record import GameRecord, apply_entry, start
from engine.games import get, specs
from engine.positions import record_json
from engine.replays import Frame, Replay
from engine.service import GameService
from engine.store import SqliteStore, Store, open_store
from renderer import has_board, render_board
from renderer.animate import replay_gif
from renderer.cache import RenderCache

log = logging.getLogger("gamemaster")

NO_VOICE = frozenset({"PyNaCl is not installed, voice will NOT be supported",
                      "davey is not installed, voice will NOT be supported"})
"""What discord.Client logs (logger `discord.client`) when the first client of a process is made without the
voice libraries: the bot has no voice, so these are noise."""


def not_about_voice(record: logging.LogRecord) -> bool:
    return record.msg not in NO_VOICE


logging.getLogger("discord.client").addFilter(not_about_voice)

TOKEN_HELP = """No valid Discord bot token was found.

To run the bot in Discord:
  1. Open https://discord.com/developers/applications and create an application.
  2. Under "Bot", press "Reset Token" and copy the token.
  3. Put it in a file named .env beside bot.py:  DISCORD_TOKEN=your-token
     (or set the DISCORD_TOKEN environment variable). See .env.example and the README.
"""


class Settings(BaseSettings):
    """Configuration from the environment or `.env` (see `.env.example`)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("var/gamemaster.sqlite3")
    database_url: SecretStr | None = None
    """A PostgreSQL database (postgresql://user:password@host:port/name) that every process of a scaled-out bot
    shares; without it, the SQLite file at `database_path`."""
    shard_count: int | None = Field(default=None, ge=1)
    """How many shards the bot has in all (Discord requires them past 2,500 servers); None: one, unsharded."""
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    """The shards this process runs, e.g. `0,1` (None: all of them); needs `shard_count`."""
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    rate_limit_per_minute: int = Field(default=30, ge=1)
    """Commands and button presses a member may make per minute, after a burst of `rate_limit_burst`."""
    rate_limit_burst: int = Field(default=8, ge=1)
    max_games_per_server: int = Field(default=25, ge=1)
    """Games in lobby or running at once in one server."""
    max_lobbies_per_member: int = Field(default=3, ge=1)
    """Open lobbies (games not started yet) one member may host in one server at once."""
    post_timeout: float = Field(default=30.0, gt=0)
    """Seconds a channel post waits for Discord's answer before it is tried again (its nonce keeps it single)."""
    takeover_seconds: float = Field(default=60.0, gt=0)
    """With several processes on one database: how long the work a process took on (a due timer, a channel's
    posts, its AI seats' turns) stays its own without a sign of life before another process takes it over."""
    discord_api_base: str | None = None
    """Test only: the REST base URL of a fake Discord server."""
    discord_gateway_url: str | None = None
    """Test only: the gateway URL of a fake Discord server."""

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _listed(cls, value: object) -> object:
        """`SHARD_IDS=0,1` as the environment gives it."""
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()] or None
        return value

    @model_validator(mode="after")
    def _shards_exist(self) -> Settings:
        if self.takeover_seconds <= self.post_timeout:
            raise ValueError("TAKEOVER_SECONDS must be longer than POST_TIMEOUT: a post being sent is not taken over")
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT: how many shards there are in all")
            wrong = [s for s in self.shard_ids if not 0 <= s < self.shard_count]
            if wrong or len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError(f"SHARD_IDS must be distinct shards from 0 to {self.shard_count - 1}, not "
                                 f"{self.shard_ids}")
        return self

    def store_location(self) -> str | Path:
        """Where the games are: the PostgreSQL URL if there is one, else the SQLite file."""
        return self.database_url.get_secret_value() if self.database_url else self.database_path


EXTENSIONS = ("cogs.new_game", "cogs.lobby", "cogs.views", *(s.cog for s in specs() if s.cog), "cogs.timers",
              "cogs.stats", "cogs.fallback", "cogs.delivery")
"""The shared cogs, and each registered game's own."""


class GameMasterBot(commands.Bot):
    """The bot: opens the store, loads one cog per feature, syncs the slash commands."""

    def __init__(self, settings: Settings, **sharding: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, tree_cls=GuardedTree,
                         allowed_mentions=discord.AllowedMentions.none(),  # each post says whom it pings
                         **sharding)
        self.settings = settings
        self.limiter = RateLimiter(settings.rate_limit_per_minute, settings.rate_limit_burst)
        self.deliveries = Deliveries()
        self.links = CommandLinks()
        """Quoted commands become mentions, which each reader's Discord shows in their language."""
        self.store: Store | None = None
        self.service: GameService
        self.controls: dict[str, Controls] = {}
        """Each game's buttons for a post, by ruleset name (the game cogs register them)."""
        self.dynamic_items: list[type[discord.ui.DynamicItem[Any]]] = []
        """The persistent buttons and menus the cogs registered: a custom id matching none is out of date."""

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.dynamic_items.extend(items)

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.store_location())
        cache = RenderCache(max_items=128)

        def render(key: tuple[int, int], state: GameState, events: Sequence[Event], away: frozenset[int],
                   language: str) -> bytes | None:
            if not has_board(state.game):
                return None
            return cache.get_or_render((*key, language), lambda: render_board(state, events, locale=language,
                                                                              away=away))

        def animate(frames: Sequence[Frame], max_bytes: int) -> Replay | None:
            return replay_gif(frames, max_bytes) if frames and has_board(frames[0][0].game) else None

        self.service = GameService(self.store, renderer=render, animator=animate,
                                   max_games_per_guild=self.settings.max_games_per_server,
                                   max_lobbies_per_member=self.settings.max_lobbies_per_member,
                                   takeover_after=self.settings.takeover_seconds, links=self.links)
        self.tree.on_error = on_app_command_error
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.tree.set_translator(CatalogueTranslator())  # the tree syncs in every language the bot speaks
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        self.links.learn(self.tree, synced)  # from now on, a quoted command is a mention each reader sees localized
        await self.service.resume_all()  # what a crash left untold, and AI seats it interrupted (the outbox posts)
        log.info("ready: %d slash command groups synced", len(self.tree.get_commands()))

    async def close(self) -> None:
        if self.store is not None:
            await self.service.stop()  # first the AI seats, whose actions would queue posts for no one to deliver
        await super().close()  # the cogs unload: the deliveries and the timekeeper stop
        if self.store is not None:
            await self.store.close()
            self.store = None


class ShardedGameMasterBot(GameMasterBot, commands.AutoShardedBot):
    """The bot running the shards it is given (`SHARD_COUNT`, `SHARD_IDS`): one process among several, which
    share one PostgreSQL database."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings, shard_count=settings.shard_count, shard_ids=settings.shard_ids)


def make_bot(settings: Settings) -> GameMasterBot:
    """The bot the settings ask for: sharded when they name a shard count."""
    return ShardedGameMasterBot(settings) if settings.shard_count is not None else GameMasterBot(settings)


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST and gateway traffic to a fake Discord server (tests only)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


DEMO_CHANNEL = 1
DEMO_NAMES = ("Ada", "Björn", "Chiyo", "Dmitri", "Eun-ji", "Farah")


def run_demo(game: str, players: int, seed: int, out: Path, policy: str = "baseline",
             options: Mapping[str, object] | None = None) -> GameRecord:
    """Play a whole AI game through the service and SQLite, as Discord commands would; then write
    record.json, transcript.txt and the board after every turn (replayed from the stored record) to `out`.
    `options` are the game's options as the lobby takes them (the service validates them)."""
    out.mkdir(parents=True, exist_ok=True)
    for old in (*out.glob("board-*.png"), out / "demo.sqlite3"):
        old.unlink(missing_ok=True)
    record = asyncio.run(_play_stored(game, players, seed, out / "demo.sqlite3", policy, dict(options or {})))
    ruleset = get(game)
    state, events = start(ruleset, record)
    lines = [f"# {ruleset.title} — offline demo, seed {seed}, {players} AI players", ""]
    lines += [text for e in events if (text := ruleset.narrate(e, state))]
    turn: list[Event] = []
    pictures = has_board(state.game)
    boards = 0
    for data in record.actions:
        state, new_events = apply_entry(ruleset, state, data)
        lines.extend(text for e in new_events if (text := ruleset.narrate(e, state)))
        for event in new_events:
            if event.type == TURN_STARTED and turn:  # the board as the finished turn left it (000: setup)
                if pictures:
                    (out / f"board-{boards:03d}.png").write_bytes(render_board(state, turn))
                boards += 1
                turn.clear()
            if event.private_to is None:
                turn.append(event)
    if pictures:
        (out / "board-final.png").write_bytes(render_board(state, turn))
    (out / "record.json").write_text(record_json(record), encoding="utf-8")
    (out / "transcript.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    winners = ruleset.winners(state)
    names = {s.id: s.name for s in record.seats}
    result = ", ".join(names[w] for w in winners) if winners else "nobody"
    boards = len(list(out.glob("board-*.png")))
    print(f"{ruleset.title}: {len(record.actions)} actions; winner {result}. Wrote {out / 'record.json'}, "
          f"{out / 'transcript.txt'}, {boards} board pictures and the SQLite file {out / 'demo.sqlite3'}.")
    return record


async def _play_stored(game: str, players: int, seed: int, path: Path, policy: str,
                       options: dict[str, object]) -> GameRecord:
    """The lobby, the start and every AI move go through GameService into SQLite; the log is the record."""
    store = await SqliteStore.open(path)
    try:
        service = GameService(store, seed_source=lambda: seed)
        seats = [Seat(id=i + 1, name=DEMO_NAMES[i % len(DEMO_NAMES)], ai=True) for i in range(players)]
        await service.new_game(DEMO_CHANNEL, None, seats[0], game, options, ai_policy=policy)
        for seat in seats[1:]:
            await service.join(DEMO_CHANNEL, seat)
        await service.start(DEMO_CHANNEL, seats[0].id)
        await service.idle(DEMO_CHANNEL)  # AI seats play the whole game
        return await service.record(DEMO_CHANNEL)
    finally:
        await store.close()


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""What stops the bot cleanly: Ctrl-C, or a process manager (Docker, systemd) asking it to."""


async def serve(bot: GameMasterBot, token: str) -> None:
    """Run the bot until it is closed, or a stop signal closes it (whatever handling of the signals the process
    inherited: a shell's background job ignores SIGINT)."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        if closing:  # asked twice: stop now (a restart loses nothing)
            raise KeyboardInterrupt
        log.info("stopping")
        closing.append(loop.create_task(bot.close()))

    for number in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError):  # no signal handlers here (Windows): Ctrl-C interrupts
            loop.add_signal_handler(number, stop)
    async with bot:
        await bot.start(token)


def run_discord(settings: Settings) -> int:
    """Connect to Discord and serve until stopped; explain a bad token or an unreachable Discord in words."""
    if settings.discord_api_base or settings.discord_gateway_url:
        point_at(settings.discord_api_base, settings.discord_gateway_url)
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    bot = make_bot(settings)
    try:
        asyncio.run(serve(bot, token))
    except KeyboardInterrupt:
        return 0
    except discord.LoginFailure:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    except (aiohttp.ClientError, TimeoutError, discord.GatewayNotFound) as err:  # once connected, it reconnects
        reason = str(err) or type(err).__name__  # a timeout has no text
        print(f"could not reach Discord at {discord.http.Route.BASE}: {reason}", file=sys.stderr)
        return 1
    except discord.HTTPException as err:  # an error status at login or in setup_hook's first requests
        print(f"Discord refused the bot's start-up at {discord.http.Route.BASE}: {err}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--demo", action="store_true", help="play an offline AI game instead of connecting")
    parser.add_argument("--game", type=game_name, choices=GAMES, default="risk",
                        help="the demo's game (default: %(default)s)")
    parser.add_argument("--players", type=positive_int, default=4, help="AI players in the demo (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=3,
                        help="the demo's seed; the same seed plays the same game (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=Path("out/demo"),
                        help="where the demo writes its files (default: %(default)s)")
    parser.add_argument("--policy", choices=("random", "baseline"), default="baseline",
                        help="how the AI seats play (default: %(default)s)")
    parser.add_argument("--option", type=option_pair, action="append", default=[], metavar="NAME=VALUE",
                        help="a game option for the demo, e.g. mode=two_player; repeatable (default: none)")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])).upper() or 'settings'}: {e['msg']}"
                             for e in err.errors())
        print(f"The configuration (environment or .env) is not valid: {problems}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not args.demo:
        if settings.discord_token is not None and settings.discord_token.get_secret_value().strip():
            return run_discord(settings)
        print(TOKEN_HELP + "\nPlaying an offline demo game instead.\n", file=sys.stderr)
    ruleset = get(args.game)
    try:
        check_players(ruleset, game_options(ruleset, args.option), args.players, args.option)
    except Refused as err:
        parser.error(str(err))
    run_demo(args.game, args.players, args.seed, args.out, args.policy, dict(args.option))
    return 0


if __name__ == "__main__":
    sys.exit(main())
