"""Discord REST semantics shared by the dispatch harness (layer 2) and the fake server (layer 3)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import math
import re
import time
import traceback
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tests.discord import payloads
from tests.discord.payloads import FLAG_EPHEMERAL, FLAG_LOADING, World

T = TypeVar("T")

# Interaction callback types.
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9

CALLBACK_WINDOW_S = 3.0
"""Discord's deadline for the initial interaction callback, counted from the interaction's creation."""
TOKEN_LIFETIME_S = 15 * 60.0
"""How long an interaction token can be used for followups and `@original` (Discord: 15 minutes)."""
NONCE_WINDOW_S = 120.0
"""How long `enforce_nonce` finds an earlier message; Discord says "the past few minutes", so the fake takes the
short end: a retry that relies on the dedupe for longer than this is not safe on Discord either."""
NONCE_MAX_LENGTH = 25
MAX_PINS = 250
"""Pinned messages a channel may hold (Discord: 250)."""
CHANNEL_PINNED_MESSAGE = 6
"""The message type of the notice Discord posts when a message is pinned."""
RATE_LIMIT_SCOPES = ("user", "shared", "global")
LOCALES = frozenset({"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no",
                     "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN",
                     "ja", "zh-TW", "ko"})
"""The locales Discord takes for a command's localizations."""
MAX_COMMAND_CHARS = 4000
"""A command's names, descriptions, choice names and values together, in any one locale."""


class ManualClock:
    """A clock for `FakeAPI(clock=...)` that moves only when told (`clock.advance(3.5)`), so tests need no sleeps."""

    def __init__(self, start: float = 0.0) -> None:
        """Start at `start` seconds."""
        self.now = start

    def __call__(self) -> float:
        """Return the current time in seconds."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        self.now += seconds


@dataclass
class Upload:
    """A file uploaded with a message (a multipart `files[n]` part)."""

    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None


@dataclass
class Reply:
    """The fake's answer to one request; `drop`: close the connection instead of answering (status 0)."""

    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False


@dataclass
class Fault:
    """A scripted fault for the next `remaining` requests matching `method` and `pattern` (see FakeAPI.fail_next).

    Without `applied` the request has no effect: the fake waits `delay` seconds, then answers `status`/`body`,
    drops the connection (`drop`), or (neither) handles the request normally only then. With `applied` the request
    takes effect at once, and the answer (`status`/`body`, the dropped connection, or the real answer) comes after
    `delay` seconds: the client cannot tell whether its message was posted.
    """

    method: str
    pattern: re.Pattern[str]
    status: int | None
    body: Any
    headers: dict[str, str]
    remaining: int
    delay: float = 0.0
    drop: bool = False
    applied: bool = False
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        """Whether this fault still applies to a request."""
        return self.remaining > 0 and self.method in ("*", method) and self.pattern.search(path) is not None

    def reply(self, real: Reply) -> Reply:
        """Return the answer the client gets, given the real handler's answer (used when `status` is None)."""
        if self.drop:
            return Reply(0, drop=True)
        if self.status is None:
            return real
        return Reply(self.status, copy.deepcopy(self.body), dict(self.headers))

    def __str__(self) -> str:
        """Return a short description, e.g. "500 after apply" or "dropped after 2.0s"."""
        what = "dropped" if self.drop else str(self.status or "answer")
        return f"{what}{f' after {self.delay}s' * bool(self.delay)}{' after apply' * self.applied}"


@dataclass
class Request:
    """One REST request and the answer; `route` names the handler ("unhandled" if none); `fault`: the scripted fault
    that shaped the answer (status 0: the connection was dropped without an answer)."""

    method: str
    path: str
    route: str
    params: dict[str, str]
    json: Any
    files: list[Upload]
    status: int
    response: Any
    ids: dict[str, str]
    fault: Fault | None = None

    @property
    def scripted(self) -> bool:
        """Whether a scripted fault (fail_next, drop_next, delay_next) shaped the answer."""
        return self.fault is not None

    @property
    def dropped(self) -> bool:
        """Whether the connection was closed without an answer."""
        return self.fault is not None and self.fault.drop

    @property
    def unhandled(self) -> bool:
        """Whether no handler existed for the route (or the handler crashed)."""
        return self.route in ("unhandled", "error")

    @property
    def interaction_id(self) -> str | None:
        """The interaction this request belongs to (callbacks, followups and edits)."""
        return self.ids.get("interaction_id")

    @property
    def channel_id(self) -> str | None:
        """The channel id in the route, if any."""
        return self.ids.get("channel_id")

    def __str__(self) -> str:
        """Return a one-line summary."""
        status = "dropped" if self.dropped else self.status
        return f"{self.method} {self.path} -> {status} ({self.route}{f', scripted {self.fault}' * self.scripted})"


