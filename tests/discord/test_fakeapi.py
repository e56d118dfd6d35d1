"""FakeAPI on its own: Discord's interaction windows, message nonces, scripted faults and the delivery ledger;
and the fake server's re-delivery of an interaction over the gateway."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from tests.discord.fakeapi import CALLBACK_WINDOW_S, TOKEN_LIFETIME_S, FakeAPI, InteractionRecord, ManualClock, Reply
from tests.discord.fakediscord import FakeDiscord

POSTS = r"^/channels/\d+/messages$"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1000.0)


@pytest.fixture
def api(clock: ManualClock) -> FakeAPI:
    return FakeAPI(clock=clock)


def deliver(api: FakeAPI) -> InteractionRecord:
    """Register a slash command interaction as if the gateway had just delivered it."""
    return api.register_interaction(api.world.slash("ping"))


def callback(api: FakeAPI, record: InteractionRecord, kind: int = 4, content: str = "pong") -> Reply:
    return api.handle("POST", f"/interactions/{record.id}/{record.token}/callback", params={"with_response": "1"},
                      json={"type": kind, "data": {"content": content}})


def webhook(api: FakeAPI, record: InteractionRecord, method: str = "POST", message: str | None = None) -> Reply:
    """A followup (message None) or a GET/PATCH/DELETE of a message through the interaction's token."""
    path = f"/webhooks/{api.world.app_id}/{record.token}" + (f"/messages/{message}" if message else "")
    body = {"content": "later"} if method in ("POST", "PATCH") else None
    return api.handle(method, path, params={"wait": "1"}, json=body)


def post(api: FakeAPI, content: str, *, channel: str | None = None, nonce: str | int | None = None,
         enforce: bool = False) -> Reply:
    body: dict = {"content": content}
    if nonce is not None:
        body["nonce"] = nonce
    if enforce:
        body["enforce_nonce"] = True
    return api.handle("POST", f"/channels/{channel or api.world.channel['id']}/messages", json=body)


def error(reply: Reply) -> tuple[int, int]:
    return reply.status, reply.body["code"]


# ------------------------------------------------------------------------------------------ interaction windows


def test_the_initial_callback_must_come_within_three_seconds(api: FakeAPI, clock: ManualClock) -> None:
    assert api.callback_window == CALLBACK_WINDOW_S == 3.0
    in_time = deliver(api)
    clock.advance(2.99)
    assert callback(api, in_time).status == 200 and in_time.acknowledged
    assert error(callback(api, in_time)) == (400, 40060)  # a second initial callback

    late = deliver(api)
    clock.advance(3.01)
    assert error(callback(api, late)) == (404, 10062)
    assert not late.acknowledged and api.responses(late.id) == []
    assert error(webhook(api, late)) == (404, 10015)  # never acknowledged: the token never became a webhook


def test_a_test_of_a_slow_path_may_widen_the_callback_window(clock: ManualClock) -> None:
    api = FakeAPI(clock=clock, callback_window=10.0)
    record = deliver(api)
    clock.advance(9.0)
    assert callback(api, record).status == 200


def test_the_interaction_token_works_for_fifteen_minutes(api: FakeAPI, clock: ManualClock) -> None:
    record = deliver(api)
    assert callback(api, record, kind=5).status == 200  # deferred
    clock.advance(TOKEN_LIFETIME_S - 1)
    assert webhook(api, record).status == 200
    assert webhook(api, record, "PATCH", "@original").status == 200
    clock.advance(2)
    for method, message in (("POST", None), ("GET", "@original"), ("PATCH", "@original"), ("DELETE", "@original")):
        assert error(webhook(api, record, method, message)) == (401, 50027), (method, message)
    assert error(callback(api, record)) == (400, 40060)


def test_webhook_routes_before_the_callback_are_unknown(api: FakeAPI) -> None:
    record = deliver(api)
    assert error(webhook(api, record, "PATCH", "@original")) == (404, 10015)
    assert error(webhook(api, record)) == (404, 10015)
    assert callback(api, record).status == 200
    assert webhook(api, record, "GET", "@original").body["content"] == "pong"


# ------------------------------------------------------------------------------------------------- nonces


