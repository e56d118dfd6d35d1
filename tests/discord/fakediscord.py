"""Layer 3: a fake Discord (REST + gateway websocket) on 127.0.0.1 that an unmodified discord.py bot connects to.

In-process:
    async with FakeDiscord() as fake, fake.run_bot(MyBot()) as bot:
        rec = await fake.slash("new", "risk")
        msg = await fake.wait_for_response(rec.id)
        assert not fake.unhandled()

Bot as a subprocess (bot.py reads DISCORD_API_BASE / DISCORD_GATEWAY_URL):
    async with FakeDiscord(token="t") as fake:
        proc = await asyncio.create_subprocess_exec(sys.executable, "bot.py", env={**os.environ, **fake.env(),
                                                                                  "DISCORD_TOKEN": "t"})
        await fake.wait_until_identified()
        ...; proc.kill(); await proc.wait()          # restart: wait_until_identified(count=2)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

import discord
import pytest_asyncio
import yarl
from aiohttp import BodyPartReader, WSMsgType, web

from tests.discord.fakeapi import (
    CALLBACK_WINDOW_S,
    NONCE_WINDOW_S,
    TOKEN_LIFETIME_S,
    FakeAPI,
    InteractionRecord,
    Reply,
    SentMessage,
    Upload,
)
from tests.discord.payloads import World

JSON = "application/json"
_FILE_FIELD = re.compile(r"files\[(\d+)\]")


@dataclass
class GatewaySession:
    """One websocket connection from a client; `identify` is its IDENTIFY payload once sent."""

    number: int
    ws: web.WebSocketResponse
    session_id: str | None = None
    identify: dict | None = None
    seq: int = 0
    closed: bool = False
    received: list[dict] = field(default_factory=list)

    @property
    def identified(self) -> bool:
        """Whether the client sent IDENTIFY on this connection."""
        return self.identify is not None

    @property
    def shard(self) -> tuple[int, int]:
        """(shard id, shard count) the client identified as: (0, 1) when it did not ask for sharding."""
        asked = (self.identify or {}).get("shard") or [0, 1]
        return int(asked[0]), int(asked[1])

    def owns(self, guild_id: str | int) -> bool:
        """Whether Discord sends this session the guild's events: its shard is (guild_id >> 22) % shard count."""
        shard, count = self.shard
        return (int(guild_id) >> 22) % count == shard


