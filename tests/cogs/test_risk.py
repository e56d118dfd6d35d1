"""The /risk commands and buttons through real dispatch: good input plays, bad input is refused privately."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from cogs.guard import Deliveries
from engine.core.models import from_json, to_json
from engine.games.risk import RiskState
from engine.games.risk.mapdata import classic
from engine.games.risk.state import Interrupt, Phase
from tests.cogs.conftest import pinged, put_state, refused, start_game, state_of, uid
from tests.discord.harness import DispatchHarness
from tests.discord.payloads import action_row, button_component, message

IDS = classic().ids


def scenario(base: RiskState, **changes: Any) -> RiskState:
    """A play-phase position for the game's real seats: territories dealt round-robin, 3 armies each."""
    ids = [p.id for p in base.players]
    owner = {t: ids[k % len(ids)] for k, t in enumerate(IDS)} | changes.pop("owner", {})
    armies = {t: 3 for t in IDS} | changes.pop("armies", {})
    update: dict[str, Any] = {"phase": Phase.ATTACK, "turn": 1, "current": ids[0], "owner": owner, "armies": armies,
                              "setup_left": {}, "pool": 0, "deck": [*IDS, "wild_1", "wild_2"],
                              "hands": {p: [] for p in ids}, **changes}
    return from_json(RiskState, to_json(replace(base, **update)))


async def three_players(h: DispatchHarness) -> tuple[list[dict[str, Any]], RiskState]:
    members = await start_game(h, "Ada", "Bo", "Cy")
    state = await state_of(h)
    order = {p.id: k for k, p in enumerate(state.players)}
    members.sort(key=lambda m: order[uid(m)])
    return members, state


@pytest.mark.rule("RISK-DIG-18", "RISK-DIG-1")
async def test_place_in_setup_and_refusals(h: DispatchHarness) -> None:
    members, state = await three_players(h)
    first = next(m for m in members if uid(m) == state.current)
    other = next(m for m in members if uid(m) != state.current)
    mine = state.territories_of(state.current)[0]
    refused(await h.slash("risk", "place", options={"territory": mine}, user=other), "not your turn")
    refused(await h.slash("risk", "place", options={"territory": "Atlantis"}, user=first),
            "I don't know a territory called \"Atlantis\"")
    refused(await h.slash("risk", "place", options={"territory": mine, "count": 9999}, user=first),
            "You can place only")
    refused(await h.slash("risk", "place", options={"territory": mine}, user=h.add_member("Zed")),
            "You are not playing in this game")
    refused(await h.slash("risk", "attack", options={"source": mine, "target": "alaska"}, user=first),
            "during the setup placement phase")
    name = classic().territory[mine].name
    ok = await h.slash("risk", "place", options={"territory": name.lower(), "count": 2}, user=first)
    assert ok.posts and f"places 2 armies on {name}" in ok.said
    assert (await state_of(h)).armies[mine] == state.armies[mine] + 2


async def test_a_command_in_a_channel_without_a_game(h: DispatchHarness) -> None:
    refused(await h.slash("risk", "endturn"), "There is no game in this channel")
    refused(await h.slash("risk", "hand"), "There is no game in this channel")