def test_enforce_nonce_returns_the_earlier_message_instead_of_posting_again(api: FakeAPI) -> None:
    first = post(api, "Turn 3", nonce="outbox-1", enforce=True)
    again = post(api, "Turn 3", nonce="outbox-1", enforce=True)
    assert first.status == again.status == 200
    assert again.body["id"] == first.body["id"] and again.body["nonce"] == "outbox-1"
    assert [(m.content, m.nonce) for m in api.messages()] == [("Turn 3", "outbox-1")]
    assert post(api, "Turn 4", nonce="outbox-2", enforce=True).body["id"] != first.body["id"]


def test_without_enforce_nonce_the_nonce_is_only_echoed(api: FakeAPI) -> None:
    first = post(api, "hello", nonce=42)
    second = post(api, "hello", nonce=42)
    assert first.body["nonce"] == second.body["nonce"] == 42
    assert first.body["id"] != second.body["id"] and len(api.messages()) == 2
    assert post(api, "hello", nonce=42, enforce=True).body["id"] == second.body["id"]  # any earlier one counts


def test_enforce_nonce_forgets_after_its_window_and_refuses_a_deleted_message(api: FakeAPI, clock: ManualClock) -> None:
    first = post(api, "a", nonce="n1", enforce=True)
    clock.advance(api.nonce_window + 1)
    later = post(api, "a", nonce="n1", enforce=True)
    assert later.body["id"] != first.body["id"]

    gone = post(api, "b", nonce="n2", enforce=True)
    channel = api.world.channel["id"]
    assert api.handle("DELETE", f"/channels/{channel}/messages/{gone.body['id']}").status == 204
    assert error(post(api, "b", nonce="n2", enforce=True)) == (404, 10008)  # Discord does not repost it either
    assert [m.content for m in api.messages()] == ["a", "a"]


def test_a_nonce_is_the_authors_in_every_channel_and_at_most_25_characters(api: FakeAPI) -> None:
    """Discord's docs key the dedupe on the author alone, so the fake does too: reuse a nonce in another channel
    and the earlier channel's message comes back; nonces must be unique per bot, not per channel."""
    other = api.world.add_channel("other")
    first = post(api, "here", nonce="7", enforce=True)
    elsewhere = post(api, "there", nonce="7", enforce=True, channel=other["id"])
    assert elsewhere.body["id"] == first.body["id"] and api.messages(other["id"]) == []
    assert error(post(api, "x", nonce="n" * 26)) == (400, 50035)
    assert post(api, "x", nonce="n" * 25).status == 200


# ------------------------------------------------------------------------------------------------- faults


async def test_a_failure_after_apply_posts_the_message_and_answers_the_failure(api: FakeAPI) -> None:
    fault = api.fail_next("POST", POSTS, 500, applied=True)
    path = f"/channels/{api.world.channel['id']}/messages"
    reply = await api.serve("POST", path, json={"content": "posted anyway", "nonce": "n", "enforce_nonce": True})
    assert reply.status == 500 and fault.hits == 1 and fault.remaining == 0
    assert [m.content for m in api.messages()] == ["posted anyway"]
    retry = await api.serve("POST", path, json={"content": "posted anyway", "nonce": "n", "enforce_nonce": True})
    assert retry.status == 200 and retry.body["id"] == api.messages()[0].id and len(api.messages()) == 1
    assert [(r.status, r.scripted) for r in api.requests] == [(500, True), (200, False)]


async def test_a_dropped_connection_answers_nothing_and_applies_only_when_told(api: FakeAPI) -> None:
    path = f"/channels/{api.world.channel['id']}/messages"
    api.drop_next("POST", POSTS)
    api.drop_next("POST", POSTS, applied=True)
    lost = await api.serve("POST", path, json={"content": "lost"})
    landed = await api.serve("POST", path, json={"content": "landed"})
    assert (lost.drop, lost.status, landed.drop, landed.status) == (True, 0, True, 0)
    assert [m.content for m in api.messages()] == ["landed"]
    assert [(r.dropped, r.route) for r in api.requests] == [(True, "channel_message"), (True, "channel_message")]
    assert "dropped after apply" in str(api.requests[1])


async def test_a_delay_holds_the_answer_and_applies_at_its_start_or_its_end(api: FakeAPI) -> None:
    path = f"/channels/{api.world.channel['id']}/messages"
    for applied in (False, True):
        before = len(api.messages())
        api.delay_next("POST", POSTS, 0.05, applied=applied)
        slow = asyncio.create_task(api.serve("POST", path, json={"content": f"applied={applied}"}))
        await asyncio.sleep(0)
        assert not slow.done() and len(api.messages()) == before + applied  # posted while the answer waits?
        reply = await slow
        assert reply.status == 200 and reply.body["id"] == api.messages()[-1].id
    assert [m.content for m in api.messages()] == ["applied=False", "applied=True"]


