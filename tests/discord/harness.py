"""Layer 2: real INTERACTION_CREATE payloads through a bot's CommandTree and views, with HTTP answered in-process.

    async with DispatchHarness(bot) as h:          # bot: commands.Bot with cogs added (not logged in)
        result = await h.slash("new", "risk")
        assert not result.ephemeral and "Risk" in result.content
        await h.button("join", user=h.add_member("Ada"))
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self
from urllib.parse import unquote

import aiohttp
import discord
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from tests.discord.fakeapi import FakeAPI, InteractionRecord, Reply, Request, SentMessage, Upload
from tests.discord.payloads import World

# Names of the tasks discord.py creates while handling an interaction; the harness awaits them.
TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-",
                 "discord-ui-modal-dispatch-", "discord.py: on_", "ai-seats-", "posts-")
"""The tasks an interaction starts: discord.py's dispatch, and the bot's AI seats and deliveries it wakes."""
REQUEST_TASK = "fake-discord-request"
_API_PATH = re.compile(r"/api/v\d+(/[^?]*)")
_FILE_FIELD = re.compile(r"files\[(\d+)\]")


class InteractionError(AssertionError):
    """The bot raised (or logged) an exception while handling an interaction."""


class _FakeResponse:
    """The bits of aiohttp.ClientResponse that discord.HTTPException reads."""

    def __init__(self, status: int) -> None:
        """Store the status."""
        self.status, self.reason, self.headers = status, "fake", {}


def _route_path(route: Route) -> str:
    """Return the path of a discord.py Route without scheme, host and /api/vN."""
    match = _API_PATH.search(route.url)
    if match is None:
        raise ValueError(f"unexpected route url {route.url}")
    return unquote(match.group(1))


def _parse_form(form: Iterable[Mapping[str, Any]]) -> tuple[Any, dict[int, Upload]]:
    """Turn discord.py's multipart field list (payload_json, files[n]) into (json body, uploads)."""
    body: Any = None
    files: dict[int, Upload] = {}
    for part in form:
        if part["name"] == "payload_json":
            body = json.loads(part["value"])
        elif "filename" in part:
            value = part["value"]
            if hasattr(value, "read"):
                position = value.tell()
                data = value.read()
                value.seek(position)
            else:
                data = value
            match = _FILE_FIELD.fullmatch(part["name"])
            index = int(match.group(1)) if match else len(files)
            data = data.encode() if isinstance(data, str) else bytes(data)
            files[index] = Upload(part["filename"], data, part.get("content_type"))
    return body, files


def _raise_for(reply: Reply) -> None:
    """Raise the discord.py exception a real error response would produce."""
    if reply.status < 400:
        return
    response = _FakeResponse(reply.status)
    if reply.status == 403:
        raise discord.Forbidden(response, reply.body)  # type: ignore[arg-type]
    if reply.status == 404:
        raise discord.NotFound(response, reply.body)  # type: ignore[arg-type]
    if reply.status >= 500:
        raise discord.DiscordServerError(response, reply.body)  # type: ignore[arg-type]
    raise discord.HTTPException(response, reply.body)  # type: ignore[arg-type]


async def _answer(api: FakeAPI, route: Route, body: Any, files: dict[int, Upload],
                  params: Mapping[str, Any] | None) -> Any:
    """Send one request to the FakeAPI like over the wire (JSON round trip) and return the decoded answer.

    The request runs in its own task: a bot that stops waiting (a timeout) does not stop Discord handling it.
    """
    wire_body = None if body is None else json.loads(json.dumps(body))
    served = asyncio.create_task(api.serve(route.method, _route_path(route), json=wire_body, files=files, params={
        k: str(int(v) if isinstance(v, bool) else v) for k, v in (params or {}).items()}), name=REQUEST_TASK)
    reply = await asyncio.shield(served)
    await asyncio.sleep(0)
    if reply.drop:
        raise aiohttp.ServerDisconnectedError()
    _raise_for(reply)
    return None if reply.body is None else json.loads(json.dumps(reply.body))


