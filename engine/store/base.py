"""What every store backend provides: the rows it hands back, the errors it raises, and the `Store` protocol."""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol


def holder_name() -> str:
    """This process's name in claims: host, process id and a random part (a restarted process is another)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class StoreError(Exception):
    """A storage problem the caller can explain to the player."""


class ChannelBusy(StoreError):
    """The channel already holds a live game."""


class GuildFull(StoreError):
    """The server already runs as many live games as it may."""


class HostFull(StoreError):
    """The member already hosts as many open lobbies in the server as they may."""


class VersionConflict(StoreError):
    """The game changed since it was read: the optimistic check failed."""


class DuplicateInteraction(StoreError):
    """This interaction was applied already."""


class StoreUnavailable(StoreError):
    """The database refused the work (locked, disk full, I/O error); that transaction was rolled back."""


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    channel_id: int
    guild_id: int | None
    ruleset: str
    status: str
    host_id: int
    seed: int
    lobby: dict[str, Any]
    state: str | None
    version: int
    created_at: float
    updated_at: float
    announced: int = 0
    """The last action (seq) that an outbox post has told; later ones still wait for their post."""
    waiting: tuple[int, ...] = ()
    """The seats that were deciding when the last post was written: the next post pings only the others."""


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    seq: int
    actor: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    interaction_id: str | None
    created_at: float
    by_ai: bool = False
    """Played by an AI seat or a stand-in, not by the player in person."""
    turns: int = 0
    """How many turns the game's actions opened, up to and including this one."""


@dataclass(frozen=True, slots=True)
class PostRow:
    """An announcement in the outbox: posted to its channel in order, each of its messages once."""

    id: int
    game_id: int
    channel_id: int
    payload: dict[str, Any]
    created_at: float
    attempts: int
    sent: list[int]
    """The ids of the messages of this post that Discord has accepted so far."""
    next_try: float = 0.0
    """Not before this moment (epoch seconds): the last attempt failed and is waiting to be tried again."""


@dataclass(frozen=True, slots=True)
class TimerRow:
    id: int
    game_id: int
    kind: str
    due_at: float
    payload: dict[str, Any]
    player: int = 0




@dataclass(slots=True)
class Command:
    """One command's writes (see `Store.command`): its interaction id, and whether one of its writes committed."""

    interaction_id: str | None
    committed: bool = False


class Store(Protocol):
    """What the game service needs of a store. Every write is one transaction that commits or changes nothing;
    a version check (`VersionConflict`) keeps two writers of one game apart.

    A store `shared` by several bot processes also keeps them apart: `hold` runs one command at a time per channel
    across all of them, and a due timer or a channel's posts are claimed by one process at a time (`holder`), for
    a lease that a process that dies lets run out."""

    shared: bool
    """Whether other processes may write the same database (then nothing read may be kept between commands)."""
    holder: str
    """This process, as the claims name it."""

    async def close(self) -> None: ...

    def hold(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """Within this block, no other process runs a command in the channel (it waits)."""
        ...

    def command(self, interaction_id: str | None) -> AbstractContextManager[Command]:
        """Within this block, the first write also records `interaction_id` (DuplicateInteraction if it is)."""
        ...

    async def seen(self, interaction_id: str) -> bool: ...

    async def live_game(self, channel_id: int) -> GameRow | None: ...

    async def latest_game(self, channel_id: int) -> GameRow | None: ...

    async def game(self, game_id: int) -> GameRow | None: ...

    async def running_games(self) -> list[GameRow]: ...

    async def untold_ends(self) -> list[GameRow]: ...

    async def lobbies_without_expiry(self) -> list[GameRow]: ...

    async def create_game(self, channel_id: int, guild_id: int | None, ruleset: str, host_id: int, seed: int,
                          lobby: dict[str, Any], max_live: int | None = None, max_hosted: int | None = None,
                          expires_at: float | None = None) -> GameRow: ...

    async def update_game(self, game: GameRow, *, lobby: dict[str, Any] | None = None, state: str | None = None,
                          status: str | None = None, host_id: int | None = None) -> GameRow: ...

    async def record_action(self, game: GameRow, seq: int, actor: int, action: dict[str, Any],
                            events: list[dict[str, Any]], state: str, interaction_id: str | None,
                            status: str = "running", by_ai: bool = False, opens: int = 0) -> GameRow: ...

    async def actions(self, game_id: int, after: int = 0, limit: int = 1_000_000) -> list[ActionRow]: ...

    async def action_page(self, game_id: int, offset: int, limit: int) -> list[ActionRow]: ...

    async def recent_actions(self, game_id: int, limit: int) -> list[ActionRow]: ...

    async def count_actions(self, game_id: int) -> int: ...

    async def unranked_games(self, guild_id: int) -> list[GameRow]: ...

    async def add_standings(self, game_id: int, rows: list[tuple[int, int, bool, bool]]) -> None: ...

    async def standings(self, guild_id: int) -> list[tuple[str, int, int, bool]]: ...

    async def count_live_games(self, guild_id: int) -> int: ...

    async def add_timers(self, game_id: int, player: int,
                         timers: list[tuple[str, float, dict[str, Any]]]) -> None: ...

    async def timers(self, game_id: int) -> list[TimerRow]: ...

    async def next_timer(self) -> TimerRow | None:
        """The earliest timer that no other process has claimed (or whose claim ran out)."""
        ...

    async def claim_timer(self, timer_id: int, lease: float) -> bool:
        """Claim a timer to fire it, for `lease` seconds; False when another process holds it (or it is gone)."""
        ...

    async def delete_timer(self, timer_id: int) -> bool: ...

    async def delete_timers(self, game_id: int, player: int | None = None) -> None: ...

    async def add_post(self, game: GameRow, payload: dict[str, Any], announced: int | None = None,
                       waiting: Sequence[int] | None = None, done_timer: int | None = None) -> GameRow: ...

    async def next_post(self, channel_id: int) -> PostRow | None: ...

    async def post_channels(self, now: float) -> list[int]:
        """The channels whose next post may be tried now and that no other process is delivering to."""
        ...

    async def claim_channel(self, channel_id: int, lease: float) -> bool:
        """Claim the delivery of a channel's posts for `lease` seconds (again, to renew it); False when another
        process delivers to it."""
        ...

    async def release_channel(self, channel_id: int) -> None: ...

    async def next_retry(self) -> float | None: ...

    async def post_tried(self, post_id: int, sent: Sequence[int]) -> None: ...

    async def post_sent(self, post_id: int, sent: Sequence[int], retry_at: float | None = None) -> None: ...

    async def post_delivered(self, post_id: int, sent: Sequence[int]) -> None: ...

    async def post_parked(self, post_id: int, reason: str) -> None: ...

    async def last_delivered(self, channel_id: int) -> int | None: ...

    async def parked_posts(self, channel_id: int) -> list[tuple[int, str]]: ...

    async def board_message(self, game_id: int) -> int | None: ...

    async def set_board_message(self, game_id: int, message_id: int) -> None: ...

    async def guild_language(self, guild_id: int) -> str | None: ...

    async def set_guild_language(self, guild_id: int, language: str) -> None: ...
