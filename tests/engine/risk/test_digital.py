"""Digital adaptation at engine level: names, hidden information, decisions, text board, skip-mode, log."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from pydantic import ValidationError

from engine.core.errors import RuleError
from engine.core.models import Action, Decision, Event, json_text, to_json
from engine.core.views import HIDDEN, SEALED, is_view
from engine.games.risk import RULESET, RiskState
from engine.games.risk import actions as A
from engine.games.risk.actions import ACTION_ADAPTER
from engine.games.risk.names import matches, resolve
from engine.games.risk.text import narrate, text_board
from tests.engine.risk.helpers import (
    BOARD,
    IDS,
    NEUTRAL,
    P1,
    P2,
    P3,
    Phase,
    new,
    new_with_events,
    of_type,
    play,
    position,
    rejects,
)

# ---------------------------------------------------------------- builders


def defending() -> RiskState:
    s = position(phase=Phase.ATTACK, defender_dice="choose", armies={"alaska": 5})
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}))
    return s


def occupying(**kw: Any) -> RiskState:
    """P1 has just taken Kamchatka from Alaska (6 armies) with 3 dice: a move of 3..5 is pending."""
    s = position(phase=Phase.ATTACK, armies={"alaska": 6, "kamchatka": 1}, **kw)
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), dice=[6, 5, 4, 1])
    return s


def last_stand_owner() -> dict[str, int]:
    """P3 keeps only Kamchatka; P3's other default territories go to P2."""
    base = position()
    return {t: (P2 if o == P3 and t != "kamchatka" else o) for t, o in base.owner.items()}


def eliminating_with_events(p1_hand: list[str], p3_hand: list[str]) -> tuple[RiskState, list[Event]]:
    """P1 takes P3's last territory, Kamchatka, and moves 3 in; the events of the move."""
    s = position(phase=Phase.ATTACK, owner=last_stand_owner(), armies={"alaska": 6, "kamchatka": 1},
                 hands={P1: p1_hand, P3: p3_hand})
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), dice=[6, 5, 4, 1])
    s, events = play(s, ("move", P1, {"count": 3}))
    assert s.player(P3).status == "eliminated"
    return s, events


def eliminating(p1_hand: list[str], p3_hand: list[str]) -> RiskState:
    return eliminating_with_events(p1_hand, p3_hand)[0]


def only(s: RiskState) -> Decision:
    decisions = RULESET.pending(s)
    assert len(decisions) == 1, decisions
    return decisions[0]


def dumped(view: RiskState) -> str:
    return json_text(view)


def auto_turn(s: RiskState, pid: int) -> tuple[RiskState, list[Action], list[Event]]:
    """Play pid's timed-out decisions in skip mode until the turn passes (or the game ends)."""
    acts: list[Action] = []
    events: list[Event] = []
    for _ in range(10):
        if s.current != pid or s.phase is Phase.GAME_OVER:
            break
        batch = RULESET.timeout_actions(s, pid)
        for act in batch:
            s, ev = play(s, act)
            acts.append(act)
            events.extend(ev)
    assert s.current != pid or s.phase is Phase.GAME_OVER, "skip mode did not finish the turn"
    return s, acts, events


# ---------------------------------------------------------------- DIG-1 names


@pytest.mark.rule("RISK-DIG-1")
def test_territory_aliases() -> None:
    aliases = {
        "Eastern Canada": "quebec", "Russia": "ukraine", "Southeast Asia": "siam", "Central Africa": "congo",
        "Western US": "western_united_states", "W US": "western_united_states",
        "Eastern US": "eastern_united_states", "E US": "eastern_united_states", "NWT": "northwest_territory",
        "Great Britain & Ireland": "great_britain", "UK": "great_britain", "Mid East": "middle_east",
    }
    for text, tid in aliases.items():
        assert resolve(text) == tid, text
        assert resolve(text.lower()) == tid and resolve(text.upper()) == tid
        assert matches(text) == [tid]