@pytest.mark.rule("RISK-DIG-21", "RISK-DIG-52")
async def test_attack_buttons_roll_again_and_stale_clicks(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    s = scenario(base, owner={"alaska": me, "kamchatka": them}, armies={"alaska": 10, "kamchatka": 5})
    await put_state(h, s, dice=[1, 1, 1, 6, 6, 6, 6, 6, 1, 1])
    first = members[0]
    result = await h.slash("risk", "attack", options={"source": "Alaska", "target": "kamch"}, user=first)
    assert result.posts and "Alaska → Kamchatka: the attacker rolls 1-1-1, the defender 6-6" in result.said
    ids = result.post.custom_ids()
    again = next(c for c in ids if c.startswith("risk:again:"))
    assert any(c.startswith("risk:blitz:") for c in ids) and any(c.startswith("risk:stop:") for c in ids)
    refused(await h.button(again, user=members[1]), "not your turn")
    pressed = await h.button(again, user=first)
    assert "the attacker rolls 6-6-6, the defender 1-1" in pressed.said
    stale = await h.button(again, user=first, message=result.post)
    assert stale.ephemeral and "earlier moment" in stale.content
    after = await state_of(h)
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (8, 3)


@pytest.mark.rule("RISK-DIG-23", "RISK-DIG-11", "RISK-DIG-39")
async def test_forged_move_and_defend_counts_are_refused(h: DispatchHarness) -> None:
    """The bot writes only digits after move and defend, but a payload may carry a word: refused, not a crash."""
    members, base = await three_players(h)
    s = await put_state(h, scenario(base))
    for custom_id in (f"risk:move:{s.seq}:alaska", f"risk:defend:{s.seq}:two"):
        posted = message(h.world.channel["id"], author=h.world.bot_user,
                         components=[action_row(button_component(custom_id))])
        refused(await h.interact(h.world.component(custom_id, message=posted, user=members[0])),
                "That command has a value I can't use")
    assert to_json(await state_of(h)) == to_json(s)


async def test_conquest_offers_move_buttons(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    s = scenario(base, owner={"alaska": me, "kamchatka": them}, armies={"alaska": 8, "kamchatka": 1})
    await put_state(h, s, dice=[6, 5, 4, 1])
    result = await h.slash("risk", "attack", options={"source": "alaska", "target": "kamchatka"}, user=members[0])
    assert "conquers Kamchatka" in result.said
    assert [f.filename for m in result.posts for f in m.files] == ["board.png"], "a board after every conquest"
    buttons = result.post.custom_ids()
    assert f"risk:move:{s.seq + 1}:3" in buttons and f"risk:move:{s.seq + 1}:7" in buttons
    refused(await h.slash("risk", "endturn", user=members[0]), "First move armies into Kamchatka")
    moved = await h.button(f"risk:move:{s.seq + 1}:7", user=members[0])
    assert "moves 7 armies into Kamchatka" in moved.said
    after = await state_of(h)
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (1, 7) and after.interrupt is None


@pytest.mark.rule("RISK-DIG-21", "RISK-DIG-1")
async def test_autocomplete_offers_only_legal_names(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    s = scenario(base, owner={"alaska": me, "kamchatka": them, "alberta": me, "northwest_territory": me,
                              "quebec": me}, armies={"alaska": 4, "alberta": 1})
    await put_state(h, s)
    sources = await h.autocomplete("risk", "attack", options={"source": "al"}, focused="source", user=members[0])
    assert [c["value"] for c in sources] == ["alaska"]  # Alberta has 1 army
    targets = await h.autocomplete("risk", "attack", options={"source": "Alaska", "target": ""}, focused="target",
                                   user=members[0])
    assert [c["value"] for c in targets] == ["kamchatka"]
    aliases = await h.autocomplete("risk", "place", options={"territory": "eastern can"}, focused="territory",
                                   user=members[0])
    assert [c["value"] for c in aliases] == ["quebec"]


@pytest.mark.rule("RISK-DIG-20")
async def test_trade_picks_cards_from_a_menu(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me = base.players[0].id
    cards = ["alaska", "venezuela", "peru"]  # three infantry
    other = base.players[1].id
    hands = {p.id: [] for p in base.players} | {me: cards, other: ["japan", "china", "egypt"]}
    s = scenario(base, phase=Phase.REINFORCE, hands=hands, owner={"alaska": me})
    await put_state(h, s)
    # The menu is only for whoever may trade now: it used to be offered to anyone holding three cards.
    refused(await h.slash("risk", "trade", user=members[1]), "It's not your turn")
    refused(await h.slash("risk", "trade", user=h.add_member("Zed")), "You are not playing in this game")
    menu = await h.slash("risk", "trade", user=members[0])
    assert menu.ephemeral
    select = menu.components[0]["components"][0]
    assert {o["value"] for o in select["options"]} == set(cards)
    traded = await h.select(select["custom_id"], cards, user=members[0])
    assert "trades" in traded.said and "for 4 armies" in traded.said
    after = await state_of(h)
    assert after.hands[me] == [] and after.pool == 4 and after.armies["alaska"] == 5  # +2 on Alaska


@pytest.mark.rule("RISK-DIG-27", "RISK-DIG-2")
async def test_hand_and_mission_are_private(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me = base.players[0].id
    await put_state(h, scenario(base, hands={p.id: (["japan", "wild_1"] if p.id == me else []) for p in base.players}))
    hand = await h.slash("risk", "hand", user=members[0])
    assert hand.ephemeral and "Japan (artillery)" in hand.content and "Wild" in hand.content
    refused(await h.slash("risk", "mission", user=members[0]), "This game has no secret missions")


@pytest.mark.rule("RISK-DIG-25", "RISK-DIG-39")
async def test_fortify_and_end_turn_pass_the_turn_with_a_ping(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, nxt = base.players[0].id, base.players[1].id
    s = scenario(base, owner={"alaska": me, "alberta": me}, armies={"alaska": 5})
    await put_state(h, s)
    refused(await h.slash("risk", "fortify", options={"source": "alaska", "target": "japan", "count": 1},
                          user=members[0]), "You don't control Japan")
    refused(await h.slash("risk", "fortify", options={"source": "alaska", "target": "alberta", "count": 5},
                          user=members[0]), "You must leave at least 1 army in Alaska")
    done = await h.slash("risk", "fortify", options={"source": "alaska", "target": "alberta", "count": 4},
                         user=members[0])
    assert "fortifies Alberta with 4 armies from Alaska" in done.said
    assert f"<@{nxt}>" in done.said, "the next player is pinged"
    assert [f.filename for m in done.posts for f in m.files] == ["board.png"], "the board is posted after every turn"
    assert (await state_of(h)).current == nxt


async def test_only_a_player_whose_turn_it_newly_is_gets_pinged(h: DispatchHarness) -> None:
    """Item 18 of #13: 379 of 490 replies mentioned the player who had just acted."""
    members, base = await three_players(h)
    me, nxt = base.players[0].id, base.players[1].id
    await put_state(h, scenario(base, phase=Phase.REINFORCE, pool=3, owner={"alaska": me, "alberta": me}))
    placed = await h.slash("risk", "place", options={"territory": "alaska", "count": 1}, user=members[0])
    assert pinged(placed) == set() and f"<@{me}>" not in placed.said, "the one who acts is named, not pinged"
    assert "place 2 armies" in placed.said.lower()
    await h.slash("risk", "place", options={"territory": "alaska", "count": 2}, user=members[0])
    ended = await h.slash("risk", "endturn", user=members[0])
    assert pinged(ended) == {nxt} and f"<@{nxt}>" in ended.said
    refused(await h.slash("risk", "endturn", user=members[0]), "not your turn")
    again = await h.slash("risk", "place", options={"territory": next(t for t, o in (await state_of(h)).owner.items()
                                                                        if o == nxt), "count": 1}, user=members[1])
    assert pinged(again) == set(), "a player still deciding is not pinged again"


async def test_a_name_that_mentions_someone_pings_nobody(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me = base.players[0].id
    odd = replace(base, players=[replace(p, name="@everyone <@42>") if p.id == me else p
                                              for p in base.players])
    await put_state(h, scenario(odd, owner={"alaska": me, "alberta": me}, armies={"alaska": 5}))
    done = await h.slash("risk", "fortify", options={"source": "alaska", "target": "alberta", "count": 4},
                         user=members[0])
    assert 42 not in pinged(done) and "@everyone" not in done.said.replace("\\@everyone", "")


async def test_a_retried_interaction_is_applied_once(h: DispatchHarness) -> None:
    members, state = await three_players(h)
    first = next(m for m in members if uid(m) == state.current)
    mine = state.territories_of(state.current)[0]
    payload = h.world.slash("risk", "place", options={"territory": mine}, user=first)
    once = await h.interact(payload)
    assert len(once.posts) == 1 and "places 1 army" in once.said
    for _ in range(20):  # the gateway re-delivers it: no second answer on its token, no error, no rate limit
        again = await h.interact(payload)
        assert not again.record.callback_types[1:] and not again.errors and not again.requests
    assert (await state_of(h)).armies[mine] == state.armies[mine] + 1
    assert not (await h.slash("risk", "hand", user=first)).content.startswith("⚠️"), "the rate limit is untouched"


async def test_an_interaction_redelivered_after_a_restart_is_neither_applied_nor_answered_again(
        h: DispatchHarness) -> None:
    """A new process remembers none of the interactions the last one received, but the database knows what they
    did: the re-delivery of a command or a button press it applied changes nothing, answers nothing (Discord
    would refuse a second answer: 40060) and logs no error."""
    members, base = await three_players(h)
    me = base.players[0].id
    s = scenario(base, owner={"alaska": me}, armies={"alaska": 10})
    await put_state(h, s, dice=[1, 1, 1, 6, 6])
    attack = h.world.slash("risk", "attack", options={"source": "alaska", "target": "kamchatka"}, user=members[0])
    attacked = await h.interact(attack)
    stop = next(c for c in attacked.post.custom_ids() if c.startswith("risk:stop:"))
    press = h.world.component(stop, message=attacked.post.payload, user=members[0])
    await h.interact(press)
    after = await state_of(h)
    h.bot.deliveries = Deliveries()  # type: ignore[attr-defined]  # what a restart forgets
    for payload in (attack, press, attack):
        again = await h.interact(payload, raise_errors=False)
        assert not again.record.callback_types[1:] and not again.errors and not again.requests, again.tracebacks
    assert await state_of(h) == after


@pytest.mark.rule("RISK-DIG-22", "RISK-DIG-10")
async def test_defender_chooses_with_buttons(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    s = scenario(base, owner={"alaska": me, "kamchatka": them}, armies={"alaska": 5, "kamchatka": 3},
                 options=base.options.model_copy(update={"defender_dice": "choose"}))
    await put_state(h, s, dice=[6, 6, 6, 1])
    declared = await h.slash("risk", "attack", options={"source": "alaska", "target": "kamchatka"}, user=members[0])
    assert f"<@{them}>" in declared.said and "defend" in declared.said.lower()
    refused(await h.slash("risk", "defend", options={"dice": 1}, user=members[2]), "Only")
    answer = await h.button(f"risk:defend:{s.seq + 1}:1", user=members[1])
    assert "the attacker rolls 6-6-6, the defender 1;" in answer.said
    assert (await state_of(h)).armies["kamchatka"] == 2


@pytest.mark.rule("RISK-DIG-29")
async def test_resign_asks_first(h: DispatchHarness) -> None:
    members, _ = await three_players(h)
    ask = await h.slash("risk", "resign", user=members[2])
    assert ask.ephemeral
    confirm = next(c for c in ask.response.custom_ids())
    done = await h.button(confirm, user=members[2], message=ask.response)
    assert "resigns" in done.said
    assert (await state_of(h)).player(uid(members[2])).status == "resigned"  # type: ignore[union-attr]


async def test_occupy_blocks_with_interrupt_message(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    s = scenario(base, owner={"alaska": me, "kamchatka": me}, armies={"alaska": 5, "kamchatka": 0},
                 interrupt=Interrupt(kind="occupy", source="alaska", target="kamchatka", min=3, max=4, dice=3,
                                     defender=them))
    await put_state(h, s)
    refused(await h.slash("risk", "move", options={"count": 2}, user=members[0]), "at least 3")
    moved = await h.slash("risk", "move", options={"count": 4}, user=members[0])
    assert "moves 4 armies into Kamchatka" in moved.said


@pytest.mark.rule("RISK-DIG-17", "RISK-DIG-16")
async def test_claim_phase_through_commands(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", "Cy", setup="claim", placement="one_at_a_time")
    state = await state_of(h)
    first = next(m for m in members if uid(m) == state.current)
    claimed = await h.slash("risk", "claim", options={"territory": "Eastern Canada"}, user=first)
    assert "claims Quebec" in claimed.said
    refused(await h.slash("risk", "claim", options={"territory": "quebec"}, user=first), "not your turn")
    current = (await state_of(h)).current
    nxt = next(m for m in members if uid(m) == current)
    refused(await h.slash("risk", "claim", options={"territory": "quebec"}, user=nxt), "Quebec is already claimed")


@pytest.mark.rule("RISK-DIG-19")
async def test_two_player_neutral_placement(h: DispatchHarness) -> None:
    members = await start_game(h, "Ada", "Bo", mode="two_player")
    state = await state_of(h)
    first = next(m for m in members if uid(m) == state.current)
    neutral = next(t for t in IDS if state.owner[t] == 0)
    mine = state.territories_of(state.current)[0]
    refused(await h.slash("risk", "neutral", options={"territory": mine}, user=first),
            "The Neutral army must go on a Neutral territory")
    placed = await h.slash("risk", "neutral", options={"territory": neutral}, user=first)
    assert f"Neutral places 1 army on {classic().territory[neutral].name}" in placed.said


@pytest.mark.rule("RISK-DIG-24", "RISK-DIG-26")
async def test_stop_button_end_attack_and_end_turn(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    s = scenario(base, owner={"alaska": me, "kamchatka": them}, armies={"alaska": 10, "kamchatka": 5})
    await put_state(h, s, dice=[1, 1, 1, 6, 6])
    attacked = await h.slash("risk", "attack", options={"source": "alaska", "target": "kamchatka"}, user=members[0])
    stop = next(c for c in attacked.post.custom_ids() if c.startswith("risk:stop:"))
    stopped = await h.button(stop, user=members[0])
    assert stopped.said and (await state_of(h)).phase is Phase.FORTIFY
    refused(await h.slash("risk", "endattack", user=members[0]), "You can't end the attack during the fortify phase")
    ended = await h.slash("risk", "endturn", user=members[0])
    assert f"<@{them}>" in ended.said and (await state_of(h)).current == them


@pytest.mark.rule("RISK-DIG-28")
async def test_territory_info(h: DispatchHarness) -> None:
    await three_players(h)
    info = await h.slash("risk", "territory", options={"name": "siam"}, user=h.add_member("Spectator"))
    assert info.ephemeral and info.content.startswith("**Siam** (Asia)") and "Indonesia" in info.content
    refused(await h.slash("risk", "territory", options={"name": "Narnia"}), "I don't know a territory")


@pytest.mark.rule("RISK-ERR-7")
async def test_help_is_private_and_needs_no_seat(h: DispatchHarness) -> None:
    shown = await h.slash("risk", "help", user=h.add_member("Newcomer"))
    assert shown.ephemeral and re.search(r"</risk attack:\d+> `source target`", shown.content), shown.content


async def test_garbage_option_values_are_refused_politely(h: DispatchHarness) -> None:
    members, state = await three_players(h)
    first = next(m for m in members if uid(m) == state.current)
    mine = state.territories_of(state.current)[0]
    refused(await h.slash("risk", "place", options={"territory": mine, "count": 0}, user=first),
            "count must be a whole number of at least 1")
    refused(await h.slash("risk", "place", options={"territory": mine, "count": "lots"}, user=first),
            "That command has a value I can't use")
    refused(await h.slash("risk", "attack", options={"source": mine, "target": mine, "until": "forever"},
                          user=first), "Input should be 'once' or 'conquer'")
    refused(await h.slash("risk", "place", options={"territory": "", "count": 1}, user=first),
            "I don't know a territory called")
    assert (await state_of(h)).armies == state.armies


@pytest.mark.rule("RISK-DIG-1", "RISK-FORT-3")
async def test_autocomplete_is_the_rules_choices_within_discords_limits(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    owner = {"alaska": me, "northwest_territory": me, "alberta": me, "ontario": them, "greenland": me}
    s = scenario(base, phase=Phase.FORTIFY, owner=owner, armies={"alaska": 5},
                 options=base.options.model_copy(update={"fortify_mode": "connected"}),
                 hands={p.id: [] for p in base.players} | {them: ["japan", "china", "egypt"]})
    await put_state(h, s)
    targets = await h.autocomplete("risk", "fortify", options={"source": "alaska", "target": "gr"}, focused="target",
                                   user=members[0])
    assert [c["value"] for c in targets] == ["greenland"], "connected through Northwest Territory"
    bonus = await h.autocomplete("risk", "trade", options={"bonus": ""}, focused="bonus", user=members[0])
    assert bonus == [], "no card of the player names a territory of theirs"
    every = await h.autocomplete("risk", "territory", options={"name": ""}, focused="name", user=members[2])
    assert len(every) == 25 and all(len(c["name"]) <= 100 for c in every)
    assert await h.autocomplete("wq", "attack", options={"source": ""}, focused="source", user=members[0]) == []


@pytest.mark.rule("RISK-DIG-26")
async def test_the_fortify_step_offers_an_end_turn_button(h: DispatchHarness) -> None:
    members, base = await three_players(h)
    me, them = base.players[0].id, base.players[1].id
    s = await put_state(h, scenario(base, owner={"alaska": me, "kamchatka": them}))
    stopped = await h.slash("risk", "endattack", user=members[0])
    end = f"risk:endturn:{s.seq + 1}"
    assert stopped.post.custom_ids() == [end]
    refused(await h.button(end, user=members[1]), "not your turn")
    ended = await h.button(end, user=members[0])
    assert f"<@{them}>" in ended.said and (await state_of(h)).current == them
