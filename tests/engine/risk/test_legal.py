"""Risk's choices (autocomplete) and controls (buttons) from the rules (RISK-DIG-1, DIG-10, DIG-11, DIG-20 … 24)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from engine.core.i18n import translate
from engine.core.models import Action, Event, GameState, Seat
from engine.core.play import play_out
from engine.games.risk import RULESET, RiskOptions
from engine.games.risk import events as E
from tests.engine.legality import Fields, accepted, numbers, play_and_check
from tests.engine.risk.helpers import P1, P2, P3, Interrupt, Phase, position


def values(state: object, player: int, field: str, **context: object) -> list[object]:
    return [c.value for c in RULESET.choices(state, player, field, **context)]  # type: ignore[arg-type]


def labels(controls: list) -> list[str]:  # type: ignore[type-arg]
    return [translate(c.label.key, **c.label.params) for c in controls]


@pytest.mark.rule("RISK-DIG-1", "RISK-DIG-21")
def test_attack_targets_follow_the_source_as_the_player_typed_it() -> None:
    s = position(owner={"alaska": P1, "kamchatka": P2, "alberta": P1, "northwest_territory": P1},
                 armies={"alaska": 4, "alberta": 1}, phase=Phase.ATTACK)
    assert "alaska" in values(s, P1, "attack.source") and "alberta" not in values(s, P1, "attack.source")
    assert values(s, P1, "attack.target", source="ALASKA") == ["kamchatka"]
    assert values(s, P1, "attack.target", source="alberta") == [], "one army cannot attack"
    assert values(s, P1, "attack.target", source="nowhere") == [] and values(s, P1, "attack.target") == []
    choice = RULESET.choices(s, P1, "place.territory")[0]
    assert translate(choice.label.key, **choice.label.params) == "Alaska" and "alaska" in choice.aliases


@pytest.mark.rule("RISK-FORT-2", "RISK-FORT-3")
def test_fortify_targets_are_neighbours_or_connected_by_the_mode() -> None:
    owner = {"alaska": P1, "northwest_territory": P1, "alberta": P1, "ontario": P2, "greenland": P1}
    adjacent = position(owner=owner, armies={"alaska": 5}, phase=Phase.FORTIFY)
    connected = position(owner=owner, armies={"alaska": 5}, phase=Phase.FORTIFY, fortify_mode="connected")
    assert values(adjacent, P1, "fortify.target", source="alaska") == ["northwest_territory", "alberta"]
    assert "greenland" in values(connected, P1, "fortify.target", source="alaska")
    assert "ontario" not in values(connected, P1, "fortify.target", source="alaska")


@pytest.mark.rule("RISK-DIG-20", "RISK-DIG-2")
def test_cards_are_offered_to_their_holder_only_and_only_while_a_trade_is_legal() -> None:
    hands = {P1: ["alaska", "venezuela", "peru", "japan"], P2: ["wild_1", "china", "egypt"]}
    s = position(hands=hands, owner={"alaska": P1, "venezuela": P2, "peru": P3}, pool=3)
    assert values(s, P1, "trade.cards") == ["alaska", "venezuela", "peru"], "japan is in no set"
    assert values(s, P2, "trade.cards") == [], "not P2's turn, and never P1's cards"
    assert values(s, P1, "trade.bonus") == ["alaska"]
    attacking = replace(s, phase=Phase.ATTACK, pool=0)
    assert values(attacking, P1, "trade.cards") == [], "no trading in the attack phase"


@pytest.mark.rule("RISK-DIG-23", "RISK-DIG-22")
def test_move_in_and_defence_buttons() -> None:
    occupy = position(phase=Phase.ATTACK, owner={"alaska": P1, "kamchatka": P1}, armies={"alaska": 8, "kamchatka": 0},
                      interrupt=Interrupt(kind="occupy", source="alaska", target="kamchatka", min=3, max=7, dice=3,
                                          defender=P2))
    assert [c.action for c in RULESET.controls(occupy, P1)] == [{"type": "move", "count": 3},
                                                                {"type": "move", "count": 7}]
    assert labels(RULESET.controls(occupy, P1)) == ["Move 3", "Move 7"] and RULESET.controls(occupy, P2) == []
    assert values(occupy, P1, "move.count") == [3, 4, 5, 6, 7]
    defend = position(phase=Phase.ATTACK, owner={"alaska": P1, "kamchatka": P2}, armies={"kamchatka": 1},
                      interrupt=Interrupt(kind="defend", source="alaska", target="kamchatka", dice=3, defender=P2))
    assert [c.action for c in RULESET.controls(defend, P2)] == [{"type": "defend", "dice": 1}], "one army: one die"
    assert RULESET.controls(defend, P1) == [] and RULESET.controls(defend, P3) == []


@pytest.mark.rule("RISK-DIG-21", "RISK-DIG-24")
def test_the_attack_buttons_repeat_the_last_attack_while_it_can_go_on() -> None:
    s = position(phase=Phase.ATTACK, owner={"alaska": P1, "kamchatka": P2}, armies={"alaska": 5})
    battle = E.Battle(player=P1, source="alaska", target="kamchatka", defender=P2, attack_dice=[1, 1, 1],
                      defence_dice=[6, 6], attacker_losses=2, defender_losses=0)
    assert labels(RULESET.controls(s, P1, [battle])) == ["Roll again", "Attack until done", "Stop attacking"]
    assert RULESET.controls(s, P1) == [], "no attack to repeat: the commands remain"
    spent = replace(s, armies=s.armies | {"alaska": 1})
    assert [c.action for c in RULESET.controls(spent, P1, [battle])] == [{"type": "end_attack"}]
    fortify = replace(s, phase=Phase.FORTIFY)
    assert [c.action for c in RULESET.controls(fortify, P1)] == [{"type": "end_turn"}]
    assert RULESET.controls(fortify, P2) == []


def test_an_unknown_field_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        RULESET.choices(position(), P1, "attack.nowhere")


# ---------------------------------------------------------------- held to apply over random games

RISK_IDS = list(RULESET.board.ids)
FIELDS: Fields = {
    "claim": {"territory": {"candidates": RISK_IDS}},
    "place": {"territory": {"candidates": RISK_IDS, "fixed": {"count": 1}}},
    "place_neutral": {"territory": {"candidates": RISK_IDS}},
    "attack": {"source": {"candidates": RISK_IDS, "fixed": {"dice": None, "until": "once", "keep": 1},
                          "free": ("target", RISK_IDS)},
               "target": {"candidates": RISK_IDS, "fixed": {"dice": None, "until": "once", "keep": 1}}},
    "fortify": {"source": {"candidates": RISK_IDS, "fixed": {"count": 1}, "free": ("target", RISK_IDS)},
                "target": {"candidates": RISK_IDS, "fixed": {"count": 1}}},
    "move": {"count": {"candidates": numbers}},
    "defend": {"dice": {"candidates": numbers, "fixed": {"always": False}}},
}


@pytest.mark.parametrize(("options", "players", "seed"), [
    (RiskOptions(), 3, 1),
    (RiskOptions(setup="random_deal", defender_dice="choose", fortify_mode="connected"), 4, 2),
    (RiskOptions(mode="two_player", defender_dice="choose"), 2, 3),
    (RiskOptions(mode="secret_mission", setup_placement="bulk_sequential"), 3, 4),
])
def test_risk_offers_only_what_the_rules_accept(options: RiskOptions, players: int, seed: int) -> None:
    controls, choices = play_and_check("risk", FIELDS, options, players, seed)
    assert controls > 10 and choices > 10, (controls, choices)


def test_the_trade_menu_offers_the_cards_of_a_legal_set_only_while_a_trade_is_legal() -> None:
    risk = RULESET
    seats = [Seat(id=100 + k, name=f"P{k}") for k in range(3)]
    state, _ = risk.new_game(seats, RiskOptions(setup="random_deal"), 5)
    policies = {s.id: risk.policy("baseline") for s in seats}
    tried = 0

    def step(before: GameState, action: Action, after: GameState, events: list[Event]) -> None:
        nonlocal tried
        for seat in seats:
            hand = before.hands.get(seat.id, [])  # type: ignore[attr-defined]
            legal_sets = [c for c in itertools.combinations(hand, 3)
                          if accepted(risk, before, {"type": "trade", "player": seat.id, "cards": list(c)})]
            offered = [c.value for c in risk.choices(before, seat.id, "trade.cards")]
            assert set(offered) == {card for cards in legal_sets for card in cards}, before.seq
            tried += bool(offered)

    play_out(risk, state, policies, 5, max_actions=400, on_step=step)
    assert tried > 3