@pytest.mark.rule("RISK-DIG-1")
def test_names_ids_prefixes_and_errors() -> None:
    assert resolve("western_united_states") == "western_united_states"
    assert resolve("Western United States") == "western_united_states"
    assert resolve("  oNtArIo ") == "ontario"
    assert resolve("Ont") == "ontario" and resolve("kam") == "kamchatka" and resolve("Madag") == "madagascar"
    assert set(matches("Eastern")) == {"quebec", "eastern_united_states", "eastern_australia"}
    with pytest.raises(RuleError) as info:
        resolve("Eastern")
    assert info.value.code == "E_AMBIGUOUS_TERRITORY"
    for name in ("Quebec", "Eastern United States", "Eastern Australia"):
        assert name in info.value.message
    with pytest.raises(RuleError) as info:
        resolve("Ontaryo")
    assert info.value.code == "E_UNKNOWN_TERRITORY"
    assert "Ontario" in info.value.message and "{" not in info.value.message
    assert matches("Atlantis") == []
    with pytest.raises(RuleError) as info:
        resolve("Atlantis")
    assert info.value.code == "E_UNKNOWN_TERRITORY"


@pytest.mark.rule("RISK-DIG-1")
def test_actions_accept_names() -> None:
    s = position(pool=3, owner={"quebec": P1}, armies={"alaska": 5})
    s, events = play(s, ("place", P1, {"territory": "Eastern Canada", "count": 3}))
    assert of_type(events, "placed")[0].territory == "quebec" and s.armies["quebec"] == 6
    s, events = play(s, ("attack", P1, {"source": "ALASKA", "target": "Kam", "dice": 1}), dice=[6, 1, 1])
    assert of_type(events, "battle")[0].target == "kamchatka" and s.armies["kamchatka"] == 2
    s, events = play(s, ("fortify", P1, {"source": "Alaska", "target": "alb", "count": 2}))
    assert (s.armies["alaska"], s.armies["alberta"]) == (3, 5)
    c, events = play(new(3, seed=1), ("claim", P1, {"territory": "Russia"}))
    assert c.owner["ukraine"] == P1
    rejects(position(pool=3), ("place", P1, {"territory": "W"}), "E_AMBIGUOUS_TERRITORY")


# ---------------------------------------------------------------- DIG-2..8, 38: hidden information


@pytest.mark.rule("RISK-DIG-2", "RISK-DIG-8", "RISK-DIG-38")
def test_views_show_hand_sizes_but_only_own_cards() -> None:
    s = position(hands={P1: ["alaska", "wild_1"], P2: ["peru"]}, deck=["wild_2", "japan", "siam"])
    spectator = RULESET.view(s, None)
    assert spectator.hands == {P1: [HIDDEN, HIDDEN], P2: [HIDDEN], P3: []}
    assert RULESET.view(s, P1).hands == {P1: ["alaska", "wild_1"], P2: [HIDDEN], P3: []}
    assert RULESET.view(s, P2).hands[P2] == ["peru"]
    assert RULESET.view(s, P3).hands[P3] == []
    for viewer in (None, P2, P3):
        assert "wild_1" not in dumped(RULESET.view(s, viewer))
    # The deck's order and the dice state are never shown; only the deck's size is.
    for viewer in (None, P1, P2):
        v = RULESET.view(s, viewer)
        assert v.deck == [HIDDEN] * 3 and v.rng == SEALED and is_view(v) and not is_view(s)
        text = dumped(v)
        assert "wild_2" not in text and str(s.rng.state) not in text


@pytest.mark.rule("RISK-DIG-3")
def test_drawn_card_is_private() -> None:
    s = position(phase=Phase.ATTACK, conquered=True, hands={P1: ["peru"]}, deck=["wild_1", "japan"])
    s2, events = play(s, ("end_attack", P1))
    assert s2.hands[P1] == ["peru", "wild_1"]
    (drawn,) = of_type(events, "card_drawn")
    assert drawn.player == P1 and drawn.hand_size == 2 and drawn.private_to is None
    assert "wild_1" not in json_text(drawn)
    assert narrate(drawn, s2) == "Player1 draws a card and now holds 2 cards."
    assert "wild_1" not in dumped(RULESET.view(s2, P2))
    assert "wild_1" in RULESET.view(s2, P1).hands[P1]