class _RecordingWebhookAdapter(AsyncWebhookAdapter):
    """discord.py's interaction/webhook HTTP adapter, answering from a FakeAPI instead of the network."""

    def __init__(self, api: FakeAPI) -> None:
        """Keep the FakeAPI."""
        super().__init__()
        self.api = api
        self.callbacks_returned: set[str] = set()

    async def request(self, route: Route, session: Any, *, payload: dict[str, Any] | None = None,
                      multipart: list[dict[str, Any]] | None = None, proxy: str | None = None,
                      proxy_auth: Any = None, files: Sequence[discord.File] | None = None, reason: str | None = None,
                      auth_token: str | None = None, params: dict[str, Any] | None = None) -> Any:
        """Answer a webhook/interaction request."""
        body, uploads = _parse_form(multipart) if multipart else (payload, {})
        answer = await _answer(self.api, route, body, uploads, params)
        if route.path.endswith("/callback"):  # discord.py now stores views etc. before its next await
            self.callbacks_returned.add(str(route.webhook_id))
            self.api.notify()
        return answer


class _ErrorCollector(logging.Handler):
    """Collects log records at ERROR and above that carry an exception."""

    def __init__(self) -> None:
        """Start empty."""
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep records with exc_info (once, even if seen by two loggers)."""
        if record.exc_info and record.exc_info[1] is not None and record not in self.records:
            self.records.append(record)


@dataclass
class InteractionResult:
    """What the bot did for one interaction: callback, response and followups, channel messages, errors."""

    api: FakeAPI
    record: InteractionRecord
    requests: list[Request]
    channel_messages: list[SentMessage]
    errors: list[BaseException] = field(default_factory=list)
    tracebacks: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        """The interaction id."""
        return self.record.id

    @property
    def callback_type(self) -> int | None:
        """The interaction callback type (4 message, 5 defer, 6 defer update, 7 update, 8 choices, 9 modal)."""
        return self.record.callback_types[0] if self.record.callback_types else None

    @property
    def deferred(self) -> bool:
        """Whether the bot deferred (callback 5 or 6)."""
        return self.callback_type in (5, 6)

    @property
    def messages(self) -> list[SentMessage]:
        """Messages this interaction created: the original response, then followups."""
        return self.api.responses(self.record.id)

    @property
    def response(self) -> SentMessage | None:
        """The original response message (for callback 7: the updated component message), or None."""
        if not self.record.callback_types:
            return None
        return self.api.message(self.record.original_message_id or "")

    @property
    def followups(self) -> list[SentMessage]:
        """Followup messages (excluding a followup that filled the deferred original)."""
        return [m for m in self.messages if m.source == "followup"]

    def _response(self) -> SentMessage:
        """Return the original response or fail the test with the recorded requests."""
        if self.response is None:
            done = "\n  ".join(str(r) for r in self.requests) or "(no requests)"
            raise AssertionError(f"interaction {self.id} got no response message; requests:\n  {done}")
        return self.response

    @property
    def content(self) -> str:
        """Content of the original response."""
        return self._response().content

    @property
    def embeds(self) -> list[dict]:
        """Embeds of the original response."""
        return self._response().embeds

    @property
    def components(self) -> list[dict]:
        """Components of the original response."""
        return self._response().components

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is ephemeral."""
        return self._response().ephemeral

    @property
    def files(self) -> list[Upload]:
        """Files on the response and the followups, in order (the posts' files are on `posts`)."""
        shown = [self.response] if self.response is not None else []
        shown += [m for m in self.messages if m not in shown]
        return [f for m in shown for f in m.files]

    @property
    def posts(self) -> list[SentMessage]:
        """The channel messages this interaction led to that are still there: the game's posts."""
        return [m for m in self.channel_messages if not m.deleted]

    @property
    def said(self) -> str:
        """Everything the interaction led to, one message a line: its answer and followups (when still there),
        then its posts in the channel."""
        answers = [m for m in self.messages if not m.deleted]
        return "\n".join(m.content for m in [*answers, *self.posts])

    @property
    def post(self) -> SentMessage:
        """The last post, which carries the buttons of what comes next."""
        if not self.posts:
            done = "\n  ".join(str(r) for r in self.requests) or "(no requests)"
            raise AssertionError(f"interaction {self.id} led to no post; requests:\n  {done}")
        return self.posts[-1]

    @property
    def choices(self) -> list[dict]:
        """Autocomplete choices ({"name", "value"}) the bot answered."""
        return self.record.choices or []

    @property
    def modal(self) -> dict | None:
        """The modal the bot opened (callback 9 data), or None."""
        return self.record.modal


