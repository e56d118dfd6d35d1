"""The /wq commands, buttons and menus through real dispatch: good input plays, bad input is refused privately."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

from engine.core.models import from_json, to_json
from engine.games import get, spec
from engine.games.wizards_quest import RULESET, WQState
from engine.games.wizards_quest.state import Attack, Phase, Todo, Treasure, Turn
from tests.cogs.conftest import put_state, refused, start_game, state_of, uid
from tests.discord.harness import DispatchHarness, InteractionResult
from tests.discord.payloads import action_row, button_component, message, string_select_component

DATA = RULESET.data
HOMES = ("6.6", "5.4", "2.3", "4.3", "1.3", "6.1")
"""A far-away home for each seat of a scenario (up to six), so that nobody is eliminated by accident."""


async def wq_state(h: DispatchHarness) -> WQState:
    return await state_of(h, WQState)


async def three(h: DispatchHarness, **options: Any) -> tuple[list[dict[str, Any]], WQState]:
    """A Wizard's Quest game of three humans, the members sorted in seat order."""
    members = await start_game(h, "Ada", "Bo", "Cy", game="wizards-quest", **options)
    state = await wq_state(h)
    order = {p.id: k for k, p in enumerate(state.players)}
    members.sort(key=lambda m: order[uid(m)])
    return members, state


def member(members: list[dict[str, Any]], pid: int) -> dict[str, Any]:
    return next(m for m in members if uid(m) == pid)


def advance(state: WQState, phase: Phase) -> WQState:
    """Let the baseline AI play every seat until `phase` comes up."""
    policy, rng = RULESET.policy("baseline"), random.Random(5)
    while state.phase is not phase:
        player = RULESET.pending(state)[0].player
        state, _ = RULESET.apply(state, policy.choose(state, player, rng))
    return state


def scenario(base: WQState, **changes: Any) -> WQState:
    """A play position for the game's real seats: the listed locations (3 men each unless given) and a home each."""
    ids = [p.id for p in base.players]
    owner = {home: pid for home, pid in zip(HOMES, ids, strict=False)} | changes.pop("owner", {})
    men = {loc: 3 for loc in owner} | changes.pop("men", {})
    hands = {p: [] for p in ids} | changes.pop("hands", {})
    boats = {p: [] for p in ids} | changes.pop("boats", {})
    held = {c for cards in [*hands.values(), *boats.values()] for c in cards}
    update: dict[str, Any] = {
        "phase": Phase.ATTACK, "round": 1, "current": ids[0], "order": ids, "owner": owner, "men": men, "orcs": {},
        "hero": {}, "sorcerer": {}, "dragon": None, "mage": None, "treasures": [], "pool": 0, "setup_left": {},
        "deck": [c for c in DATA.deck.instances if c not in held], "discard": [], "hands": hands, "boats": boats,
        "turn": Turn(), "attack": None, "todo": [], **changes}
    return from_json(WQState, to_json(replace(base, **update)))


# ---------------------------------------------------------------- the lobby


async def test_new_game_takes_each_games_own_options(h: DispatchHarness) -> None:
    ada = h.add_member("Ada")
    refused(await h.slash("new", "wizards-quest", options={"mode": "two_player"}, user=ada),
            "Wizard's Quest has no option `mode`. Its options are: turn_order, decoy, round_limit, timer,")
    refused(await h.slash("new", "risk", options={"round_limit": 5}, user=ada),
            "Risk has no option `round_limit`")
    opened = await h.slash("new", "wizards-quest", options={"turn_order": "fixed", "round_limit": 20,
                                                   "timer": 2}, user=ada)
    assert opened.posts and "**Wizard's Quest**" in opened.said
    assert "turn_order: fixed" in opened.said and "round_limit: 20" in opened.said
    await h.slash("game", "add-ai", user=ada)
    await h.slash("game", "add-ai", user=ada)
    started = await h.slash("game", "start", user=ada)
    posted = "\n".join(m.content for m in started.channel_messages)
    assert [f.filename for m in started.channel_messages for f in m.files] == ["board.png"], "the board follows"
    assert f"<@{uid(ada)}>" in posted, "the human is pinged when it is their decision"
    state = await wq_state(h)
    assert state.options.turn_order == "fixed" and state.options.round_limit == 20
    game = await h.bot.service.store.live_game(int(h.world.channel["id"]))  # type: ignore[attr-defined]
    assert game.lobby["clock"]["turn_hours"] == 2.0, "the clock options reach the table"