@pytest.mark.rule("RISK-DIG-4")
def test_cards_taken_on_elimination_stay_private() -> None:
    s, events = eliminating_with_events(["alaska"], ["wild_2", "greenland"])
    assert s.hands[P1] == ["alaska", "wild_2", "greenland"]
    (elim,) = of_type(events, "eliminated")
    assert (elim.player, elim.by, elim.cards_taken) == (P3, P1, 2)
    assert "wild_2" not in json.dumps([to_json(e) for e in events])
    assert narrate(elim, s) == "Player3 is eliminated by Player1, who takes 2 cards."
    assert len(RULESET.view(s, None).hands[P1]) == 3
    assert "wild_2" not in dumped(RULESET.view(s, P2))
    assert RULESET.view(s, P1).hands[P1] == ["alaska", "wild_2", "greenland"]


@pytest.mark.rule("RISK-DIG-5")
def test_traded_sets_are_public() -> None:
    s = position(hands={P1: ["alaska", "venezuela", "peru", "wild_1"]}, sets_traded=2)
    s2, events = play(s, ("trade", P1, {"cards": ["alaska", "venezuela", "peru"]}))
    (traded,) = of_type(events, "cards_traded")
    assert traded.cards == ["alaska", "venezuela", "peru"] and traded.private_to is None
    assert (traded.value, traded.sets_traded) == (8, 3)
    line = narrate(traded, s2)
    assert line is not None
    assert "Alaska, Venezuela, Peru" in line and "8 armies" in line and "set #3" in line
    assert "next set is worth 10" in line
    spectator = RULESET.view(s2, None)
    assert spectator.discard == ["alaska", "venezuela", "peru"]
    assert spectator.sets_traded == 3
    assert "wild_1" not in dumped(spectator)


@pytest.mark.rule("RISK-DIG-6")
def test_missions_are_private() -> None:
    s, events = new_with_events(3, seed=1, mode="secret_mission")
    dealt = of_type(events, "mission_dealt")
    assert {e.private_to for e in dealt} == {P1, P2, P3}
    assert all(e.mission == s.missions[e.private_to] for e in dealt)
    assert all(narrate(e, s) is None for e in dealt)
    for pid in (P1, P2, P3):
        assert RULESET.view(s, pid).missions == {pid: s.missions[pid]}
    assert RULESET.view(s, None).missions == {}
    # The own-colour substitution is told privately, to that player only.
    s2, events2 = new_with_events(3, seed=2, mode="secret_mission")
    (sub,) = [e for e in of_type(events2, "mission_dealt") if e.replaced is not None]
    assert sub.private_to == P2 and sub.mission == "M05" and sub.replaced == "M08"  # Blue was to destroy Blue
    assert narrate(sub, s2) is None
    # A destroy mission whose target leaves becomes M05: also private.
    g = position(mode="secret_mission", missions={P1: "M03", P2: "M09", P3: "M04"})
    g2, ev = play(g, ("resign", P3))
    (changed,) = of_type(ev, "mission_changed")
    assert changed.private_to == P2 and (changed.previous, changed.mission) == ("M09", "M05")
    assert narrate(changed, g2) is None
    assert RULESET.view(g2, P1).missions == {P1: "M03"}


def mission_endgame() -> RiskState:
    """Secret mission: P1 (M05, occupy 24) holds 23 territories; P2 is out; P3 holds the rest."""
    owner = {t: (P1 if k < 23 and t != "kamchatka" else P3) for k, t in enumerate(IDS)}
    assert sum(o == P1 for o in owner.values()) == 23
    return position(mode="secret_mission", phase=Phase.ATTACK, owner=owner, eliminated=(P2,),
                    missions={P1: "M05", P2: "M03", P3: "M04"}, armies={"alaska": 6, "kamchatka": 1})