class DispatchHarness:
    """Drive a (not logged-in) bot with real interaction payloads; HTTP is answered by an in-process FakeAPI."""

    def __init__(self, bot: discord.Client, world: World | None = None, *, setup_hook: bool = False,
                 raise_errors: bool = True, timeout: float = 5.0, task_prefixes: Sequence[str] = ()) -> None:
        """Wrap `bot`; setup_hook: run bot.setup_hook() on enter (loads cogs, syncs into the fake)."""
        self.bot = bot
        app_id = str(bot.application_id) if bot.application_id else None
        self.world = world or World(app_id=app_id)
        self.api = FakeAPI(self.world)
        self.run_setup_hook = setup_hook
        self.raise_errors = raise_errors
        self.timeout = timeout
        self.task_prefixes = (*TASK_PREFIXES, *task_prefixes)
        self._collector = _ErrorCollector()
        self._adapter = _RecordingWebhookAdapter(self.api)
        self._adapter_token: Any = None
        self._views_before: set[int] = set()
        self._background: set[asyncio.Task[Any]] = set()

    async def __aenter__(self) -> Self:
        """Prepare the bot's state (loop, user, application id, guild cache) and install the HTTP recorders."""
        bot, state = self.bot, self.bot._connection
        if not isinstance(bot.loop, asyncio.AbstractEventLoop):
            await bot._async_setup_hook()
        if state.user is None:
            state.user = discord.ClientUser(state=state, data=self.world.bot_user)
        if state.application_id is None:
            state.application_id = int(self.world.app_id)
        if bot.get_guild(int(self.world.guild_id)) is None:
            state._add_guild_from_data(self.world.guild_payload())  # type: ignore[arg-type]
        self._adapter_token = async_context.set(self._adapter)
        bot.http.request = self._http_request  # type: ignore[method-assign]
        for name in ("", "discord"):
            logging.getLogger(name).addHandler(self._collector)
        self._views_before = {id(v) for v in self._views()}
        if self.run_setup_hook:
            await bot.setup_hook()
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Stop views created meanwhile, cancel unsettled tasks (and delayed requests) and remove the recorders."""
        self._background.update(t for t in asyncio.all_tasks() if t.get_name() == REQUEST_TASK)
        for task in self._background:
            task.cancel()
        if self._background:
            await asyncio.wait(self._background)
        for view in self._views():
            if id(view) not in self._views_before:
                view.stop()
        for name in ("", "discord"):
            logging.getLogger(name).removeHandler(self._collector)
        self.bot.http.__dict__.pop("request", None)
        try:
            async_context.reset(self._adapter_token)
        except ValueError:  # exited in another context (e.g. a fixture): restore a plain adapter
            async_context.set(AsyncWebhookAdapter())
        if self.run_setup_hook and exc[0] is not None:  # a failed test: close what setup_hook opened (its store's
            await self.bot.close()  # thread would keep the test run from exiting)

    def _views(self) -> list[Any]:
        """Return the views and modals currently in the bot's view store."""
        store = self.bot._connection._view_store
        views = {id(item.view): item.view for items in store._views.values() for item in items.values() if item.view}
        views.update({id(m): m for m in store._modals.values()})
        return list(views.values())

    async def _http_request(self, route: Route, *, files: Sequence[discord.File] | None = None,
                            form: Iterable[dict[str, Any]] | None = None, **kwargs: Any) -> Any:
        """Replacement for bot.http.request: channel messages, DMs, fetches… answered by the FakeAPI."""
        body, uploads = _parse_form(form) if form else (kwargs.get("json"), {})
        return await _answer(self.api, route, body, uploads, kwargs.get("params"))

    # ------------------------------------------------------------------ driving

    async def interact(self, payload: dict, *, raise_errors: bool | None = None,
                       wait: bool = True) -> InteractionResult:
        """Dispatch one INTERACTION_CREATE payload, await the tasks it starts and return what the bot did.

        With `wait=False` return as soon as the interaction is acknowledged (for commands that go on to
        `await view.wait()`); the unfinished tasks keep running, and `settle()` awaits them later.
        """
        before = asyncio.all_tasks()
        first_request, first_error = len(self.api.requests), len(self._collector.records)
        known = {m.id for m in self.api.messages(include_deleted=True)}
        record = self.api.register_interaction(payload)
        if async_context.get() is not self._adapter:  # entered in another context (e.g. an async fixture)
            async_context.set(self._adapter)
        self.bot._connection.parse_interaction_create(json.loads(json.dumps(payload)))
        if wait:
            task_errors = await self._drain(before)
        else:
            task_errors = await self._until_acknowledged(record, before)
        records = self._collector.records[first_error:]
        channel_messages = [m for m in self.api.messages(include_deleted=True)
                            if m.id not in known and m.source == "channel"]
        errors, tracebacks = self._errors(records, task_errors)
        result = InteractionResult(self.api, record, self.api.requests[first_request:], channel_messages, errors,
                                   tracebacks)
        if result.errors and (self.raise_errors if raise_errors is None else raise_errors):
            raise InteractionError(f"interaction {record.id} failed:\n" + "\n".join(result.tracebacks)) \
                from result.errors[0]
        return result

    @staticmethod
    def _errors(records: list[logging.LogRecord],
                task_errors: list[BaseException]) -> tuple[list[BaseException], list[str]]:
        """Return the exceptions (logged ones, then failed tasks) and their formatted tracebacks."""
        errors = [r.exc_info[1] for r in records if r.exc_info and r.exc_info[1]] + task_errors
        tracebacks = [f"{r.getMessage()}\n{''.join(traceback.format_exception(*r.exc_info))}"  # type: ignore
                      for r in records]
        tracebacks += ["".join(traceback.format_exception(e)) for e in task_errors]
        return errors, tracebacks

    def _fresh_tasks(self, seen: set[asyncio.Task[Any]]) -> list[asyncio.Task[Any]]:
        """Return interaction-related tasks (by name) not in `seen`."""
        current = asyncio.current_task()
        return [t for t in asyncio.all_tasks() if t not in seen and t is not current
                and t.get_name().startswith(self.task_prefixes)]

    async def _until_acknowledged(self, record: InteractionRecord,
                                  before: set[asyncio.Task[Any]]) -> list[BaseException]:
        """Wait until the bot acknowledged `record` (or its tasks ended); keep unfinished tasks for `settle()`."""
        await asyncio.sleep(0)
        tasks = self._fresh_tasks(before)
        for task in tasks:
            task.add_done_callback(lambda _task: self.api.notify())
        returned = self._adapter.callbacks_returned
        await self.api.wait_until(lambda: record.id in returned or all(t.done() for t in tasks), self.timeout,
                                  what=f"an acknowledgement of interaction {record.id}")
        self._background.update(t for t in tasks if not t.done())
        return [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception()]  # type: ignore

    async def settle(self, *, raise_errors: bool | None = None) -> list[BaseException]:
        """Await the tasks left running by `interact(..., wait=False)` calls; return (or raise) their errors."""
        background, self._background = self._background, set()
        first_error = len(self._collector.records)
        task_errors = await self._drain(asyncio.all_tasks() - background)
        errors, tracebacks = self._errors(self._collector.records[first_error:], task_errors)
        if errors and (self.raise_errors if raise_errors is None else raise_errors):
            raise InteractionError("background interaction tasks failed:\n" + "\n".join(tracebacks)) from errors[0]
        return errors

    async def _drain(self, before: set[asyncio.Task[Any]]) -> list[BaseException]:
        """Await every interaction-related task started since `before` (and the tasks those start)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        seen = set(before)
        errors: list[BaseException] = []
        idle_rounds = 0
        while idle_rounds < 2:
            fresh = self._fresh_tasks(seen)
            if not fresh:
                idle_rounds += 1
                await asyncio.sleep(0)
                continue
            idle_rounds = 0
            _done, pending = await asyncio.wait(fresh, timeout=max(0.0, deadline - loop.time()))
            if pending:
                names = ", ".join(sorted(t.get_name() for t in pending))
                raise TimeoutError(f"interaction tasks still running after {self.timeout}s: {names}")
            for task in fresh:
                seen.add(task)
                if not task.cancelled() and task.exception() is not None:
                    errors.append(task.exception())  # type: ignore[arg-type]
        return errors

    async def slash(self, command: str, *path: str, options: Mapping[str, Any] | None = None,
                    user: dict | None = None, channel: dict | None = None, raise_errors: bool | None = None,
                    wait: bool = True, **extra: Any) -> InteractionResult:
        """Run `/command path… option:value…` as `user` (default world.player) in `channel` (default world.channel)."""
        payload = self.world.slash(command, *path, options=options, user=user, channel=channel,
                                   guild_command=self._is_guild_command(command), **extra)
        return await self.interact(payload, raise_errors=raise_errors, wait=wait)

    async def button(self, custom_id: str, *, message: dict | SentMessage | None = None, user: dict | None = None,
                     raise_errors: bool | None = None, wait: bool = True, **extra: Any) -> InteractionResult:
        """Press a button on `message` (default: the newest message having this custom_id)."""
        payload = self.world.component(custom_id, message=self.api.component_message(custom_id, message), user=user,
                                       **extra)
        return await self.interact(payload, raise_errors=raise_errors, wait=wait)

    async def select(self, custom_id: str, values: Sequence[str], *, message: dict | SentMessage | None = None,
                     user: dict | None = None, raise_errors: bool | None = None, wait: bool = True,
                     **extra: Any) -> InteractionResult:
        """Choose `values` in a select menu on `message` (default: the newest message having this custom_id)."""
        payload = self.world.component(custom_id, message=self.api.component_message(custom_id, message),
                                       values=values, user=user, **extra)
        return await self.interact(payload, raise_errors=raise_errors, wait=wait)

    async def autocomplete(self, command: str, *path: str, options: Mapping[str, Any], focused: str,
                           user: dict | None = None, **extra: Any) -> list[dict]:
        """Run an autocomplete request and return the choices ({"name", "value"})."""
        payload = self.world.autocomplete(command, *path, options=options, focused=focused, user=user,
                                          guild_command=self._is_guild_command(command), **extra)
        return (await self.interact(payload)).choices

    async def submit_modal(self, custom_id: str, values: Mapping[str, str], *, user: dict | None = None,
                           raise_errors: bool | None = None, wait: bool = True, **extra: Any) -> InteractionResult:
        """Submit the modal `custom_id` with text-input values."""
        payload = self.world.modal_submit(custom_id, values, user=user, **extra)
        return await self.interact(payload, raise_errors=raise_errors, wait=wait)

    def _is_guild_command(self, command: str) -> bool:
        """Whether the tree has `command` only as a guild command of the world's guild."""
        tree = getattr(self.bot, "tree", None)
        if tree is None or tree.get_command(command) is not None:
            return False
        return tree.get_command(command, guild=discord.Object(int(self.world.guild_id))) is not None

    def add_member(self, name: str, **kwargs: Any) -> dict:
        """Add a member to the world and to the bot's guild cache; return the member payload."""
        payload = self.world.add_member(name, **kwargs)
        self.guild._add_member(discord.Member(data=payload, guild=self.guild, state=self.bot._connection))
        return payload

    # ------------------------------------------------------------------ reading

    @property
    def guild(self) -> discord.Guild:
        """The world's guild as cached by the bot."""
        found = self.bot.get_guild(int(self.world.guild_id))
        assert found is not None
        return found

    def messages(self, channel_id: str | int | None = None) -> list[SentMessage]:
        """Messages the bot sent (optionally in one channel), current state."""
        return self.api.messages(channel_id)

    def unhandled(self) -> list[Request]:
        """Requests the fake had no route for; assert this is empty."""
        return self.api.unhandled()