async def test_a_game_without_a_picture_posts_its_text_board(h: DispatchHarness,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    text_only = replace(spec("wizards_quest"), renderer=None)  # as for a game whose renderer is still to come
    monkeypatch.setattr("renderer.spec", lambda name: text_only if get(name) is text_only.ruleset else spec(name))
    ada = h.add_member("Ada")
    await h.slash("new", "wizards-quest", user=ada)
    await h.slash("game", "add-ai", user=ada)
    started = await h.slash("game", "start", user=ada)
    posted = "\n".join(m.content for m in started.channel_messages)
    assert "Region 1: Frostmarch" in posted and not any(m.files for m in started.channel_messages)
    board = await h.slash("board", user=ada)
    assert "Region 1: Frostmarch" in board.said and not board.files


async def test_a_refusal_quoting_a_long_option_still_fits_in_one_message(h: DispatchHarness) -> None:
    """Discord sends options of up to 6000 characters but refuses messages over 2000: the quote is cut short."""
    members, s = await three(h)
    shown = await h.slash("wq", "castle", options={"castle": "x" * 6000}, user=member(members, s.current))
    refused(shown, "⚠️ 'xxx")
    assert len(shown.content) <= 2000 and shown.content.endswith("…")


async def test_wq_commands_elsewhere_are_refused(h: DispatchHarness) -> None:
    refused(await h.slash("wq", "draw"), "There is no game in this channel")
    await start_game(h, "Ada", "Bo", "Cy")
    refused(await h.slash("wq", "draw"), "This channel is playing Risk")
    shown = await h.slash("wq", "help", user=h.add_member("Newcomer"))
    assert shown.ephemeral and re.search(r"</wq attack:\d+> `source target \[leader\] \[boat\]`", shown.content)


async def test_risk_commands_in_a_wizards_quest_channel_are_refused(h: DispatchHarness) -> None:
    """A Risk action whose shape fits a Wizard's Quest one (claim) must not reach the Wizard's Quest rules."""
    members, s = await three(h)
    s = await put_state(h, advance(s, Phase.SETUP_CLAIM))
    me = member(members, s.current)
    empty = next(t for t in DATA.map.territories if t not in s.orcs and t not in s.owner)
    refused(await h.slash("risk", "claim", options={"territory": empty}, user=me),
            "This channel is playing Wizard's Quest")
    refused(await h.slash("risk", "endturn", user=me), "This channel is playing Wizard's Quest")
    assert to_json(await wq_state(h)) == to_json(s)


# ---------------------------------------------------------------- setup


@pytest.mark.rule("WQ-DIG-3", "WQ-VAL-0")
async def test_castle_and_claim_with_autocomplete_and_refusals(h: DispatchHarness) -> None:
    members, s = await three(h)
    first, second = member(members, s.current), member(members, s.players[1].id)
    if uid(second) == s.current:
        second = member(members, s.players[2].id)
    refused(await h.slash("wq", "castle", options={"castle": "C1"}, user=second), "It's ")
    refused(await h.slash("wq", "castle", options={"castle": "C9"}, user=first), "'C9' isn't a location")
    refused(await h.slash("wq", "castle", options={"castle": "3.6"}, user=first), "3.6 is not a castle")
    taken = await h.slash("wq", "castle", options={"castle": "northwatch"}, user=first)
    assert taken.posts and "takes castle C1 Northwatch" in taken.said
    nxt = member(members, (await wq_state(h)).current)
    offered = await h.autocomplete("wq", "castle", options={"castle": ""}, focused="castle", user=nxt)
    assert "C1" not in [c["value"] for c in offered] and len(offered) == 7
    refused(await h.slash("wq", "castle", options={"castle": "C1"}, user=nxt), "C1 Northwatch is already taken")
    s = await put_state(h, advance(await wq_state(h), Phase.SETUP_CLAIM))
    me = member(members, s.current)
    held = next(t for t in DATA.map.territories if t in s.orcs)
    refused(await h.slash("wq", "claim", options={"territory": held}, user=me), f"{held} is not empty")
    empty = await h.autocomplete("wq", "claim", options={"territory": "3"}, focused="territory", user=me)
    assert empty and all(c["value"] not in s.orcs and c["value"] not in s.owner for c in empty)
    assert all("3" in c["value"].split(".") for c in empty), "a typed 3 matches either half of r.t"
    claimed = await h.slash("wq", "claim", options={"territory": empty[0]["value"].replace(".", "-")}, user=me)
    assert f"claims {empty[0]['value']}" in claimed.said


@pytest.mark.rule("WQ-DIG-3")
async def test_hide_place_and_buy_in_setup(h: DispatchHarness) -> None:
    members, s = await three(h)
    s = await put_state(h, advance(s, Phase.SETUP_HIDE))
    me = member(members, s.current)
    mine = await h.autocomplete("wq", "hide", options={"treasure": ""}, focused="treasure", user=me)
    duty = next(t for t in s.treasures if t.hider == s.current and t.location is None)
    assert f"{duty.owner}:{duty.kind}" in [c["value"] for c in mine]
    theirs = next(loc for loc in DATA.map.territories if s.owner.get(loc) == duty.owner)
    spots = await h.autocomplete("wq", "hide", options={"treasure": f"{duty.owner}:{duty.kind}", "territory": ""},
                                 focused="territory", user=me)
    assert spots and theirs not in [c["value"] for c in spots]
    refused(await h.slash("wq", "hide", options={"treasure": f"{duty.owner}:{duty.kind}", "territory": theirs},
                          user=me), "their treasure can't go there")
    refused(await h.slash("wq", "hide", options={"treasure": "the moon", "territory": spots[0]["value"]}, user=me),
            "Choose one of the treasures you still hide")
    refused(await h.slash("wq", "hide", options={"treasure": "the moon", "territory": spots[0]["value"]},
                          user=h.add_member("Spectator")), "You're not seated")  # who before what
    hand = await h.slash("wq", "hand", user=me)
    assert hand.ephemeral and "Treasures you still hide" in hand.content
    hidden = await h.slash("wq", "hide", options={"treasure": f"{duty.owner}:{duty.kind}",
                                                  "territory": spots[0]["value"]}, user=me)
    assert f"hides {s.name(duty.owner)}'s {duty.kind.capitalize()} in {spots[0]['value']}" in hidden.said
    s = await put_state(h, advance(await wq_state(h), Phase.SETUP_DEPLOY))
    me = member(members, s.current)
    own = s.locations_of(s.current)
    refused(await h.slash("wq", "place", options={"location": "4.2", "count": 1}, user=me)
            if "4.2" not in own else await h.slash("wq", "place", options={"location": "9.9"}, user=me),
            "You can only place men" if "4.2" not in own else "isn't a location")
    refused(await h.slash("wq", "place", options={"location": own[0], "more": "lots please"}, user=me),
            "I can't read the placements 'lots please'")
    bought = await h.slash("wq", "buy", options={"leader": "hero", "location": own[0]}, user=me)
    assert "raises a Hero" in bought.said and (await wq_state(h)).hero[s.current] == own[0]
    pool = (await wq_state(h)).pool
    placed = await h.slash("wq", "place", options={"location": own[-1]}, user=me)
    assert f"{own[-1]} +{pool}" in placed.said, "without a count the whole batch goes there"


# ---------------------------------------------------------------- the petition step


@pytest.mark.rule("WQ-DIG-1", "WQ-DIG-3")
async def test_hand_draw_play_and_done(h: DispatchHarness) -> None:
    members, base = await three(h)
    me = base.players[0].id
    s = await put_state(h, scenario(base, phase=Phase.PETITION, hands={me: ["levy-1", "orcbane-2"]},
                                    orcs={"4.2": 3}))
    ada = member(members, me)
    hand = await h.slash("wq", "hand", user=ada)
    assert hand.ephemeral and "Levy: +3 men this turn. (⛵ Boat Privilege)" in hand.content
    assert "Orcbane" in hand.said
    refused(await h.slash("wq", "hand", user=h.add_member("Spectator")), "You're not seated")
    cards = await h.autocomplete("wq", "play", options={"card": "orc"}, focused="card", user=ada)
    assert [c["value"] for c in cards] == ["orcbane-2"]
    targets = await h.autocomplete("wq", "play", options={"card": "orcbane-2", "location": ""}, focused="location",
                                   user=ada)
    assert [c["value"] for c in targets] == ["4.2"]
    bo = next(m for m in members if m is not ada)
    assert await h.autocomplete("wq", "play", options={"card": ""}, focused="card", user=bo) == [], "not Bo's cards"
    assert await h.autocomplete("wq", "play", options={"card": "orcbane-2", "location": ""}, focused="location",
                                user=bo) == [], "a card Bo does not hold has no targets for Bo"
    refused(await h.slash("wq", "play", options={"card": "orcbane", "location": "6.6"}, user=ada),
            "Orcbane: 6.6 holds no orcs")
    refused(await h.slash("wq", "play", options={"card": "muster"}, user=ada), "That card is not in your hand")
    await put_state(h, s, dice=[2])
    played = await h.slash("wq", "play", options={"card": "orcbane", "location": "4.2"}, user=ada)
    assert "Orcbane strikes 4.2: die 2, 2 orcs removed" in played.said
    drawn = await h.slash("wq", "draw", user=ada)
    assert drawn.posts and "petitions the Great Mage and keeps a card (hand: 2)" in drawn.said
    refused(await h.slash("wq", "draw", user=ada), "You have already petitioned")
    done = await h.slash("wq", "done", user=ada)
    assert "reinforces" in done.said and (await wq_state(h)).phase is Phase.REINFORCE


# ---------------------------------------------------------------- attacks, buttons and menus


@pytest.mark.rule("WQ-DIG-2", "WQ-DIG-3")
async def test_attack_buttons_roll_capture_end_turn_and_stale_clicks(h: DispatchHarness) -> None:
    members, base = await three(h)
    me, them = base.players[0].id, base.players[1].id
    ada, bo = member(members, me), member(members, them)
    s = await put_state(h, scenario(base, owner={"3.1": me, "3.2": them}, men={"3.1": 6, "3.2": 2}),
                        dice=[6, 6, 6])
    sources = await h.autocomplete("wq", "attack", options={"source": "3."}, focused="source", user=ada)
    assert [c["value"] for c in sources] == ["3.1"]
    targets = await h.autocomplete("wq", "attack", options={"source": "3-1", "target": ""}, focused="target",
                                   user=ada)
    assert [c["value"] for c in targets] == ["1.4", "3.2", "3.4", "C3"]
    refused(await h.slash("wq", "attack", options={"source": "3.1", "target": "3.2"}, user=bo),
            f"It's {s.name(me)}'s turn")
    refused(await h.slash("wq", "attack", options={"source": "3.1", "target": "1.1"}, user=ada),
            "1.1 is not adjacent to 3.1")
    declared = await h.slash("wq", "attack", options={"source": "3.1", "target": "3.2"}, user=ada)
    assert f"attacks {s.name(them)} at 3.2 from 3.1" in declared.said
    seq = s.seq + 1
    ids = declared.post.custom_ids()
    assert {f"wq:roll:{seq}", f"wq:roll3:{seq}", f"wq:rollall:{seq}", f"wq:rollsafe:{seq}",
            f"wq:cancel:{seq}"} <= set(ids)
    refused(await h.slash("wq", "attack", options={"source": "3.1", "target": "3.4"}, user=ada),
            "Finish (roll, stop or cancel) the current attack first")
    refused(await h.button(f"wq:roll:{seq}", user=bo), f"It's {s.name(me)}'s turn")
    rolled = await h.button(f"wq:roll:{seq}", user=ada)
    assert "Battle 1: 🎲 6, above the defence of 3 → the attacker wins" in rolled.said
    assert f"wq:stop:{seq + 1}" in rolled.post.custom_ids()
    stale = await h.button(f"wq:rollall:{seq}", user=ada, message=declared.post)
    assert stale.ephemeral and "earlier moment" in stale.content
    emptied = await h.button(f"wq:rollall:{seq + 1}", user=ada)
    capture = emptied.post.custom_ids()
    assert f"wq:capture:{seq + 2}:1" in capture and f"wq:capture:{seq + 2}:5" in capture
    refused(await h.slash("wq", "end", user=ada), "First resolve: move pieces into the captured location")
    refused(await h.slash("wq", "capture", options={"count": 6}, user=ada), "Move between 1 and 5 pieces into 3.2")
    moved = await h.button(f"wq:capture:{seq + 2}:5", user=ada)
    assert "captures 3.2 with 5 pieces" in moved.said
    after = await wq_state(h)
    assert after.owner["3.2"] == me and after.men["3.2"] == 5
    end = f"wq:end:{after.seq}"
    assert end in moved.post.custom_ids()
    ended = await h.button(end, user=ada)
    assert f"<@{them}>" in ended.said, "the next player is pinged"
    assert [f.filename for m in ended.posts for f in m.files] == ["board.png"], "and the board follows the turn"
    turn = await wq_state(h)
    assert turn.current == them
    # Their petition step comes with buttons: Draw, then Done.
    ids = ended.post.custom_ids()
    draw, done = f"wq:draw:{turn.seq}", f"wq:done:{turn.seq}"
    assert draw in ids and done in ids, ids
    refused(await h.button(draw, user=ada), "")  # not their decision
    drawn = await h.button(draw, user=bo)
    after = await wq_state(h)
    assert len(after.hands[them]) == len(turn.hands[them]) + 1 and bool(drawn.posts)
    assert f"wq:draw:{after.seq}" not in drawn.post.custom_ids()  # one card a turn (WQ-PET-1)
    assert f"wq:done:{after.seq}" in drawn.post.custom_ids()


@pytest.mark.rule("WQ-AID-1", "WQ-DIG-3")
async def test_aid_menu_roll_options_stop_and_cancel(h: DispatchHarness) -> None:
    members, base = await three(h)
    me, them = base.players[0].id, base.players[1].id
    ada = member(members, me)
    s = await put_state(h, scenario(base, owner={"3.1": me, "3.4": me, "3.2": them}, men={"3.1": 2, "3.4": 5,
                                                                                       "3.2": 9}))
    await h.slash("wq", "attack", options={"source": "3.1", "target": "3.2"}, user=ada)
    refused(await h.slash("wq", "aid", options={"source": "6.6", "count": 1}, user=ada),
            "Aid must come from your own location adjacent to 3.1")
    aid_spots = await h.autocomplete("wq", "aid", options={"source": ""}, focused="source", user=ada)
    assert [c["value"] for c in aid_spots] == ["3.4"]
    cancelled = await h.slash("wq", "cancel", user=ada)
    assert "calls the attack off" in cancelled.said
    declared = await h.slash("wq", "attack", options={"source": "3.1", "target": "3.2"}, user=ada)
    select = next(c for row in declared.post.components for c in row["components"] if c["type"] == 3)
    assert [o["value"] for o in select["options"]] == ["3.4:4"]
    aided = await h.select(select["custom_id"], ["3.4:4"], user=ada)
    assert "aids from 3.4 with 4 men into 3.1" in aided.said
    await put_state(h, await wq_state(h), dice=[1, 1, 1, 1])
    rolled = await h.slash("wq", "roll", options={"times": 0, "until_below": 4}, user=ada)
    assert rolled.said.count("defender holds") == 3, "6 pieces, stop before a battle below 4"
    stopped = await h.slash("wq", "stop", user=ada)
    assert "stops the attack" in stopped.said
    refused(await h.slash("wq", "stop", user=ada), "You have no attack in progress")
    assert (await wq_state(h)).men["3.1"] == 3 and s.men["3.2"] == 9


@pytest.mark.rule("WQ-FREE-2", "WQ-BEAST-4", "WQ-DIG-3")
async def test_free_attack_on_the_dragon_and_the_region_buttons(h: DispatchHarness) -> None:
    members, base = await three(h)
    me, them = base.players[0].id, base.players[1].id
    ada = member(members, me)
    await put_state(h, scenario(base, owner={"3.1": me, "3.2": them}, men={"3.1": 4}, sorcerer={me: "3.1"},
                                dragon="3.2"), dice=[6, 6, 6, 2, 6])
    refused(await h.slash("wq", "free", options={"beast": "mage", "source": "3.1"}, user=ada),
            "The Great Mage is not on the board")
    spots = await h.autocomplete("wq", "free", options={"beast": "dragon", "source": ""}, focused="source", user=ada)
    assert [c["value"] for c in spots] == ["3.1"]
    declared = await h.slash("wq", "free", options={"beast": "dragon", "source": "3.1"}, user=ada)
    seq = (await wq_state(h)).seq
    assert "attacks the Dragon at 3.2" in declared.said
    assert f"wq:rollsafe:{seq}" not in declared.post.custom_ids(), "no reserve to keep in a free attack"
    beaten = await h.button(f"wq:rollall:{seq}", user=ada)
    assert "beats the Dragon" in beaten.said
    regions = [c for c in beaten.post.custom_ids() if c.startswith("wq:region:")]
    assert len(regions) == 6
    refused(await h.slash("wq", "end", user=ada), "First resolve: choose the region")
    flown = await h.button(f"wq:region:{seq + 1}:5", user=ada)
    assert "the Dragon flies to 5.2" in flown.said
    assert (await wq_state(h)).dragon == "5.2"


@pytest.mark.rule("WQ-TRS-4", "WQ-DIG-3")
async def test_capture_the_ring_then_the_mage_button_and_command(h: DispatchHarness) -> None:
    members, base = await three(h)
    me, other = base.players[0].id, base.players[1].id
    ada = member(members, me)
    ring = Treasure(owner=me, kind="ring", hider=other, location="3.2")
    crown = Treasure(owner=me, kind="crown", hider=other, location="4.1")
    s = await put_state(h, scenario(base, owner={"3.1": me}, men={"3.1": 4}, mage="4.2", treasures=[ring, crown],
                                    attack=Attack(kind="campaign", source="3.1", target="3.2", empty_start=True),
                                    todo=[Todo(kind="capture")]))
    captured = await h.slash("wq", "capture", options={"count": 2}, user=ada)
    assert "retrieves their Ring at 3.2 (1/3)" in captured.said
    decline = f"wq:mage:{s.seq + 1}"
    assert decline in captured.post.custom_ids()
    refused(await h.slash("wq", "mage", options={"territory": "C1"}, user=ada),
            "The Great Mage can only be sent to a territory")
    refused(await h.slash("wq", "region", options={"region": 2}, user=ada), "First resolve: move the Great Mage")
    ring_state = await wq_state(h)
    kept = await h.button(decline, user=ada)
    assert kept.content and (await wq_state(h)).mage == "4.2" and (await wq_state(h)).todo == []
    await put_state(h, replace(ring_state, seq=(await wq_state(h)).seq))
    moved = await h.slash("wq", "mage", options={"territory": "3 1"}, user=ada)
    assert "The Ring sends the Great Mage to 3.1" in moved.said and f"He prospers {s.name(me)}: +3" in moved.said


async def test_a_round_is_summed_up_in_one_message(h: DispatchHarness) -> None:
    members, base = await three(h)
    ids = [p.id for p in base.players]
    last = member(members, ids[2])
    await put_state(h, scenario(base, current=ids[2], owner={"1.1": ids[1]}),
                    dice=[1, 1, 1, 1, 6, 2, 4, 2, 6, 1, 1])
    ended = await h.slash("wq", "end", user=last)
    rounds = [m.content for m in ended.posts if "Round 2 begins" in m.content]
    assert len(rounds) == 1
    summary = rounds[0]
    assert "Orc growth 1·1 → 1.1" in summary and "🐉 Dragon phase. 6·2" in summary
    assert "🧙 Great Mage phase. 4·2" in summary and "🎲 Turn order. Rolls:" in summary
    assert "turn ends" not in summary and "Round 2: " not in summary, "the turns stay in their own messages"
    assert f"<@{ids[0]}>" in ended.said


async def test_resign_and_kick_leave_rebels(h: DispatchHarness) -> None:
    members, base = await three(h)
    ids = [p.id for p in base.players]
    await put_state(h, scenario(base, owner={"3.2": ids[2]}))
    ask = await h.slash("game", "resign", user=member(members, ids[2]))
    confirm = next(c for c in ask.response.custom_ids() if c.endswith(":yes"))
    await h.button(confirm, user=member(members, ids[2]), message=ask.response)
    posted = "\n".join(m.content for m in h.messages(h.world.channel["id"]))
    assert f"{base.name(ids[2])} resigns; their 6 pieces stay on the board as rebels" in posted
    kicked = await h.slash("game", "kick", options={"player": member(members, ids[1])}, user=h.world.owner)
    assert "is removed from the game" in kicked.said and "wins" in kicked.said
    assert (await wq_state(h)).winners == [ids[0]]


async def forged(h: DispatchHarness, custom_id: str, values: list[str] | None,
                 user: dict[str, Any]) -> InteractionResult:
    """Press a button or choose in a menu with a custom id and values the bot never offered."""
    shown = string_select_component(custom_id, ["3.4:4"]) if values is not None else button_component(custom_id)
    posted = message(h.world.channel["id"], author=h.world.bot_user, components=[action_row(shown)])
    return await h.interact(h.world.component(custom_id, message=posted, values=values, user=user))


async def test_forged_button_ids_and_menu_values_are_refused_not_crashed(h: DispatchHarness) -> None:
    """Only the bot writes these ids and values, but any payload may arrive: refused privately, or answered as an
    out-of-date button."""
    members, base = await three(h)
    me = base.players[0].id
    ada = member(members, me)
    s = await put_state(h, scenario(base, owner={"3.1": me, "3.4": me}, men={"3.1": 3, "3.4": 5},
                                    attack=Attack(kind="campaign", source="3.1", target="3.2", empty_start=True),
                                    todo=[Todo(kind="capture")]))
    for values in ([], ["3.4"], ["3.4:x"], ["3.4:٣"], ["3.4:4", "3.4:1"]):
        refused(await forged(h, f"wq:aid:{s.seq}", values, ada), "a value I can't use in `aid`")
    for custom_id in (f"wq:capture:{s.seq}:x1", f"wq:region:{s.seq}:3x"):
        answer = await forged(h, custom_id, None, ada)
        assert answer.ephemeral and "older version of the bot" in answer.content, f"{custom_id} was claimed"
    refused(await forged(h, f"wq:capture:{s.seq}:99999999999999999999", None, ada), "Move between 1 and 2 pieces")
    assert to_json(await wq_state(h)) == to_json(s)


async def test_garbage_and_stale_input_changes_nothing(h: DispatchHarness) -> None:
    members, base = await three(h)
    me = base.players[0].id
    ada = member(members, me)
    s = await put_state(h, scenario(base, owner={"3.1": me}, attack=Attack(kind="campaign", source="3.1",
                                                                          target="3.2", empty_start=True),
                                    todo=[Todo(kind="capture")], treasures=[Treasure(owner=me, kind="crown",
                                                                                     hider=base.players[1].id,
                                                                                     location="4.1")]))
    refused(await h.slash("wq", "capture", options={"count": 1, "leader": True}, user=ada), "You have no leader in 3.1")
    refused(await h.slash("wq", "capture", options={"count": "lots"}, user=ada), "That command has a value I can't use")
    refused(await h.slash("wq", "place", options={"location": "3.1", "count": 1}, user=ada),
            "First resolve: move pieces into the captured location")
    refused(await h.slash("wq", "place", options={"location": "3.1", "more": "3.1:2 C1"}, user=ada),
            "I can't read the placements")
    assert to_json(await wq_state(h)) == to_json(s)