@pytest.mark.rule("RISK-DIG-7", "RISK-DIG-14")
def test_missions_revealed_only_at_game_end() -> None:
    s = mission_endgame()
    # An eliminated player's mission stays hidden until the end.
    assert RULESET.view(s, P3).missions == {P3: "M04"}
    assert RULESET.view(s, None).missions == {}
    assert "M03" not in dumped(RULESET.view(s, P1))
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), dice=[6, 5, 4, 1])
    s, events = play(s, ("move", P1, {"count": 3}))
    # The win is automatic: nobody is asked anything.
    (won,) = of_type(events, "game_won")
    assert (won.player, won.reason) == (P1, "mission")
    assert s.phase is Phase.GAME_OVER and RULESET.pending(s) == [] and RULESET.winners(s) == [P1]
    everyone = {P1: "M05", P2: "M03", P3: "M04"}
    assert RULESET.view(s, None).missions == everyone
    assert RULESET.view(s, P3).missions == everyone
    line = narrate(won, s)
    assert line is not None and "Occupy 24 territories" in line and "Conquer Asia and South America" in line


@pytest.mark.rule("RISK-DIG-38")
def test_secret_placement_plans_stay_private() -> None:
    s = new(3, seed=1, setup="random_deal", setup_placement="simultaneous")
    mine = next(t for t in IDS if s.owner[t] == P1)
    left = s.setup_left[P1]
    s2, events = play(s, ("deploy", P1, {"placements": {mine: left}}))
    (sub,) = of_type(events, "plan_submitted")
    assert sub.player == P1 and "placements" not in to_json(sub)
    assert RULESET.view(s2, P1).plans == {P1: {mine: left}}
    for viewer in (None, P2, P3):
        v = RULESET.view(s2, viewer)
        assert v.plans == {P1: {HIDDEN: left}}  # that the plan is in, not where it goes
        assert v.armies[mine] == 1


# ---------------------------------------------------------------- DIG-9..14: decisions


@pytest.mark.rule("RISK-DIG-9")
def test_forced_trade_is_a_decision() -> None:
    s = position(hands={P1: ["alaska", "alberta", "greenland", "peru", "iceland"]}, pool=3)
    d = only(s)
    assert (d.player, d.kind) == (P1, "trade") and d.detail["hand"] == 5
    s2, _ = play(s, ("trade", P1, {"cards": ["alaska", "peru", "iceland"]}))
    d2 = only(s2)
    assert (d2.player, d2.kind, d2.detail["pool"]) == (P1, "reinforce", 7)


@pytest.mark.rule("RISK-DIG-10", "RISK-DIG-14")
def test_defender_dice_decision_only_in_choose_mode() -> None:
    s = defending()
    d = only(s)
    assert (d.player, d.kind) == (P3, "defend")
    assert (d.detail["source"], d.detail["target"], d.detail["dice"]) == ("alaska", "kamchatka", 3)
    # If the defender times out, the maximum is used.
    assert RULESET.timeout_actions(s, P3) == [A.Defend(player=P3, dice=2)]
    # Two-player: the opponent chooses for a Neutral territory.
    two = position(mode="two_player", phase=Phase.ATTACK, defender_dice="choose", owner={"kamchatka": NEUTRAL},
                   armies={"alaska": 5})
    two, _ = play(two, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 2}))
    d = only(two)
    assert (d.player, d.kind, d.detail["target"]) == (P2, "defend", "kamchatka")
    # auto_max: the defender's dice are rolled in the same step; no prompt.
    auto = position(phase=Phase.ATTACK, armies={"alaska": 5})
    auto, events = play(auto, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}),
                        dice=[6, 5, 4, 1, 1])
    (b,) = of_type(events, "battle")
    assert b.defence_dice == [1, 1] and auto.armies["kamchatka"] == 1
    assert of_type(events, "attack_declared") == []
    assert only(auto).kind == "attack" and only(auto).player == P1