async def test_a_429_carries_retry_after_in_body_and_header_per_route_or_global(api: FakeAPI) -> None:
    api.fail_next("POST", POSTS, 429, retry_after=0.25)
    api.fail_next("POST", POSTS, 429, retry_after=1.5, scope="global")
    route = await api.serve("POST", "/channels/1/messages", json={"content": "x"})
    assert route.body == {"message": "You are being rate limited.", "retry_after": 0.25, "global": False}
    assert route.headers["Retry-After"] == "1" and route.headers["Via"]
    assert route.headers["X-RateLimit-Scope"] == "user" and route.headers["X-RateLimit-Bucket"]
    assert "X-RateLimit-Global" not in route.headers
    glob = await api.serve("POST", "/channels/1/messages", json={"content": "x"})
    assert glob.body["global"] is True and glob.body["retry_after"] == 1.5
    assert (glob.headers["Retry-After"], glob.headers["X-RateLimit-Global"], glob.headers["X-RateLimit-Scope"]) == (
        "2", "true", "global")
    assert api.messages() == []
    with pytest.raises(ValueError, match="scope"):
        api.fail_next("POST", POSTS, 429, scope="planet")


# ------------------------------------------------------------------------------------------------- ledger


def test_the_ledger_lists_each_channels_posts_in_order_with_nonces(api: FakeAPI) -> None:
    other = api.world.add_channel("other")
    post(api, "one", nonce="1", enforce=True)
    post(api, "elsewhere", nonce="2", channel=other["id"])
    post(api, "one", nonce="1", enforce=True)  # a retry: no second message
    doomed = post(api, "deleted")
    post(api, "two", nonce="3")
    api.handle("DELETE", f"/channels/{api.world.channel['id']}/messages/{doomed.body['id']}")
    record = deliver(api)
    callback(api, record, content="the reply")

    channel = api.world.channel["id"]
    ledger = api.ledger()
    assert list(ledger) == [channel, other["id"]]
    assert [(m.content, m.nonce) for m in ledger[channel]] == [("one", "1"), ("two", "3")]
    assert [(m.content, m.nonce) for m in ledger[other["id"]]] == [("elsewhere", "2")]
    assert [m.content for m in api.ledger(interactions=True)[channel]] == ["one", "two", "the reply"]


# ------------------------------------------------------------------------------------------------- waiting


async def test_wait_until_with_poll_sees_a_change_that_makes_no_request(api: FakeAPI) -> None:
    box: list[int] = []
    asyncio.get_running_loop().call_later(0.05, box.append, 1)  # no request, so nothing notifies the waiter
    assert await api.wait_until(lambda: box, 2.0, poll=0.01) == [1]
    with pytest.raises(TimeoutError, match="waiting for nothing"):
        await api.wait_until(lambda: False, 0.05, what="nothing", poll=0.01)


# --------------------------------------------------------------------------------------- gateway re-delivery


async def test_a_redelivered_interaction_is_the_same_event_and_the_same_interaction() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session, \
            session.ws_connect(fake.gateway_url) as ws:
        assert (await ws.receive_json())["op"] == 10  # HELLO
        await ws.send_json({"op": 2, "d": {"token": "t", "intents": 0, "properties": {}}})

        async def dispatched(event: str) -> dict:
            while (frame := await ws.receive_json(timeout=5))["t"] != event:
                pass
            return frame

        await dispatched("GUILD_CREATE")
        record = await fake.slash("ping")
        first = await dispatched("INTERACTION_CREATE")
        await fake.redeliver(record, times=2)
        again = [await dispatched("INTERACTION_CREATE") for _ in range(2)]
        assert [frame["d"] for frame in again] == [first["d"]] * 2 and first["d"]["id"] == record.id
        assert [frame["s"] for frame in (first, *again)] == [first["s"], first["s"] + 1, first["s"] + 2]
        assert fake.interactions == {record.id: record}  # still one interaction: its answers stay its own
        assert callback(fake, record).status == 200 and error(callback(fake, record)) == (400, 40060)