@dataclass
class SentMessage:
    """A message the bot created (channel message, interaction response or followup), kept current with edits."""

    payload: dict
    files: list[Upload]
    source: str
    interaction_id: str | None = None
    edits: int = 0
    deleted: bool = False

    @property
    def id(self) -> str:
        """The message id."""
        return self.payload["id"]

    @property
    def channel_id(self) -> str:
        """The channel id."""
        return self.payload["channel_id"]

    @property
    def content(self) -> str:
        """The text content."""
        return self.payload.get("content") or ""

    @property
    def nonce(self) -> str | int | None:
        """The nonce the bot sent with the message, if any."""
        return self.payload.get("nonce")

    @property
    def embeds(self) -> list[dict]:
        """The embed payloads."""
        return self.payload.get("embeds") or []

    @property
    def components(self) -> list[dict]:
        """The component payloads (action rows or components v2)."""
        return self.payload.get("components") or []

    @property
    def flags(self) -> int:
        """The message flags."""
        return int(self.payload.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether only the invoking user can see the message (flag 64)."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is still a deferred "thinking…" placeholder (flag 128)."""
        return bool(self.flags & FLAG_LOADING)

    def custom_ids(self) -> list[str]:
        """Return the custom_id of every component, in order."""
        return [c["custom_id"] for c in payloads.iter_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> dict | None:
        """Return the component with this custom_id, or None."""
        return next((c for c in payloads.iter_components(self.components) if c.get("custom_id") == custom_id), None)

    def file(self, filename: str) -> Upload:
        """Return the attached file with this name (KeyError if missing)."""
        for upload in self.files:
            if upload.filename == filename:
                return upload
        raise KeyError(f"no file {filename!r} on message {self.id}; files: {[f.filename for f in self.files]}")

    def __str__(self) -> str:
        """Return a one-line summary."""
        extra = "".join(f" [{f.filename}]" for f in self.files) + " (ephemeral)" * self.ephemeral
        return f"{self.source} {self.id} in {self.channel_id}: {self.content!r}{extra}"


@dataclass
class InteractionRecord:
    """An interaction the fake delivered, with what the bot answered."""

    id: str
    token: str
    type: int
    channel_id: str
    user_id: str | None
    payload: dict
    message_id: str | None = None
    original_message_id: str | None = None
    callback_types: list[int] = field(default_factory=list)
    choices: list[dict] | None = None
    modal: dict | None = None
    created_at: float = 0.0
    """When the fake delivered it, on the FakeAPI's clock."""

    @property
    def acknowledged(self) -> bool:
        """Whether the bot sent an interaction callback."""
        return bool(self.callback_types)


class FakeHTTPError(Exception):
    """Raised by route handlers to answer with a Discord JSON error."""

    def __init__(self, status: int, code: int, message: str) -> None:
        """Store the HTTP status, the Discord error code and the message."""
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class Call:
    """What a route handler receives: the request with its route parameters and parsed body."""

    method: str
    path: str
    params: dict[str, str]
    json: Any
    files: dict[int, Upload]
    ids: dict[str, str]


Handler = Callable[[Call], Reply]
_ID = r"\d+"
_TOKEN = r"[^/]+"


def _truthy(value: str | None) -> bool:
    """Interpret a query parameter as a boolean."""
    return (value or "").lower() in ("1", "true")


class FakeAPI:
    """In-memory Discord REST API: routes requests, keeps messages/commands/interactions and records everything."""

    def __init__(self, world: World | None = None, *, token: str | None = None,
                 clock: Callable[[], float] = time.monotonic, callback_window: float = CALLBACK_WINDOW_S,
                 token_lifetime: float = TOKEN_LIFETIME_S, nonce_window: float = NONCE_WINDOW_S) -> None:
        """Start empty; `token`, when set, is required as `Authorization: Bot <token>` on bot-authenticated routes.

        `clock` (seconds) times the interaction windows: the initial callback must come within `callback_window`
        of the interaction's delivery (else 404 / 10062), its token works for `token_lifetime` (else 401 / 50027);
        `enforce_nonce` finds messages created within `nonce_window`.
        """
        self.world = world or World()
        self.token = token
        self.clock = clock
        self.callback_window = callback_window
        self.token_lifetime = token_lifetime
        self.nonce_window = nonce_window
        self.requests: list[Request] = []
        self.interactions: dict[str, InteractionRecord] = {}
        self.commands: dict[str | None, list[dict]] = {}
        self.uploads: dict[str, Upload] = {}
        self.gateway_url = "ws://fake-gateway.invalid/gateway"
        self.cdn_base = "https://fake-cdn.invalid"
        self._tokens: dict[str, str] = {}
        self._messages: dict[str, SentMessage] = {}
        self._channels: dict[str, dict] = {}
        self._faults: list[Fault] = []
        self._nonces: dict[tuple[str, str], tuple[str, float]] = {}
        self._waiters: list[asyncio.Future[None]] = []
        self._routes: list[tuple[str, re.Pattern[str], str, Handler]] = []
        self._install_routes()

    # ----------------------------------------------------------------- routing

    def add_route(self, method: str, pattern: str, name: str, handler: Handler) -> None:
        """Register (before the built-in ones) a handler for `method` and a full-match path regex with named groups."""
        self._routes.insert(0, (method.upper(), re.compile(pattern), name, handler))

    def _install_routes(self) -> None:
        """Register the built-in routes."""
        hook = rf"/webhooks/(?P<app_id>{_ID})/(?P<token>{_TOKEN})"
        channel = rf"/channels/(?P<channel_id>{_ID})"
        message = rf"{channel}/messages/(?P<message_id>{_ID})"
        table: list[tuple[str, str, str, Handler]] = [
            ("GET", "/users/@me", "me", lambda c: Reply(200, self.world.bot_user)),
            ("GET", rf"/users/(?P<user_id>{_ID})", "user", self._get_user),
            ("POST", "/users/@me/channels", "dm", self._create_dm),
            ("GET", "/oauth2/applications/@me", "application", lambda c: Reply(200, self.application_info())),
            ("GET", "/applications/@me", "application", lambda c: Reply(200, self.application_info())),
            ("GET", "/gateway", "gateway", lambda c: Reply(200, {"url": self.gateway_url})),
            ("GET", "/gateway/bot", "gateway_bot", self._gateway_bot),
            ("PUT", rf"/applications/(?P<app_id>{_ID})/commands", "sync_global", self._sync),
            ("GET", rf"/applications/(?P<app_id>{_ID})/commands", "get_commands", self._get_commands),
            ("PUT", rf"/applications/(?P<app_id>{_ID})/guilds/(?P<guild_id>{_ID})/commands", "sync_guild", self._sync),
            ("GET", rf"/applications/(?P<app_id>{_ID})/guilds/(?P<guild_id>{_ID})/commands", "get_commands",
             self._get_commands),
            ("POST", rf"/interactions/(?P<interaction_id>{_ID})/(?P<token>{_TOKEN})/callback", "callback",
             self._callback),
            ("POST", hook, "followup", self._followup),
            ("GET", rf"{hook}/messages/(?P<message_id>{_ID}|@original)", "webhook_get", self._webhook_message),
            ("PATCH", rf"{hook}/messages/(?P<message_id>{_ID}|@original)", "webhook_edit", self._webhook_message),
            ("DELETE", rf"{hook}/messages/(?P<message_id>{_ID}|@original)", "webhook_delete", self._webhook_message),
            ("POST", rf"{channel}/messages", "channel_message", self._channel_post),
            ("GET", rf"{channel}/messages", "channel_history", self._channel_history),
            ("GET", message, "message_get", self._channel_message),
            ("PATCH", message, "message_edit", self._channel_message),
            ("DELETE", message, "message_delete", self._channel_message),
            ("PUT", rf"{channel}/messages/pins/(?P<message_id>{_ID})", "pin", self._pin),
            ("DELETE", rf"{channel}/messages/pins/(?P<message_id>{_ID})", "unpin", self._pin),
            ("GET", rf"{channel}/messages/pins", "pins", self._pins),
            ("PUT", rf"{message}/reactions/(?P<emoji>[^/]+)/@me", "reaction_add", self._no_content),
            ("DELETE", rf"{message}/reactions/(?P<emoji>[^/]+)/@me", "reaction_remove", self._no_content),
            ("POST", rf"{channel}/typing", "typing", self._no_content),
            ("GET", channel, "channel", self._get_channel),
            ("GET", rf"/guilds/(?P<guild_id>{_ID})", "guild", self._get_guild),
            ("GET", rf"/guilds/(?P<guild_id>{_ID})/channels", "guild_channels", self._get_guild),
            ("GET", rf"/guilds/(?P<guild_id>{_ID})/roles", "guild_roles", self._get_guild),
            ("GET", rf"/guilds/(?P<guild_id>{_ID})/members/(?P<user_id>{_ID})", "member", self._get_member),
        ]
        self._routes += [(m, re.compile(p), name, h) for m, p, name, h in table]

    def take_fault(self, method: str, path: str) -> Fault | None:
        """Return (and count) the first scripted fault that applies to this request, if any."""
        fault = next((f for f in self._faults if f.matches(method.upper(), path)), None)
        if fault is not None:
            fault.remaining -= 1
            fault.hits += 1
        return fault

    async def serve(self, method: str, path: str, **request: Any) -> Reply:
        """Answer one request like Discord over a connection: with the scripted fault's delay and effect, if any.

        Takes the same keyword arguments as `handle`. A client that gives up waiting does not stop the request:
        run this where cancelling the client does not cancel it (the server's handler, or a shielded task).
        """
        fault = self.take_fault(method, path)
        if fault is not None and not fault.applied:
            await asyncio.sleep(fault.delay)
        reply = self.handle(method, path, fault=fault, **request)
        if fault is not None and fault.applied:
            await asyncio.sleep(fault.delay)
        return reply

    def handle(self, method: str, path: str, *, params: Mapping[str, str] | None = None, json: Any = None,
               files: Mapping[int, Upload] | None = None, headers: Mapping[str, str] | None = None,
               fault: Fault | None = None) -> Reply:
        """Answer one REST request (path without the /api/v10 prefix) at once and record it.

        `fault` (from `take_fault`; `serve` does both and waits the fault's delay) replaces the real handling
        or, when it is `applied`, the real answer.
        """
        method, params, files = method.upper(), dict(params or {}), dict(files or {})
        name, handler, ids = "unhandled", None, {}
        for route_method, pattern, route_name, route_handler in self._routes:
            match = pattern.fullmatch(path) if route_method == method else None
            if match is not None:
                name, handler = route_name, route_handler
                ids = {k: v for k, v in match.groupdict().items() if v is not None}
                if ids.get("token") in self._tokens:
                    ids["interaction_id"] = self._tokens[ids["token"]]
                break

        def record(reply: Reply, route: str = name) -> Reply:
            """Append the request and its answer to the log, wake waiters, return the answer."""
            uploads = [files[k] for k in sorted(files)]
            self.requests.append(Request(method, path, route, params, copy.deepcopy(json), uploads, reply.status,
                                         copy.deepcopy(reply.body), ids, fault))
            self.notify()
            return reply

        if fault is not None and not fault.applied and (fault.drop or fault.status is not None):
            return record(fault.reply(Reply(0)))
        route, reply = self._run(handler, name, Call(method, path, params, json, files, ids), headers)
        return record(fault.reply(reply) if fault is not None else reply, route)

    def _run(self, handler: Handler | None, name: str, call: Call,
             headers: Mapping[str, str] | None) -> tuple[str, Reply]:
        """Run the route's handler; return the route name to record (or "error" if the fake crashed) and the answer."""
        if handler is None:
            return name, Reply(404, {"message": f"fake discord: no route for {call.method} {call.path}", "code": 0})
        exempt = name.startswith(("callback", "followup", "webhook"))  # interaction tokens need no bot token
        if self.token is not None and headers is not None and not exempt \
                and headers.get("Authorization") != f"Bot {self.token}":
            return name, Reply(401, {"message": "401: Unauthorized", "code": 0})
        try:
            return name, handler(call)
        except FakeHTTPError as exc:
            return name, Reply(exc.status, {"message": exc.message, "code": exc.code})
        except Exception as exc:  # a bug in the fake or an unexpected body: report it, never 5xx (clients retry)
            detail = "".join(traceback.format_exception(exc))
            return "error", Reply(400, {"message": f"fake discord crashed on {call.method} {call.path}: {exc!r}",
                                        "code": 0, "traceback": detail})

    def fail_next(self, method: str, path_regex: str, status: int, body: Any = None, times: int = 1, *,
                  headers: Mapping[str, str] | None = None, retry_after: float = 0.05, scope: str = "user",
                  delay: float = 0.0, applied: bool = False) -> Fault:
        """Answer the next `times` requests whose path matches `path_regex` (re.search) with `status` and `body`.

        Faults apply in the order added, so `fail_next(..., 429)` then `fail_next(..., 500)` gives 429, then 500.
        A 429 is shaped like Discord's: `retry_after` (seconds) in the body and, rounded up, in `Retry-After`;
        `scope` "user" or "shared" (per route, with X-RateLimit-* bucket headers) or "global" (body `global: true`,
        `X-RateLimit-Global`); and a `Via` header, without which discord.py takes the 429 for a Cloudflare ban.
        `delay`: wait that long before answering. `applied`: handle the request for real first (the message is
        posted), then answer the failure. `method` may be "*". Paths have no /api/v10 prefix,
        e.g. r"^/channels/\\d+/messages$".
        """
        extra = dict(headers or {})
        if status == 429:
            if scope not in RATE_LIMIT_SCOPES:
                raise ValueError(f"scope must be one of {RATE_LIMIT_SCOPES}, not {scope!r}")
            is_global = scope == "global"
            bucket = hashlib.sha1(f"{method.upper()} {path_regex}".encode()).hexdigest()[:16]
            if body is None:
                body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
            limits = {"X-RateLimit-Global": "true"} if is_global else {
                "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Bucket": bucket,
                "X-RateLimit-Reset-After": f"{retry_after:.3f}"}
            extra = {"Via": "1.1 google", "Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": scope,
                     **limits, **extra}
        elif body is None:
            body = {"message": f"{status}: scripted failure", "code": 0}
        return self._add_fault(Fault(method.upper(), re.compile(path_regex), status, body, extra, times, delay,
                                     applied=applied))

    def drop_next(self, method: str, path_regex: str, times: int = 1, *, delay: float = 0.0,
                  applied: bool = False) -> Fault:
        """Close the connection of the next `times` matching requests without an answer (after `delay` seconds).

        The client sees `aiohttp.ServerDisconnectedError`. With `applied` the request took effect first.
        """
        return self._add_fault(Fault(method.upper(), re.compile(path_regex), None, None, {}, times, delay, drop=True,
                                     applied=applied))

    def delay_next(self, method: str, path_regex: str, seconds: float, times: int = 1, *,
                   applied: bool = False) -> Fault:
        """Answer the next `times` matching requests normally, but only after `seconds` (so a client timeout fires).

        Without `applied` the request takes effect when the delay ends, even if the client gave up meanwhile; with
        `applied` it takes effect at once and only the answer is late.
        """
        return self._add_fault(Fault(method.upper(), re.compile(path_regex), None, None, {}, times, seconds,
                                     applied=applied))

    def _add_fault(self, fault: Fault) -> Fault:
        """Queue a fault after the ones already scripted and return it (its `hits` count the requests it shaped)."""
        self._faults.append(fault)
        return fault

    # ----------------------------------------------------------------- waiting

    def notify(self) -> None:
        """Wake every coroutine blocked in `wait_until` so it re-checks its condition."""
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_until(self, check: Callable[[], T], timeout: float = 5.0, *, what: str = "a condition",
                         poll: float | None = None) -> T:
        """Return the first truthy value of `check()`, re-checked after every recorded request or gateway event,
        and with `poll` at least that often (for what changes without a request, such as the bot's database)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = check()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n  ".join(str(r) for r in self.requests[-15:]) or "(none)"
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}; last requests:\n  {recent}")
            waiter = loop.create_future()
            self._waiters.append(waiter)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, remaining if poll is None else min(remaining, poll))

    async def wait_for(self, predicate: Callable[[Request], bool], timeout: float = 5.0) -> Request:
        """Return the first recorded request (past or future) matching `predicate`."""
        return await self.wait_until(lambda: next((r for r in self.requests if predicate(r)), None), timeout,
                                     what="a matching request")

    async def wait_for_message(self, predicate: Callable[[SentMessage], bool], timeout: float = 5.0) -> SentMessage:
        """Return the first stored message (current state) matching `predicate`."""
        return await self.wait_until(lambda: next((m for m in self._messages.values() if predicate(m)), None),
                                     timeout, what="a matching message")

    async def wait_for_callback(self, interaction_id: str, timeout: float = 5.0) -> Request:
        """Return the successful interaction callback request of an interaction."""
        return await self.wait_for(lambda r: r.route == "callback" and r.interaction_id == interaction_id
                                   and 200 <= r.status < 300, timeout)

    async def wait_for_response(self, interaction_id: str, timeout: float = 5.0, *, final: bool = True) -> SentMessage:
        """Return the interaction's original response message; with `final`, wait until it is no longer loading."""
        def check() -> SentMessage | None:
            record = self.interactions.get(interaction_id)
            if record is None or not record.callback_types:
                return None
            msg = self._messages.get(record.original_message_id or "")
            return None if msg is None or (final and msg.loading) else msg

        return await self.wait_until(check, timeout, what=f"the response to interaction {interaction_id}")

    async def wait_for_result(self, interaction_id: str, timeout: float = 5.0) -> SentMessage:
        """Return what shows the interaction's result: its answer (a private one, a refusal), or, once the bot
        took its "thinking…" away or acknowledged a button silently, the first message it posted in the channel
        after the interaction (the result posted from its outbox)."""
        def check() -> SentMessage | None:
            record = self.interactions.get(interaction_id)
            if record is None or not record.callback_types:
                return None
            followups = [m for m in self.responses(interaction_id) if m.source == "followup" and not m.deleted]
            if followups:
                return followups[-1]
            original = self._messages.get(record.original_message_id or "")
            if original is not None and record.callback_types[-1] != 6 and not original.deleted:
                return None if original.loading else original
            return next((m for m in self.messages(record.channel_id)
                         if m.source == "channel" and int(m.id) > int(interaction_id)), None)

        return await self.wait_until(check, timeout, what=f"the result of interaction {interaction_id}")

    # ---------------------------------------------------------------- accessors

    def messages(self, channel_id: str | int | None = None, *, include_deleted: bool = False) -> list[SentMessage]:
        """Return the stored messages (optionally of one channel) in creation order, in their current state."""
        return [m for m in self._messages.values() if (channel_id is None or m.channel_id == str(channel_id))
                and (include_deleted or not m.deleted) and m.source != "external"]

    def message(self, message_id: str | int) -> SentMessage | None:
        """Return a stored message by id."""
        return self._messages.get(str(message_id))

    def responses(self, interaction_id: str) -> list[SentMessage]:
        """Return the messages an interaction created: the original response, then followups."""
        return [m for m in self._messages.values() if m.interaction_id == interaction_id]

    def ledger(self, *, interactions: bool = False) -> dict[str, list[SentMessage]]:
        """Per channel, the messages the bot posted there and did not delete, in the order they were created.

        Channel posts (POST /channels/{id}/messages) only, unless `interactions`: then also the public interaction
        responses and followups. Each message carries its `nonce`, so a test can check that every announcement
        is there exactly once, in order.
        """
        found: dict[str, list[SentMessage]] = {}
        for msg in self.messages():
            if msg.source == "channel" or (interactions and not msg.ephemeral):
                found.setdefault(msg.channel_id, []).append(msg)
        return found

    def callbacks(self, interaction_id: str) -> list[Request]:
        """Return the callback requests of an interaction."""
        return [r for r in self.requests if r.route == "callback" and r.interaction_id == interaction_id]

    def unhandled(self) -> list[Request]:
        """Return the requests that had no route (or crashed the fake); tests should assert this is empty."""
        return [r for r in self.requests if r.unhandled]

    def synced_commands(self, guild_id: str | int | None = None) -> list[dict]:
        """Return the commands last synced globally (or for one guild)."""
        return self.commands.get(None if guild_id is None else str(guild_id), [])

    def find_component(self, custom_id: str) -> SentMessage | None:
        """Return the newest non-deleted message (including ones seen in interactions) with this custom_id."""
        return next((m for m in reversed(self._messages.values()) if not m.deleted and m.component(custom_id)), None)

    def component_message(self, custom_id: str, message: dict | SentMessage | None = None) -> dict:
        """Return the payload of `message`, or of the newest message having a component with this custom_id."""
        if message is None:
            found = self.find_component(custom_id)
            if found is None:
                raise LookupError(f"no message has a component with custom_id {custom_id!r}")
            return found.payload
        return message.payload if isinstance(message, SentMessage) else message

    def application_info(self) -> dict:
        """Return the GET /oauth2/applications/@me payload."""
        return {
            "id": self.world.app_id, "name": self.world.bot_user["username"], "icon": None, "description": "",
            "summary": "", "type": None, "bot": self.world.bot_user, "bot_public": True,
            "bot_require_code_grant": False, "owner": self.world.owner["user"], "team": None,
            "verify_key": "0" * 64, "flags": 0, "rpc_origins": [], "tags": [], "install_params": None,
            "custom_install_url": None, "interactions_endpoint_url": None, "redirect_uris": [], "guild_id": None,
            "approximate_guild_count": 1,
        }

    # ------------------------------------------------------------- interactions

    def register_interaction(self, payload: dict) -> InteractionRecord:
        """Remember an interaction about to be delivered so its callback, followups and edits can be answered."""
        channel = payload.get("channel") or {"id": payload["channel_id"]}
        if self._channel(channel["id"]) is None and "type" in channel:
            self._channels[channel["id"]] = channel
        message_id = None
        if payload.get("message"):
            message_id = payload["message"]["id"]
            if message_id not in self._messages:
                self._messages[message_id] = SentMessage(copy.deepcopy(payload["message"]), [], "external")
        who = (payload.get("member") or {}).get("user") or payload.get("user") or {}
        record = InteractionRecord(payload["id"], payload["token"], payload["type"], channel["id"], who.get("id"),
                                   payload, message_id=message_id, original_message_id=message_id,
                                   created_at=self.clock())
        self.interactions[record.id] = record
        self._tokens[record.token] = record.id
        return record

    def _interaction(self, call: Call) -> InteractionRecord:
        """Return the interaction a callback/webhook route refers to, refused like Discord when unknown, when the
        webhook routes come before the callback or after the token's lifetime."""
        record = self.interactions.get(call.ids.get("interaction_id", ""))
        webhook = call.ids.get("app_id") is not None
        if record is None or record.token != call.ids.get("token"):
            if webhook:
                raise FakeHTTPError(404, 10015, "Unknown Webhook")
            raise FakeHTTPError(404, 10062, "Unknown interaction")
        if webhook and self.clock() - record.created_at > self.token_lifetime:
            raise FakeHTTPError(401, 50027, "Invalid Webhook Token")
        if webhook and not record.callback_types:
            raise FakeHTTPError(404, 10015, "Unknown Webhook")  # the token becomes a webhook with the callback
        limit = record.payload.get("attachment_size_limit")
        if limit is not None and any(len(upload.data) > limit for upload in call.files.values()):
            raise FakeHTTPError(413, 40005, "Request entity too large")  # the interaction's upload limit
        return record

    def _callback(self, call: Call) -> Reply:
        """POST /interactions/{id}/{token}/callback."""
        record = self._interaction(call)
        if record.callback_types:
            raise FakeHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if self.clock() - record.created_at > self.callback_window:
            raise FakeHTTPError(404, 10062, "Unknown interaction")  # too late: Discord has dropped the interaction
        body = call.json or {}
        kind, data = int(body["type"]), body.get("data") or {}
        msg: SentMessage | None = None
        if kind == CHANNEL_MESSAGE:
            msg = self._create(record.channel_id, data, call.files, source="response", interaction=record)
            record.original_message_id = msg.id
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = int(data.get("flags") or 0) | FLAG_LOADING
            msg = self._create(record.channel_id, {"flags": flags}, {}, source="response", interaction=record)
            record.original_message_id = msg.id
        elif kind == UPDATE_MESSAGE:
            msg = self._existing(record.message_id)
            self._edit(msg, data, call.files)
        elif kind == AUTOCOMPLETE_RESULT:
            record.choices = list(data.get("choices") or [])
        elif kind == MODAL:
            record.modal = data
        record.callback_types.append(kind)
        info: dict[str, Any] = {"id": record.id, "type": record.type}
        answer: dict[str, Any] = {"interaction": info}
        if msg is not None:
            info.update(response_message_id=msg.id, response_message_loading=msg.loading,
                        response_message_ephemeral=msg.ephemeral)
            answer["resource"] = {"type": kind, "message": msg.payload}
        return Reply(200, answer) if _truthy(call.params.get("with_response")) else Reply(204)

    def _followup(self, call: Call) -> Reply:
        """POST /webhooks/{app}/{token}: a followup; the first one after a defer fills the "thinking…" message,
        unless the bot deleted that placeholder: then it is a new message with its own flags, as on Discord."""
        record = self._interaction(call)
        original = self._messages.get(record.original_message_id or "")
        body = call.json or {}
        if original is not None and original.loading and not original.deleted and original.interaction_id == record.id:
            self._edit(original, {**body, "flags": original.flags & FLAG_EPHEMERAL}, call.files)
            msg = original
        else:
            msg = self._create(record.channel_id, body, call.files, source="followup", interaction=record)
        return Reply(200, msg.payload) if _truthy(call.params.get("wait")) else Reply(204)

    def _webhook_message(self, call: Call) -> Reply:
        """GET/PATCH/DELETE /webhooks/{app}/{token}/messages/{id or @original}."""
        record = self._interaction(call)
        wanted = call.ids["message_id"]
        msg = self._existing(record.original_message_id if wanted == "@original" else wanted)
        return self._message_action(call, msg)

    # ----------------------------------------------------------------- messages

    def _channel(self, channel_id: str) -> dict | None:
        """Return a known channel payload."""
        return self.world.channel_by_id(channel_id) or self._channels.get(channel_id)

    def _existing(self, message_id: str | None) -> SentMessage:
        """Return a stored, non-deleted message or raise Unknown Message."""
        msg = self._messages.get(message_id or "")
        if msg is None or msg.deleted:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return msg

    def _attachments(self, channel_id: str, body: dict, files: Mapping[int, Upload],
                     existing: list[dict]) -> list[dict]:
        """Return the attachment list after a create/edit: kept attachments plus the newly uploaded files."""
        listed = body.get("attachments")
        by_id = {str(a["id"]): a for a in existing}
        kept: list[dict] = list(existing) if listed is None else []
        new: list[tuple[Upload, dict]] = []
        used: set[int] = set()
        for entry in listed or []:
            key = str(entry.get("id"))
            if key in by_id:
                kept.append(by_id[key])
            elif key.isdigit() and int(key) in files:
                used.add(int(key))
                new.append((files[int(key)], entry))
        new += [(files[i], {}) for i in sorted(files) if i not in used]
        result = list(kept)
        for upload, entry in new:
            attachment_id = payloads.snowflake()
            upload.description = entry.get("description", upload.description)
            self.uploads[attachment_id] = upload
            url = f"{self.cdn_base}/attachments/{channel_id}/{attachment_id}/{upload.filename}"
            result.append({"id": attachment_id, "filename": upload.filename, "size": len(upload.data), "url": url,
                           "proxy_url": url, "content_type": upload.content_type,
                           "description": upload.description})
        return result

    def _files_of(self, attachments: list[dict]) -> list[Upload]:
        """Return the uploads behind an attachment list."""
        return [self.uploads[a["id"]] for a in attachments if a["id"] in self.uploads]

    def _create(self, channel_id: str, body: dict, files: Mapping[int, Upload], *, source: str,
                interaction: InteractionRecord | None = None) -> SentMessage:
        """Store and return a new message sent by the bot."""
        channel = self._channel(channel_id) or {}
        message_id = payloads.snowflake()
        attachments = self._attachments(channel_id, body, files, [])
        kind = 19 if body.get("message_reference") else 0
        if interaction is not None:
            kind = 20 if interaction.type == payloads.APPLICATION_COMMAND and source == "response" else kind
        payload = payloads.message(
            channel_id, author=self.world.bot_user, content=body.get("content") or "", id=message_id,
            embeds=body.get("embeds") or [], components=body.get("components") or [], attachments=attachments,
            flags=int(body.get("flags") or 0), guild_id=channel.get("guild_id"), type=kind,
            application_id=self.world.app_id if interaction is not None else None,
        )
        if body.get("message_reference"):
            payload["message_reference"] = {"channel_id": channel_id, **body["message_reference"]}
        if body.get("poll"):
            payload["poll"] = body["poll"]
        if body.get("nonce") is not None:
            payload["nonce"] = body["nonce"]
        if interaction is not None:
            actor = (interaction.payload.get("member") or {}).get("user") or interaction.payload.get("user")
            name = (interaction.payload.get("data") or {}).get("name", "")
            payload["interaction_metadata"] = {"id": interaction.id, "type": interaction.type, "user": actor,
                                               "authorizing_integration_owners": {}}
            payload["interaction"] = {"id": interaction.id, "type": interaction.type, "name": name, "user": actor}
        msg = SentMessage(payload, self._files_of(attachments), source,
                          interaction.id if interaction is not None else None)
        self._messages[message_id] = msg
        return msg

    def _edit(self, msg: SentMessage, body: dict, files: Mapping[int, Upload]) -> None:
        """Apply an edit (content, embeds, components, flags, attachments) to a stored message."""
        payload = msg.payload
        for key, empty in (("content", ""), ("embeds", []), ("components", [])):
            if key in body:
                payload[key] = body[key] if body[key] is not None else empty
        flags = msg.flags & FLAG_EPHEMERAL
        if body.get("flags") is not None:
            flags |= int(body["flags"]) & ~FLAG_LOADING
        else:
            flags |= msg.flags & ~(FLAG_EPHEMERAL | FLAG_LOADING)
        payload["flags"] = flags
        payload["attachments"] = self._attachments(msg.channel_id, body, files, payload.get("attachments") or [])
        payload["edited_timestamp"] = payloads.now_iso()
        msg.files = self._files_of(payload["attachments"])
        msg.edits += 1

    def _message_action(self, call: Call, msg: SentMessage) -> Reply:
        """GET, PATCH or DELETE one stored message."""
        if call.method == "DELETE":
            msg.deleted = True
            return Reply(204)
        if call.method == "PATCH":
            self._edit(msg, call.json or {}, call.files)
        return Reply(200, msg.payload)

    def _channel_post(self, call: Call) -> Reply:
        """POST /channels/{id}/messages."""
        channel_id = call.ids["channel_id"]
        if self._channel(channel_id) is None:
            raise FakeHTTPError(404, 10003, "Unknown Channel")
        body = call.json or {}
        if not (body.get("content") or body.get("embeds") or body.get("components") or call.files
                or body.get("sticker_ids") or body.get("poll")):
            raise FakeHTTPError(400, 50006, "Cannot send an empty message")
        nonce = body.get("nonce")
        if nonce is None:
            return Reply(200, self._create(channel_id, body, call.files, source="channel").payload)
        if not isinstance(nonce, str | int) or len(str(nonce)) > NONCE_MAX_LENGTH:
            raise FakeHTTPError(400, 50035, "Invalid Form Body")
        key, now = (self.world.bot_user["id"], str(nonce)), self.clock()
        earlier = self._nonces.get(key)
        if body.get("enforce_nonce") and earlier is not None and now - earlier[1] <= self.nonce_window:
            return Reply(200, self._existing(earlier[0]).payload)  # deleted meanwhile: Unknown Message, no repost
        msg = self._create(channel_id, body, call.files, source="channel")
        self._nonces[key] = (msg.id, now)
        return Reply(200, msg.payload)

    def _channel_history(self, call: Call) -> Reply:
        """GET /channels/{id}/messages (newest first, honouring limit/before/after)."""
        found = [m for m in self.messages(call.ids["channel_id"]) if not m.ephemeral]
        if "before" in call.params:
            found = [m for m in found if int(m.id) < int(call.params["before"])]
        if "after" in call.params:
            found = [m for m in found if int(m.id) > int(call.params["after"])]
        limit = int(call.params.get("limit", 50))
        return Reply(200, [m.payload for m in reversed(found)][:limit])

    def _channel_message(self, call: Call) -> Reply:
        """GET/PATCH/DELETE /channels/{id}/messages/{id}."""
        msg = self._existing(call.ids["message_id"])
        if msg.channel_id != call.ids["channel_id"] or msg.ephemeral:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        return self._message_action(call, msg)

    def _pin(self, call: Call) -> Reply:
        """PUT/DELETE /channels/{id}/messages/pins/{id}: as on Discord, a new pin also posts the channel's "pinned
        a message" notice (a system message, type 6), and a channel holds at most MAX_PINS pins."""
        msg = self._existing(call.ids["message_id"])
        if msg.channel_id != call.ids["channel_id"] or msg.ephemeral:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        if call.method == "DELETE" or msg.payload.get("pinned"):
            msg.payload["pinned"] = call.method == "PUT"
            return Reply(204)
        if sum(1 for m in self.messages(msg.channel_id) if m.payload.get("pinned")) >= MAX_PINS:
            raise FakeHTTPError(400, 30003, "Maximum number of pins reached")
        msg.payload["pinned"] = True
        notice = self._create(msg.channel_id, {"message_reference": {"message_id": msg.id}}, {}, source="system")
        notice.payload["type"] = CHANNEL_PINNED_MESSAGE
        return Reply(204)

    def _pins(self, call: Call) -> Reply:
        """GET /channels/{id}/messages/pins: the pinned messages, newest first."""
        pinned = [m for m in reversed(self.messages(call.ids["channel_id"])) if m.payload.get("pinned")]
        return Reply(200, {"items": [{"pinned_at": payloads.now_iso(), "message": m.payload} for m in pinned],
                           "has_more": False})

    # --------------------------------------------------------- other resources

    def _no_content(self, call: Call) -> Reply:
        """Answer 204 (reactions, typing)."""
        return Reply(204)

    def _gateway_bot(self, call: Call) -> Reply:
        """GET /gateway/bot."""
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return Reply(200, {"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    def _get_user(self, call: Call) -> Reply:
        """GET /users/{id}."""
        found = self.world.user(call.ids["user_id"])
        if found is None:
            raise FakeHTTPError(404, 10013, "Unknown User")
        return Reply(200, found)

    def _create_dm(self, call: Call) -> Reply:
        """POST /users/@me/channels (open a DM)."""
        found = self.world.user((call.json or {}).get("recipient_id", ""))
        if found is None:
            raise FakeHTTPError(400, 50007, "Cannot send messages to this user")
        return Reply(200, self.world.dm_channel(found))

    def _get_channel(self, call: Call) -> Reply:
        """GET /channels/{id}."""
        found = self._channel(call.ids["channel_id"])
        if found is None:
            raise FakeHTTPError(404, 10003, "Unknown Channel")
        return Reply(200, found)

    def _get_guild(self, call: Call) -> Reply:
        """GET /guilds/{id}, /guilds/{id}/channels and /guilds/{id}/roles."""
        if call.ids["guild_id"] != self.world.guild_id:
            raise FakeHTTPError(404, 10004, "Unknown Guild")
        data = self.world.guild_payload()
        if call.path.endswith("/channels"):
            return Reply(200, [{**c, "guild_id": self.world.guild_id} for c in data["channels"]])
        if call.path.endswith("/roles"):
            return Reply(200, data["roles"])
        return Reply(200, {k: v for k, v in data.items() if k not in ("members", "channels", "threads")})

    def _get_member(self, call: Call) -> Reply:
        """GET /guilds/{id}/members/{id}."""
        found = self.world.members.get(call.ids["user_id"]) if call.ids["guild_id"] == self.world.guild_id else None
        if found is None:
            raise FakeHTTPError(404, 10007, "Unknown Member")
        return Reply(200, {k: v for k, v in found.items() if k != "permissions"})

    def _sync(self, call: Call) -> Reply:
        """PUT /applications/{app}/commands or .../guilds/{guild}/commands: store and echo with ids, or refuse the
        whole list (50035) when one of its commands breaks Discord's limits."""
        problems = [problem for command in call.json or [] for problem in command_problems(command)]
        if problems:
            raise FakeHTTPError(400, 50035, "Invalid Form Body: " + "; ".join(problems[:20]))
        guild_id = call.ids.get("guild_id")
        previous = {c["name"]: c for c in self.commands.get(guild_id, [])}
        stored = []
        for command in call.json or []:
            item = copy.deepcopy(command)
            item.setdefault("type", 1)
            old_id = previous.get(item["name"], {}).get("id")
            item["id"] = old_id or self.world.command_ids.get(item["name"]) or payloads.snowflake()
            item.update(application_id=self.world.app_id, version=payloads.snowflake())
            for key, default in (("description", ""), ("options", []), ("default_member_permissions", None),
                                 ("dm_permission", True), ("nsfw", False), ("integration_types", [0])):
                item.setdefault(key, default)
            if guild_id is not None:
                item["guild_id"] = guild_id
            if item["type"] == 1:
                self.world.command_ids[item["name"]] = item["id"]
                if guild_id == self.world.guild_id:
                    self.world.guild_commands.add(item["name"])
            stored.append(item)
        self.commands[guild_id] = stored
        return Reply(200, stored)

    def _get_commands(self, call: Call) -> Reply:
        """GET the synced commands."""
        return Reply(200, self.commands.get(call.ids.get("guild_id"), []))


def _name_ok(name: Any) -> bool:
    """Discord's rule for a command or option name: 1–32 letters, digits (any script), `-`, `_` or `'`, lower case."""
    return (isinstance(name, str) and 1 <= len(name) <= 32 and name == name.lower()
            and all(c in "-_'" or unicodedata.category(c)[0] in "LN" or unicodedata.category(c) in ("Mn", "Mc")
                    for c in name))


def command_problems(command: Mapping[str, Any]) -> list[str]:
    """What Discord refuses in a chat-input command: names, descriptions, localizations, counts and size."""
    problems: list[str] = []
    chars: dict[str, int] = {}

    def count(item: Mapping[str, Any], *fields: str) -> None:
        for locale in LOCALES:
            chars[locale] = chars.get(locale, 0) + sum(
                len(str((item.get(f"{f}_localizations") or {}).get(locale) or item.get(f) or "")) for f in fields)

    def named(item: Mapping[str, Any], where: str, *, description: bool = True) -> None:
        if not _name_ok(item.get("name")):
            problems.append(f"{where}: bad name {item.get('name')!r}")
        for locale, name in (item.get("name_localizations") or {}).items():
            if locale not in LOCALES:
                problems.append(f"{where}: unknown locale {locale!r}")
            elif not _name_ok(name):
                problems.append(f"{where}: bad {locale} name {name!r}")
        texts = [item.get("description"), *(item.get("description_localizations") or {}).values()]
        if description and not all(isinstance(t, str) and 1 <= len(t) <= 100 for t in texts):
            problems.append(f"{where}: a description is not 1–100 characters")
        for locale in item.get("description_localizations") or {}:
            if locale not in LOCALES:
                problems.append(f"{where}: unknown locale {locale!r}")

    def options(items: list[Mapping[str, Any]], where: str) -> None:
        if len(items) > 25:
            problems.append(f"{where}: {len(items)} options (at most 25)")
        for locale in [None, *LOCALES]:
            names = [(o.get("name_localizations") or {}).get(locale) or o.get("name") if locale else o.get("name")
                     for o in items]
            if len(names) != len(set(names)):
                problems.append(f"{where}: two options named alike in {locale or 'the default locale'}")
        seen_optional = False
        for option in items:
            here = f"{where} {option.get('name')}"
            named(option, here)
            count(option, "name", "description")
            if option.get("type") in (1, 2):
                options(option.get("options") or [], here)
                continue
            if option.get("required") and seen_optional:
                problems.append(f"{here}: a required option after an optional one")
            seen_optional = seen_optional or not option.get("required")
            choices = option.get("choices") or []
            if len(choices) > 25 or (choices and option.get("autocomplete")):
                problems.append(f"{here}: {len(choices)} choices (at most 25, none with autocomplete)")
            for choice in choices:
                texts = [choice.get("name"), *(choice.get("name_localizations") or {}).values()]
                if not all(isinstance(t, str) and 1 <= len(t) <= 100 for t in texts):
                    problems.append(f"{here}: a choice name is not 1–100 characters")
                if any(locale not in LOCALES for locale in choice.get("name_localizations") or {}):
                    problems.append(f"{here}: a choice localized for an unknown locale")
                count(choice, "name")
                for locale in LOCALES:
                    chars[locale] += len(str(choice.get("value")))

    if command.get("type", 1) != 1:
        return problems
    where = f"/{command.get('name')}"
    named(command, where)
    count(command, "name", "description")
    options(list(command.get("options") or []), where)
    if max(chars.values(), default=0) > MAX_COMMAND_CHARS:
        problems.append(f"{where}: {max(chars.values())} characters in one locale (at most {MAX_COMMAND_CHARS})")
    return problems