@pytest.mark.rule("RISK-DIG-11")
def test_move_in_decision_unless_forced() -> None:
    d = only(occupying())
    assert (d.player, d.kind, d.detail["min"], d.detail["max"]) == (P1, "occupy", 3, 5)
    assert (d.detail["source"], d.detail["target"]) == ("alaska", "kamchatka")
    # min = max (4 armies, 3 dice): the move happens by itself.
    s = position(phase=Phase.ATTACK, armies={"alaska": 4, "kamchatka": 1})
    s, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), dice=[6, 5, 4, 1])
    assert s.interrupt is None and (s.armies["alaska"], s.armies["kamchatka"]) == (1, 3)
    assert of_type(events, "moved")[0].count == 3
    assert only(s).kind == "attack"


@pytest.mark.rule("RISK-DIG-12")
def test_elimination_trade_and_placement_decisions() -> None:
    s = eliminating(["alaska", "venezuela", "northwest_territory"], ["greenland", "quebec", "ontario"])
    d = only(s)
    assert (d.player, d.kind) == (P1, "elim_trade")
    s, _ = play(s, ("trade", P1, {"cards": ["greenland", "quebec", "ontario"]}))
    d = only(s)
    assert (d.player, d.kind, d.detail["pool"]) == (P1, "elim_place", 4)
    s, _ = play(s, ("place", P1, {"territory": "kamchatka", "count": 4}))
    assert only(s).kind == "attack"


@pytest.mark.rule("RISK-DIG-13")
def test_setup_decisions() -> None:
    claim = new(3, seed=1)
    d = only(claim)
    assert (d.player, d.kind, d.detail["unclaimed"]) == (P1, "claim", 42)
    claim, _ = play(claim, ("claim", P1, {"territory": "alaska"}))
    assert only(claim).player == P2 and only(claim).detail["unclaimed"] == 41
    place = new(3, seed=1, setup="random_deal")
    d = only(place)
    assert (d.player, d.kind, d.detail["armies"]) == (P1, "setup_place", place.setup_left[P1])
    two = new(2, seed=1, mode="two_player")
    d = only(two)
    assert (d.player, d.kind, d.detail) == (P1, "setup_place_2p", {"own": 2, "neutral": 1})
    neutral = next(t for t in IDS if two.owner[t] == NEUTRAL)
    two, _ = play(two, ("place_neutral", P1, {"territory": neutral}))
    assert only(two).detail == {"own": 2, "neutral": 0}
    sim = new(3, seed=1, setup="random_deal", setup_placement="simultaneous")
    assert {(d.player, d.kind) for d in RULESET.pending(sim)} == {(P1, "plan"), (P2, "plan"), (P3, "plan")}


def asks_for_nothing(text: str) -> bool:
    return re.search(r"\b0\b", text) is not None


@pytest.mark.rule("RISK-DIG-14", "RISK-REI-6")
def test_once_the_pool_is_placed_the_decision_is_the_attack() -> None:
    s, _ = play(position(pool=2), ("place", P1, {"territory": "alaska", "count": 2}))
    d = only(s)
    assert s.phase is Phase.REINFORCE and (d.player, d.kind) == (P1, "attack")
    attack = position(phase=Phase.ATTACK)
    assert RULESET.prompt(d, s) == RULESET.prompt(only(attack), attack)
    assert not asks_for_nothing(RULESET.prompt(d, s))
    # Armies left: still the reinforcement, whose prompt counts them.
    partly, _ = play(position(pool=2), ("place", P1, {"territory": "alaska", "count": 1}))
    assert only(partly).kind == "reinforce" and "1" in RULESET.prompt(only(partly), partly)


@pytest.mark.rule("RISK-DIG-13", "RISK-TWO-7")
def test_two_player_setup_prompt_names_only_what_is_left_to_place() -> None:
    two = new(2, seed=1, mode="two_player")
    neutral = next(t for t in IDS if two.owner[t] == NEUTRAL)
    mine = two.territories_of(P1)[0]
    both = RULESET.prompt(only(two), two)
    own, _ = play(two, ("place_neutral", P1, {"territory": neutral}))
    left_neutral, _ = play(two, ("place", P1, {"territory": mine, "count": 2}))
    assert only(left_neutral).player == P1
    assert "/risk place" in both and "/risk neutral" in both
    assert "/risk place" in RULESET.prompt(only(own), own) and "Neutral" not in RULESET.prompt(only(own), own)
    text = RULESET.prompt(only(left_neutral), left_neutral)
    assert "/risk neutral" in text and "/risk place" not in text
    assert not any(asks_for_nothing(t) for t in (both, RULESET.prompt(only(own), own), text))


