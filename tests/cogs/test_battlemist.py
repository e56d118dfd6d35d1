"""The /bm commands, the private panel and its buttons through real dispatch: private things stay private, bad
input is refused privately, a click applies once."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import random
import re
from typing import Any

import pytest
from discord import app_commands

import cogs.battlemist as cog
from engine.core import i18n
from engine.core.controls import Control
from engine.core.i18n import msg
from engine.games.battlemist import RULESET, BMState, board, legal, movement
from engine.games.battlemist.commands import draft_lines
from engine.games.battlemist.state import Phase
from tests.cogs.conftest import channel_id, delivered, put_state, refused, start_game, state_of, uid
from tests.discord.harness import DispatchHarness, InteractionResult


async def bm_state(h: DispatchHarness) -> BMState:
    return await state_of(h, BMState)


def components(message: Any) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row["components"]]


def custom_ids(message: Any) -> list[str]:
    """Every component id of a message (buttons and menus, row by row)."""
    return [c["custom_id"] for c in components(message)]


async def two(h: DispatchHarness, **options: Any) -> tuple[list[dict[str, Any]], BMState]:
    """A two-player game of humans, in its first decision (the W-ECONSTART plays of round 1)."""
    members = await start_game(h, "Ada", "Bo", game="battlemist", **options)
    await delivered(h)
    return members, await bm_state(h)


async def panel(h: DispatchHarness, member: dict[str, Any]) -> InteractionResult:
    """Open the member's panel from the channel's newest post."""
    opened = await h.button("bm:choices", user=member)
    assert opened.ephemeral and opened.content.startswith("**Your choices**"), opened.content
    return opened


def button(message: Any, label: str) -> str:
    return next(c["custom_id"] for c in components(message) if c.get("label", "").startswith(label))


def menu(message: Any, placeholder: str) -> tuple[str, list[dict[str, Any]]]:
    found = next(c for c in components(message) if c.get("placeholder") == placeholder)
    return found["custom_id"], found["options"]


async def to_orders(h: DispatchHarness, members: list[dict[str, Any]]) -> BMState:
    """Everyone locks no harvest plays: the economy orders open."""
    for m in members:
        shown = await panel(h, m)
        await h.button(button(shown.response, "Lock: no harvest plays"), message=shown.response, user=m)
    s = await bm_state(h)
    assert s.phase is Phase.ORDERS
    return s


@pytest.mark.rule("BM-DIG-3", "BM-DIG-6", "BM-DIG-9")
async def test_a_post_offers_one_button_and_each_panel_is_its_owners(h: DispatchHarness) -> None:
    (ada, bo), s = await two(h)
    story = [m for m in h.messages() if m.source == "channel" and not m.payload.get("pinned")]  # not the board
    assert custom_ids(story[-1]) == ["bm:choices"]
    mine, theirs = await panel(h, ada), await panel(h, bo)
    assert "Your hand" in mine.content and "Your quest" in mine.content and not mine.posts
    for card in set(s.hands[uid(bo)]) - set(s.hands[uid(ada)]):
        assert card not in mine.content and card in theirs.content
    assert s.quests[uid(bo)] not in mine.content and s.quests[uid(ada)] in mine.content
    spectator = await h.button("bm:choices", user=h.add_member("Spec"))
    refused(spectator, "not playing in this game")
    locked = await h.button(button(mine.response, "Lock: no harvest plays"), message=mine.response, user=ada)
    assert locked.deferred and locked.callback_type == 6  # acknowledged at once, then the panel is updated
    assert "Done." in locked.response.content and "nothing to decide" in locked.response.content


@pytest.mark.rule("BM-DIG-6", "BM-DIG-7", "BM-SIM-4")
async def test_orders_are_drafted_privately_revised_and_locked_in_public(h: DispatchHarness) -> None:
    members, _ = await two(h)
    ada, bo = members
    await to_orders(h, members)
    shown = await panel(h, ada)
    menu_id, options = menu(shown.response, "Add an order")
    recruit = next(o for o in options if o["label"].startswith("Recruit 1 infantry"))
    posts = len(h.messages())
    added = await h.select(menu_id, [recruit["value"]], message=shown.response, user=ada)
    assert "1. Recruit 1 infantry" in added.response.content and "After them you would have" in added.response.content
    s = await bm_state(h)
    assert [line.kind for line in draft_lines(s, uid(ada))] == ["recruit"]
    dropped = await h.button(button(added.response, "Remove the last order"), message=added.response, user=ada)
    assert draft_lines(await bm_state(h), uid(ada)) == ()
    again = await h.select(menu(dropped.response, "Add an order")[0], [recruit["value"]], message=dropped.response,
                           user=ada)
    await h.button(button(again.response, "Lock my orders (1 line)"), message=again.response, user=ada)
    await delivered(h)
    said = "\n".join(m.content for m in h.messages()[posts:])
    assert "Ada" in said and "lock" in said.lower() and "infantry" not in said.lower()
    s = await bm_state(h)
    assert s.phase is Phase.ORDERS and uid(ada) in s.economy.orders.locked and uid(bo) not in s.economy.orders.locked


@pytest.mark.rule("BM-DIG-8", "BM-DIG-10")
async def test_a_click_applies_once_and_an_old_panel_applies_nothing(h: DispatchHarness) -> None:
    members, _ = await two(h)
    ada = members[0]
    await to_orders(h, members)
    shown = await panel(h, ada)
    before = copy.deepcopy(shown.response.payload)  # the panel as a second, quick click still sees it
    menu_id, options = menu(shown.response, "Add an order")
    first = await h.select(menu_id, [options[0]["value"]], message=before, user=ada)
    assert "1. " in first.response.content
    twice = await h.select(menu_id, [options[0]["value"]], message=before, user=ada)
    assert "moved on" in twice.response.content and "nothing was applied" in twice.response.content
    assert len(draft_lines(await bm_state(h), uid(ada))) == 1
    forged = await h.select(menu_id, ["7:deadbeef"], message=before, user=ada)
    assert "moved on" in forged.response.content
    assert len(draft_lines(await bm_state(h), uid(ada))) == 1


@pytest.mark.rule("BM-DIG-3", "BM-DIG-4", "BM-DIG-5")
async def test_hand_and_quest_are_ephemeral_and_mirrored_to_dms_when_the_table_wants(h: DispatchHarness) -> None:
    (ada, bo), s = await two(h, dm_mirror=True)
    shown = await h.slash("bm", "hand", user=ada)
    assert shown.ephemeral and s.quests[uid(ada)] in shown.content
    quest = await h.slash("bm", "quest", "show", user=bo)
    assert quest.ephemeral and s.quests[uid(bo)] in quest.content
    dm = h.world.dm_channel(h.world.user(str(uid(ada))))
    assert any(s.quests[uid(ada)] in m.content for m in h.messages(dm["id"]))
    leaks = [m.content for m in h.messages(h.world.channel["id"]) if not m.ephemeral
             and (s.quests[uid(ada)] in m.content or s.quests[uid(bo)] in m.content)]
    assert not leaks, leaks


async def test_without_the_dm_option_nothing_goes_to_dms(h: DispatchHarness) -> None:
    (ada, _), _ = await two(h)
    await h.slash("bm", "hand", user=ada)
    dm = h.world.dm_channel(h.world.user(str(uid(ada))))
    assert h.messages(dm["id"]) == []


@pytest.mark.rule("BM-DIG-11")
def test_every_action_of_the_spec_has_a_command(h: DispatchHarness) -> None:
    names = {c.qualified_name for c in h.bot.tree.walk_commands() if isinstance(c, app_commands.Command)}
    wanted = {"bm race", "bm region", "bm hand", "bm quest show", "bm quest new", "bm play", "bm discard", "bm cast",
              "bm pass", "bm vote", "bm choices", "bm orders recruit", "bm orders build", "bm orders hero",
              "bm orders guild", "bm orders merchant", "bm lock", "bm trade offer", "bm trade accept",
              "bm trade decline", "bm initiative", "bm quest move", "bm quest duel", "bm quest target", "bm move",
              "bm undo", "bm endmove", "bm battle choose", "bm battle casualties", "bm battle rally",
              "bm battle reroll", "bm battle plunder", "bm upkeep disband", "bm upkeep confirm", "bm rules"}
    assert wanted <= names
    group = h.bot.tree.get_command("bm")
    assert isinstance(group, app_commands.Group) and len(group.commands) <= 25  # Discord's limit per group


@pytest.mark.rule("BM-DIG-11")
async def test_rules_by_id_and_refusals_are_private(h: DispatchHarness) -> None:
    (ada, _), _ = await two(h)
    rule = await h.slash("bm", "rules", options={"rule": "bm-mov-1"}, user=ada)
    assert rule.ephemeral and "BM-MOV-1" in rule.content
    korean = await h.slash("bm", "rules", options={"rule": "bm-mov-1"}, user=ada, locale="ko")
    assert korean.ephemeral and "BM-MOV-1" in korean.content and re.search("[가-힣]", korean.content)
    defined = await h.slash("bm", "rules", options={"rule": "BM-SET-1"}, user=ada)  # cited in §1 before §8 defines it
    assert defined.content.startswith("- **BM-SET-1**") and "BM-SET-2" not in defined.content, defined.content
    refused(await h.slash("bm", "rules", options={"rule": "hello"}, user=ada), "not a rule ID")
    refused(await h.slash("bm", "move", options={"n": 1, "unit": "inf", "origin": "N06", "path": "N05"}, user=ada),
            "not possible now")
    refused(await h.slash("bm", "move", options={"n": 1, "unit": "horse", "origin": "N06", "path": "N05"}, user=ada),
            "Unknown unit type")
    refused(await h.slash("bm", "region", options={"region": "Atlantis"}, user=ada), 'Unknown region "Atlantis"')
    region = await h.slash("bm", "region", options={"region": "Greywood"}, user=ada)
    assert region.ephemeral and "N06" in region.content and "yields" in region.content


def advance(state: BMState, done: Any) -> BMState:
    """Let the baseline AI play every seat until `done(state)`."""
    policy, rng = RULESET.policy("baseline"), random.Random(3)
    for _ in range(5000):
        if done(state):
            return state
        player = RULESET.pending(state)[0].player
        state, _ = RULESET.apply(state, policy.choose(state, player, rng))
    raise AssertionError("the game never got there")


@pytest.mark.rule("BM-DIG-12", "BM-DIG-13", "BM-DIG-25")
async def test_a_path_is_offered_hop_by_hop_and_a_move_can_be_undone(h: DispatchHarness) -> None:
    (ada, bo), s = await two(h)
    s = await put_state(h, advance(s, lambda t: t.phase is Phase.MOVEMENT and t.active == uid(ada)
                                   and any(movement.unmoved(t, uid(ada), o, "infantry")
                                           for o in movement.origins(t, uid(ada)))))
    origin = next(o for o in movement.origins(s, uid(ada)) if movement.unmoved(s, uid(ada), o, "infantry"))
    typed = {"n": 1, "unit": "infantry", "origin": origin}
    first = await h.autocomplete("bm", "move", options={**typed, "path": ""}, focused="path", user=ada)
    hops = [c["value"] for c in first]
    assert hops and set(hops) <= set(board.neighbours(s, origin))
    assert set(hops) == set(movement.next_hops(s, uid(ada), "infantry", origin, []))
    refused(await h.slash("bm", "move", options={**typed, "path": hops[0]}, user=bo), "individual turn")
    moved = await h.slash("bm", "move", options={**typed, "path": hops[0]}, user=ada)
    assert not moved.errors
    after = await bm_state(h)
    assert after.units(hops[0], uid(ada)).infantry == s.units(hops[0], uid(ada)).infantry + 1
    await h.slash("bm", "undo", user=ada)
    assert (await bm_state(h)).troops == s.troops


@pytest.mark.rule("BM-DIG-18")
async def test_every_waiting_seat_has_a_deadline_with_reminders(h: DispatchHarness) -> None:
    (ada, bo), _ = await two(h)
    service = h.bot.service  # type: ignore[attr-defined]
    game = await service.store.live_game(channel_id(h))
    timers = await service.store.timers(game.id)
    for member in (ada, bo):  # W-ECONSTART: both decide at once
        mine = sorted((t for t in timers if t.player == uid(member)), key=lambda t: t.due_at)
        assert [t.kind for t in mine] == ["reminder", "reminder", "deadline"]
        start = mine[-1].due_at - 24 * 3600
        assert [round((t.due_at - start) / 3600, 1) for t in mine] == [12.0, 21.6, 24.0]


@pytest.mark.rule("BM-DIG-23", "BM-DIG-10")
async def test_commands_at_once_are_applied_one_at_a_time_and_each_once(h: DispatchHarness) -> None:
    (ada, bo), s = await two(h)
    service = h.bot.service  # type: ignore[attr-defined]
    where = channel_id(h)
    lock = {"type": "econ_start", "plays": [], "lock": True}
    results = await asyncio.gather(service.act(where, uid(ada), lock, "i-1", game_name="battlemist"),
                                   service.act(where, uid(bo), lock, "i-2", game_name="battlemist"),
                                   service.act(where, uid(ada), lock, "i-1", game_name="battlemist"),
                                   return_exceptions=True)
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and getattr(errors[0], "code", None) == "E_DUPLICATE", errors
    after = await bm_state(h)
    assert after.phase is Phase.ORDERS and after.seq >= s.seq + 2


@pytest.mark.rule("BM-DIG-13", "BM-WIN-1")
async def test_play_offers_the_cards_of_the_open_window_and_joins_the_draft(h: DispatchHarness) -> None:
    members, _ = await two(h)
    ada = members[0]
    s = await to_orders(h, members)
    bo = members[1]  # his hand holds only battle cards: nothing of it is playable in the orders
    s = await put_state(h, dataclasses.replace(s, hands={uid(ada): ["AC06", "AC04", "AC06"], uid(bo): ["AC04"]}))
    offered = await h.autocomplete("bm", "play", options={"card": ""}, focused="card", user=ada)
    assert [c["value"] for c in offered] == ["AC06"]  # Reinforcements (W-ECONORDERS), not Ambush (a battle's)
    assert await h.autocomplete("bm", "play", options={"card": ""}, focused="card", user=bo) == []
    played = await h.slash("bm", "play", options={"card": "ac06"}, user=ada)
    assert not played.errors
    assert [line.kind for line in draft_lines(await bm_state(h), uid(ada))] == ["card"]
    refused(await h.slash("bm", "play", options={"card": "AC04"}, user=ada), "Ambush")


@pytest.mark.rule("BM-DIG-3", "BM-DIG-5", "BM-WIN-1")
async def test_a_spy_is_played_in_the_turn_and_only_its_player_reads_what_it_showed(h: DispatchHarness) -> None:
    (ada, bo), s = await two(h)
    s = advance(s, lambda t: t.phase is Phase.QUEST and t.active == uid(ada))
    s = await put_state(h, dataclasses.replace(s, hands={uid(ada): ["AC15"], uid(bo): ["AC04", "AC09"]}))
    offered = await h.autocomplete("bm", "play", options={"card": ""}, focused="card", user=ada)
    assert [c["value"] for c in offered] == ["AC15"]  # W-INDIVIDUAL is open all through his turn
    refused(await h.slash("bm", "play", options={"card": "AC15", "player": ada}, user=bo), "individual turn")
    shown = await h.slash("bm", "play", options={"card": "ac15", "player": bo}, user=ada)
    assert not shown.errors
    replies = [m.content for m in h.messages(h.world.channel["id"]) if m.ephemeral and "Ambush" in m.content]
    assert replies and "Master Builders" in replies[-1], replies
    leaks = [m.content for m in h.messages(h.world.channel["id"]) if not m.ephemeral
             and ("Ambush" in m.content or "Master Builders" in m.content)]
    assert not leaks, leaks
    after = await bm_state(h)
    assert after.sightings[uid(ada)][0].hand == ("AC04", "AC09")
    assert "🕵️ Bo's hand" in (await panel(h, ada)).content and "🕵️" not in (await panel(h, bo)).content


@pytest.mark.rule("BM-DIG-6")
async def test_a_panel_too_big_for_one_message_turns_its_pages(h: DispatchHarness,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every control is on exactly one page, each page within Discord's five rows, and the arrows apply nothing."""
    (ada, _), s = await two(h)
    real = legal.controls(s, uid(ada))
    assert real, "W-ECONSTART offers a lock at least"
    pick = Control(action={}, label=msg("bm.panel.open"),
                   options=tuple(Control(action={"n": k}, label=msg("choice.name", name=f"option {k}"))
                                 for k in range(3)))
    many = [*real * 12, *[pick] * 6]  # 12+ buttons (3 rows) and 6 menus: 9 rows, three pages of four
    monkeypatch.setattr(cog.legal, "controls", lambda state, pid, recent=(): many)
    seen: list[str] = []
    shown = await panel(h, ada)
    for number in (1, 2, 3):
        rows = shown.response.components
        assert len(rows) <= 5 and f"Page {number} of 3" in shown.response.content
        arrows = [c for c in components(shown.response) if c["custom_id"].startswith("bm:page:")]
        assert [c["label"] for c in arrows] == [*(["◀ Previous"] if number > 1 else []),
                                                *(["Next ▶"] if number < 3 else [])]
        seen += [c["custom_id"] for c in components(shown.response) if not c["custom_id"].startswith("bm:page:")]
        if number < 3:
            before = await bm_state(h)
            shown = await h.button(next(c["custom_id"] for c in arrows if c["label"] == "Next ▶"),
                                   message=shown.response, user=ada)
            assert await bm_state(h) == before
    indexes = sorted(int(c.split(":")[3]) for c in seen)
    assert indexes == list(range(len(many)))


async def test_a_panel_updated_in_place_quotes_commands_as_mentions_in_the_readers_language(
        h: DispatchHarness) -> None:
    """A panel edited in place (not a new reply) links the commands it quotes too, named in the reader's language."""
    (ada, bo), _ = await two(h)
    stale = await panel(h, ada)
    for member in (ada, bo):  # the harvest plays end: the economy orders are Ada's decision now
        await h.slash("bm", "pass", user=member)
    await delivered(h)
    clicked = await h.button(button(stale.response, "Lock: no harvest plays"), message=stale.response, user=ada,
                             locale="de")
    [shown] = [m for m in h.messages() if m.id == stale.response.id]
    assert shown.edits == 1 and clicked.posts == []
    bm = next(c["id"] for c in h.api.synced_commands() if c["name"] == "bm")
    assert f"</bm lock:{bm}>" in shown.content and "`/bm lock`" not in shown.content, shown.content
    assert shown.content.startswith(i18n.translate("bm.panel.moved_on", "de")), shown.content