class FakeDiscord(FakeAPI):
    """Fake Discord server: `async with FakeDiscord() as fake:` then point a bot at `fake.api_base`/`gateway_url`."""

    def __init__(self, world: World | None = None, *, token: str | None = None, host: str = "127.0.0.1",
                 port: int = 0, heartbeat_interval_ms: int = 41_250, clock: Callable[[], float] = time.monotonic,
                 callback_window: float = CALLBACK_WINDOW_S, token_lifetime: float = TOKEN_LIFETIME_S,
                 nonce_window: float = NONCE_WINDOW_S) -> None:
        """Configure (the clock and windows as for FakeAPI); nothing listens until `start()` (or `async with`)."""
        super().__init__(world, token=token, clock=clock, callback_window=callback_window,
                         token_lifetime=token_lifetime, nonce_window=nonce_window)
        self.host, self.port = host, port
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: list[GatewaySession] = []
        self._runner: web.AppRunner | None = None

    # ----------------------------------------------------------------- lifecycle

    @property
    def url(self) -> str:
        """Base URL of the server, e.g. http://127.0.0.1:PORT."""
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for DISCORD_API_BASE / discord.http.Route.BASE."""
        return f"{self.url}/api/v10"

    def env(self) -> dict[str, str]:
        """Return the environment variables that point a bot subprocess at this fake."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url}

    async def start(self) -> Self:
        """Listen on an ephemeral port of 127.0.0.1."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        self.port = self._runner.addresses[0][1]
        self.gateway_url = f"ws://{self.host}:{self.port}/gateway"
        self.cdn_base = self.url
        return self

    async def close(self) -> None:
        """Close every websocket and stop listening."""
        for session in self.sessions:
            if not session.ws.closed:
                await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        """Start the server."""
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        """Stop the server."""
        await self.close()

    @contextlib.contextmanager
    def patch_discord_py(self) -> Iterator[None]:
        """Point discord.py's Route.BASE and DEFAULT_GATEWAY at this fake (in-process bots), restoring them after."""
        gateway_class = discord.gateway.DiscordWebSocket
        old_base, old_gateway = discord.http.Route.BASE, gateway_class.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        gateway_class.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            gateway_class.DEFAULT_GATEWAY = old_gateway

    @contextlib.asynccontextmanager
    async def run_bot(self, bot: discord.Client, *, token: str | None = None,
                      timeout: float = 5.0) -> AsyncIterator[discord.Client]:
        """Run `bot.start()` in-process against this fake until `on_ready`; close the bot on exit."""
        with self.patch_discord_py():
            task = asyncio.create_task(bot.start(token or self.token or "fake-token"), name="fake-discord-bot")
            try:
                loop = asyncio.get_running_loop()
                deadline = loop.time() + timeout
                while not bot.is_ready():
                    if task.done():
                        task.result()
                        raise RuntimeError("bot.start() returned before the bot became ready")
                    if loop.time() > deadline:
                        seen = [str(r) for r in self.requests]
                        raise TimeoutError(f"bot not ready after {timeout}s; requests: {seen}")
                    await asyncio.sleep(0.005)
                yield bot
            finally:
                await bot.close()
                await asyncio.wait_for(task, timeout)

    # ------------------------------------------------------------------- REST

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        """Serve every /api/v{n}/… route through FakeAPI.serve (aiohttp does not cancel it if the client leaves)."""
        body, files = await self._read_body(request)
        reply = await self.serve(request.method, "/" + request.match_info["tail"], params=dict(request.query),
                                 json=body, files=files, headers=dict(request.headers))
        if reply.drop and request.transport is not None:
            request.transport.close()  # no answer: the client's aiohttp raises ServerDisconnectedError
        return self._response(reply)  # after a drop, never written

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, dict[int, Upload]]:
        """Parse a JSON body, or a multipart body with payload_json and files[n]."""
        files: dict[int, Upload] = {}
        if request.content_type == "multipart/form-data":
            body: Any = None
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                name = part.name or ""
                if name == "payload_json":
                    body = json.loads(await part.text())
                elif part.filename is not None:
                    match = _FILE_FIELD.fullmatch(name)
                    index = int(match.group(1)) if match else len(files)
                    data = bytes(await part.read(decode=False))
                    files[index] = Upload(part.filename, data, part.headers.get("Content-Type"))
            return body, files
        if not request.body_exists:
            return None, files
        raw = await request.read()
        if request.content_type == JSON:
            return json.loads(raw), files
        return raw.decode("utf-8", "replace"), files

    @staticmethod
    def _response(reply: Reply) -> web.Response:
        """Turn a Reply into a response with exactly `Content-Type: application/json` (discord.py requires it)."""
        if reply.body is None:
            return web.Response(status=reply.status, headers=reply.headers)
        return web.Response(status=reply.status, body=json.dumps(reply.body).encode(), content_type=JSON,
                            headers=reply.headers)

    async def _attachment(self, request: web.Request) -> web.Response:
        """Serve uploaded attachment bytes (so `Attachment.read()` works)."""
        upload = self.uploads.get(request.match_info["attachment_id"])
        if upload is None:
            raise web.HTTPNotFound()
        return web.Response(body=upload.data, content_type=upload.content_type or "application/octet-stream")

    # ---------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        """Speak the gateway protocol: HELLO, heartbeat ACK, IDENTIFY -> READY + GUILD_CREATE, RESUME -> op 9."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(len(self.sessions) + 1, ws)
        self.sessions.append(session)
        try:
            await self._send(session, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                session.received.append(data)
                await self._on_client_op(session, data)
        except ConnectionResetError:  # the client vanished (e.g. its process was killed) while we were sending
            pass
        finally:
            session.closed = True
            self.notify()
        return ws

    async def _on_client_op(self, session: GatewaySession, data: dict) -> None:
        """Answer one opcode sent by the client."""
        op, d = data.get("op"), data.get("d")
        if op == 1:
            await self._send(session, {"op": 11})
        elif op == 2:
            if self.token is not None and d.get("token") != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            session.identify, session.session_id = d, secrets.token_hex(16)
            mine = session.owns(self.world.guild_id)
            ready = {
                "v": 10, "user": self.world.bot_user,
                "guilds": [{"id": self.world.guild_id, "unavailable": True}] if mine else [],
                "session_id": session.session_id, "session_type": "normal", "resume_gateway_url": self.gateway_url,
                "shard": list(session.shard), "application": {"id": self.world.app_id, "flags": 0},
                "private_channels": [], "relationships": [], "presences": [], "guild_join_requests": [],
                "geo_ordered_rtc_regions": [], "user_settings": {}, "auth": {},
            }
            await self._dispatch(session, "READY", ready)
            if mine:
                await self._dispatch(session, "GUILD_CREATE", self.world.guild_payload())
            self.notify()
        elif op == 6:
            await self._send(session, {"op": 9, "d": False})
        elif op == 8:
            members = self.world.guild_payload()["members"]
            chunk = {"guild_id": self.world.guild_id, "members": members, "chunk_index": 0, "chunk_count": 1,
                     "not_found": [], "presences": [], "nonce": d.get("nonce")}
            await self._dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    @staticmethod
    async def _send(session: GatewaySession, payload: dict) -> None:
        """Send one gateway payload as a text frame."""
        await session.ws.send_str(json.dumps({"s": None, "t": None, "d": None, **payload}))

    async def _dispatch(self, session: GatewaySession, event: str, data: Mapping[str, Any]) -> None:
        """Send an op 0 DISPATCH with the next sequence number."""
        session.seq += 1
        await self._send(session, {"op": 0, "t": event, "s": session.seq, "d": data})

    @property
    def current_session(self) -> GatewaySession | None:
        """The newest identified, still-open gateway session that receives the world's guild (its shard's)."""
        return next((s for s in reversed(self.open_sessions) if s.owns(self.world.guild_id)), None)

    @property
    def open_sessions(self) -> list[GatewaySession]:
        """Every identified, still-open gateway session, oldest first (one per shard a bot process runs)."""
        return [s for s in self.sessions if s.identified and not s.closed]

    async def wait_until_identified(self, count: int = 1, timeout: float = 5.0) -> GatewaySession:
        """Wait until `count` IDENTIFYs happened in total and a session is open; return that session."""
        def check() -> GatewaySession | None:
            identified = sum(s.identified for s in self.sessions)
            return self.current_session if identified >= count else None
        return await self.wait_until(check, timeout, what=f"IDENTIFY number {count}")

    async def send_dispatch(self, event: str, data: Mapping[str, Any]) -> None:
        """Send a gateway event (e.g. "MESSAGE_CREATE") to the connected client."""
        session = self.current_session
        if session is None:
            raise RuntimeError("no identified gateway session; await fake.wait_until_identified() first")
        await self._dispatch(session, event, data)

    async def disconnect(self, code: int = 4000) -> None:
        """Close the current gateway connection from the server side (the client resumes, gets op 9, re-identifies)."""
        session = self.current_session
        if session is None:
            raise RuntimeError("no open gateway session")
        await session.ws.close(code=code)

    async def add_member(self, name: str, **kwargs: Any) -> dict:
        """Add a member to the world and, when a client is connected, dispatch GUILD_MEMBER_ADD."""
        payload = self.world.add_member(name, **kwargs)
        if self.current_session is not None:
            await self.send_dispatch("GUILD_MEMBER_ADD", {**payload, "guild_id": self.world.guild_id})
        return payload

    # ----------------------------------------------------------- interactions

    async def send_interaction(self, payload: dict, *,
                               to: Sequence[GatewaySession] | None = None) -> InteractionRecord:
        """Dispatch INTERACTION_CREATE to the client (or to each session of `to` at once, as when two processes
        both hold the guild's shard for a moment); returns the record (its `.id`) without waiting for the bot."""
        record = self.register_interaction(payload)
        if to is None:
            await self.send_dispatch("INTERACTION_CREATE", payload)
        else:
            await asyncio.gather(*(self._dispatch(session, "INTERACTION_CREATE", payload) for session in to))
        return record

    async def redeliver(self, record: InteractionRecord, times: int = 1) -> None:
        """Dispatch an interaction's INTERACTION_CREATE again, `times` times, as the gateway does after a resume or
        a retry: the same id and token, so its callback, followups and edits stay those of the one interaction."""
        for _ in range(times):
            await self.send_dispatch("INTERACTION_CREATE", record.payload)

    async def slash(self, command: str, *path: str, options: Mapping[str, Any] | None = None,
                    user: dict | None = None, channel: dict | None = None, **extra: Any) -> InteractionRecord:
        """Send `/command path… option:value…` as `user` (default world.player)."""
        return await self.send_interaction(self.world.slash(command, *path, options=options, user=user,
                                                            channel=channel, **extra))

    async def button(self, custom_id: str, *, message: dict | SentMessage | None = None, user: dict | None = None,
                     **extra: Any) -> InteractionRecord:
        """Press a button (found on the newest message having it unless `message` is given)."""
        return await self.send_interaction(self.world.component(
            custom_id, message=self.component_message(custom_id, message), user=user, **extra))

    async def select(self, custom_id: str, values: Sequence[str], *, message: dict | SentMessage | None = None,
                     user: dict | None = None, **extra: Any) -> InteractionRecord:
        """Choose `values` in a select menu."""
        return await self.send_interaction(self.world.component(
            custom_id, message=self.component_message(custom_id, message), values=values, user=user, **extra))

    async def autocomplete(self, command: str, *path: str, options: Mapping[str, Any], focused: str,
                           user: dict | None = None, timeout: float = 5.0, **extra: Any) -> list[dict]:
        """Send an autocomplete interaction and return the choices the bot answered."""
        record = await self.send_interaction(self.world.autocomplete(command, *path, options=options, focused=focused,
                                                                     user=user, **extra))
        await self.wait_for_callback(record.id, timeout)
        return record.choices or []

    async def submit_modal(self, custom_id: str, values: Mapping[str, str], *, user: dict | None = None,
                           **extra: Any) -> InteractionRecord:
        """Submit a modal with text-input values."""
        return await self.send_interaction(self.world.modal_submit(custom_id, values, user=user, **extra))


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with a default World."""
    async with FakeDiscord() as fake:
        yield fake