@pytest.mark.rule("RISK-DIG-14")
def test_card_bonus_needs_no_prompt() -> None:
    # Two traded cards show P1's territories (Alaska, Venezuela); the first listed gets +2 at once.
    s = position(hands={P1: ["peru", "venezuela", "alaska"]})
    s2, events = play(s, ("trade", P1, {"cards": ["peru", "venezuela", "alaska"]}))
    assert of_type(events, "cards_traded")[0].bonus_territory == "venezuela"
    assert s2.armies["venezuela"] == 5 and s2.armies["alaska"] == 3
    d = only(s2)
    assert (d.player, d.kind, d.detail["pool"]) == (P1, "reinforce", 4)


# ---------------------------------------------------------------- DIG-37 text board


@pytest.mark.rule("RISK-DIG-37")
def test_text_board_lines_grouped_by_continent() -> None:
    s = position(armies={"ontario": 5}, owner={"kamchatka": NEUTRAL})
    lines = text_board(s).splitlines()
    assert "Ontario — Player2 (Blue) 5" in lines
    assert "Alaska — Player1 (Red) 3" in lines
    assert "Greenland — Player3 (Green) 3" in lines
    assert "Kamchatka — Neutral (Grey) 3" in lines
    # Every continent heading is followed by exactly its member territories, in table order.
    expected: list[str] = []
    for c in BOARD.continents:
        expected.append(f"{c.name} +{c.bonus}")
        expected.extend(BOARD.territory[t].name for t in BOARD.members[c.id])
    got: list[str] = []
    for line in lines:
        if " — " in line:
            got.append(line.split(" — ")[0])
        else:
            got.append(line.replace("*", "").replace("(", "").replace(")", ""))
    assert got == expected
    assert len(lines) == 42 + 6
    unclaimed = text_board(new(3, seed=1)).splitlines()
    assert "Ontario — unclaimed" in unclaimed


@pytest.mark.rule("RISK-DIG-37")
def test_text_board_shows_the_armies_about_to_move_in_not_an_empty_territory() -> None:
    s = position(phase=Phase.ATTACK, armies={"alaska": 8, "kamchatka": 3})
    after, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "until": "conquer"}),
                    dice=[6, 6, 6, 1, 1, 6, 6, 6, 1])
    assert after.interrupt is not None and after.interrupt.kind == "occupy"
    lines = text_board(after).splitlines()
    assert "Kamchatka — conquered by Player1 (Red): at least 3 armies about to move in" in lines
    assert not any(line.startswith("Kamchatka") and line.endswith(" 0") for line in lines)


# ---------------------------------------------------------------- DIG-42..47 skip-mode auto-play


@pytest.mark.rule("RISK-DIG-42", "RISK-DIG-45", "RISK-DIG-46")
def test_skip_mode_places_round_robin_on_borders_and_ends_turn() -> None:
    mine = ["venezuela", "argentina", "siam", "indonesia", "new_guinea", "western_australia", "eastern_australia"]
    owner = {t: (P1 if t in mine else P2 if k % 2 else P3) for k, t in enumerate(IDS)}
    s = position(owner=owner, pool=4, timeout_action="skip", armies={"indonesia": 9})
    acts = RULESET.timeout_actions(s, P1)
    assert acts == RULESET.timeout_actions(s, P1)  # deterministic
    # One command for the whole spread, then the end of the turn: no attack, no fortify.
    assert acts == [A.Deploy(player=P1, placements={"venezuela": 2, "argentina": 1, "siam": 1}), A.EndTurn(player=P1)]
    # The same choice whatever the dice state.
    assert RULESET.timeout_actions(position(owner=owner, pool=4, seed=99, armies={"indonesia": 9}), P1) == acts
    end, _, events = auto_turn(s, P1)
    # One at a time over the borders in table order: Venezuela, Argentina, Siam, Venezuela.
    assert {t: end.armies[t] - s.armies[t] for t in mine} == {
        "venezuela": 2, "argentina": 1, "siam": 1, "indonesia": 0, "new_guinea": 0, "western_australia": 0,
        "eastern_australia": 0,
    }
    assert of_type(events, "battle") == [] and of_type(events, "moved") == []
    assert all(end.armies[t] == s.armies[t] for t in IDS if t not in mine)
    assert end.current == P2 and end.phase is Phase.REINFORCE and end.hands[P1] == []


@pytest.mark.rule("RISK-DIG-42", "RISK-DIG-44")
def test_skip_mode_forced_trade_avoids_wilds() -> None:
    # A cavalry set without a wild beats the wild sets, even though those could include P1's Alaska.
    hand = ["wild_1", "ontario", "quebec", "greenland", "alaska"]
    s = position(hands={P1: hand}, timeout_action="skip")
    assert RULESET.timeout_actions(s, P1) == [A.Trade(player=P1, cards=["ontario", "quebec", "greenland"])]
    end, _, events = auto_turn(s, P1)
    assert of_type(events, "cards_traded")[0].cards == ["ontario", "quebec", "greenland"]
    assert end.hands[P1] == ["wild_1", "alaska"] and end.current == P2


@pytest.mark.rule("RISK-DIG-44")
def test_skip_mode_forced_trade_prefers_owned_then_earliest() -> None:
    # All infantry: Peru, Iceland, Mongolia (P2's), then Alaska, Venezuela (P1's).
    s = position(hands={P1: ["peru", "iceland", "mongolia", "alaska", "venezuela"]})
    assert RULESET.timeout_actions(s, P1) == [A.Trade(player=P1, cards=["peru", "iceland", "alaska"])]
    s2, events = play(s, RULESET.timeout_actions(s, P1)[0])
    assert of_type(events, "cards_traded")[0].bonus_territory == "alaska" and s2.armies["alaska"] == 5
    # Every set contains an owned card and no wild: the earliest cards in the hand.
    early = position(hands={P1: ["alaska", "alberta", "western_united_states", "venezuela", "argentina"]})
    assert RULESET.timeout_actions(early, P1) == [
        A.Trade(player=P1, cards=["alaska", "alberta", "western_united_states"])
    ]
    # The same preference for elimination trades.
    elim = eliminating(["wild_1", "alaska", "venezuela"], ["peru", "iceland", "mongolia"])
    assert RULESET.timeout_actions(elim, P1) == [A.Trade(player=P1, cards=["alaska", "venezuela", "peru"])]


@pytest.mark.rule("RISK-DIG-43", "RISK-DIG-47")
def test_skip_mode_moves_minimum_and_draws_the_earned_card() -> None:
    s = occupying(deck=["japan", "siam"], timeout_action="skip")
    assert RULESET.timeout_actions(s, P1) == [A.Move(player=P1, count=3)]
    end, acts, events = auto_turn(s, P1)
    assert acts == [A.Move(player=P1, count=3), A.EndTurn(player=P1)]
    assert (end.armies["alaska"], end.armies["kamchatka"]) == (3, 3)
    assert end.hands[P1] == ["japan"] and of_type(events, "card_drawn")[0].hand_size == 1
    assert end.current == P2


@pytest.mark.rule("RISK-DIG-46", "RISK-DIG-47")
def test_skip_mode_never_attacks_or_fortifies() -> None:
    for phase in (Phase.ATTACK, Phase.FORTIFY):
        s = position(phase=phase, armies={"alaska": 20, "alberta": 20}, deck=["japan"])
        assert RULESET.timeout_actions(s, P1) == [A.EndTurn(player=P1)]
        end, _, events = auto_turn(s, P1)
        assert end.hands[P1] == [] and of_type(events, "card_drawn") == []  # nothing conquered, no card
        assert end.armies == s.armies and end.current == P2
    # The elimination placement is played out, then the turn ends with the card.
    elim = eliminating(["alaska", "venezuela", "northwest_territory"], ["greenland", "quebec", "ontario"])
    end, acts, events = auto_turn(elim, P1)
    assert isinstance(acts[0], A.Trade) and isinstance(acts[-1], A.EndTurn)
    assert not any(isinstance(a, A.Attack | A.Fortify) for a in acts)
    assert len(of_type(events, "card_drawn")) == 1 and len(end.hands[P1]) == 4
    assert end.current == P2


# ---------------------------------------------------------------- DIG-52, 54, 55


@pytest.mark.rule("RISK-DIG-52")
def test_sequence_number_counts_applied_actions() -> None:
    s = position(armies={"alaska": 10, "kamchatka": 2}, pool=3)
    assert s.seq == 0
    s, _ = play(s, ("place", P1, {"territory": "alaska", "count": 3}))
    assert s.seq == 1
    rejects(s, ("place", P1, {"territory": "alaska"}), "E_TOO_MANY_TO_PLACE")  # a refusal keeps it
    # An attack-until of several battles is one action.
    s, events = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "until": "conquer"}),
                     dice=[1, 1, 1, 6, 6, 6, 6, 6, 1, 1])
    assert len(of_type(events, "battle")) == 2 and s.seq == 2
    s, _ = play(s, ("move", P1, {"count": 3}))
    s, _ = play(s, ("resign", P3))
    assert s.seq == 4
    s, _ = play(s, ("end_turn", P1))
    assert s.seq == 5 and s.current == P2


@pytest.mark.rule("RISK-DIG-54")
def test_there_is_no_undo() -> None:
    with pytest.raises(ValidationError):
        ACTION_ADAPTER.validate_python({"type": "undo", "player": P1})
    with pytest.raises(ValidationError):
        RULESET.parse_action({"type": "undo", "player": P1, "steps": 1})
    assert RULESET.parse_action({"type": "end_turn", "player": P1}) == A.EndTurn(player=P1)


@pytest.mark.rule("RISK-DIG-55")
def test_public_log_lines() -> None:
    s = position(hands={P1: ["alaska", "venezuela", "peru"]}, armies={"alaska": 6, "kamchatka": 1})
    s, traded = play(s, ("trade", P1, {"cards": ["alaska", "venezuela", "peru"]}))
    s, _ = play(s, ("place", P1, {"territory": "alberta", "count": 4}))
    s, rolled = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), dice=[6, 5, 4, 1])
    s, moved = play(s, ("move", P1, {"count": 3}))
    s, fortified = play(s, ("fortify", P1, {"source": "alberta", "target": "alaska", "count": 2}))
    lines = {e.type: narrate(e, s) for e in [*traded, *rolled, *moved, *fortified]}
    assert all(e.private_to is None for e in [*traded, *rolled, *moved, *fortified])
    assert lines["cards_traded"] is not None and "Alaska, Venezuela, Peru" in lines["cards_traded"]
    assert lines["cards_traded"].startswith("Player1 trades")
    assert lines["battle"] == ("⚔️ Alaska → Kamchatka: the attacker rolls 6-5-4, the defender 1; "
                               "the defender loses 1 army.")
    assert lines["conquered"] == "Player1 conquers Kamchatka from Player3!"
    assert lines["moved"] == "Player1 fortifies Alaska with 2 armies from Alberta."
    assert narrate(moved[0], s) == "Player1 moves 3 armies into Kamchatka."
    # Every battle of an attack-until is logged with its dice.
    u = position(phase=Phase.ATTACK, armies={"alaska": 10, "kamchatka": 2})
    _, events = play(u, ("attack", P1, {"source": "alaska", "target": "kamchatka", "until": "conquer"}),
                     dice=[1, 1, 1, 6, 6, 6, 6, 6, 1, 1])
    battle_lines = [narrate(e, u) for e in of_type(events, "battle")]
    assert battle_lines == [
        "⚔️ Alaska → Kamchatka: the attacker rolls 1-1-1, the defender 6-6; the attacker loses 2 armies.",
        "⚔️ Alaska → Kamchatka: the attacker rolls 6-6-6, the defender 1-1; the defender loses 2 armies.",
    ]
