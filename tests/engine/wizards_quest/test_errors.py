"""Every refusal (WQ-VAL-*): its code, its complete message, an unchanged state (WQ-VAL-0), in WQ-VAL-ORDER."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from engine.core.i18n import LOCALES_DIR
from engine.games.wizards_quest.state import Attack, Phase, Todo, Turn, WQState
from tests.engine.wizards_quest.helpers import P1, P2, P3, new, play, position, rejects

CATALOGUE = json.loads((LOCALES_DIR / "en" / "wizards_quest.json").read_text(encoding="utf-8"))


def attack(**kw: Any) -> WQState:
    owner = {"1.1": P1, "1.4": P1, "1.2": P2, "C1": P1}
    owner.update(kw.pop("owner", {}))
    return position(2, owner=owner, **kw)


def setup_at(phase: Phase) -> WQState:
    s = new(2, seed=1)
    while s.phase is not phase:
        from engine.games.wizards_quest import RULESET

        s, _ = play(s, RULESET.timeout_action(s, s.current))
    return s


def over() -> WQState:
    s = attack(men={"1.1": 5, "1.2": 1}, homes=False)
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1), dice=[6])
    return s


Case = tuple[str, Callable[[], WQState], tuple[Any, ...], str | None]
CASES: list[Case] = [
    ("WQ_VAL_40", over, ("end", P1), "won in round 1"),
    ("WQ_VAL_1_SEAT", attack, ("end", 999), None),
    ("WQ_VAL_1_OUT", lambda: position(3, eliminated=(P3,)), ("end", P3), "You are out of this game"),
    ("WQ_VAL_1", attack, ("end", P2), "Player1's turn (Attack)"),
    ("WQ_VAL_2", attack, ("draw", P1), "You can't draw a Petition card during the Attack step."),
    ("WQ_VAL_3", lambda: attack(todo=[Todo(kind="region", beast="dragon")]), ("end", P1), "choose the region"),
    ("WQ_VAL_4", attack, ("attack", P1, {"source": "9.9", "target": "1.2"}), "'9.9' isn't a location"),
    ("WQ_AMBIGUOUS", attack, ("attack", P1, {"source": "bridge", "target": "1.2"}), "West Bridge Keep"),
    ("WQ_BAD_NUMBER", lambda: attack(phase=Phase.REINFORCE, pool=3), ("place", P1, {"placements": {"1.1": 0}}),
     None),
    ("WQ_VAL_5_TAKEN", lambda: replace(setup_at(Phase.SETUP_CASTLE), owner={"C1": P2}),
     ("castle", 0, {"castle": "C1"}), "C1 Northwatch is already taken."),
    ("WQ_VAL_5_NOT", lambda: setup_at(Phase.SETUP_CASTLE), ("castle", 0, {"castle": "1.1"}), "1.1 is not a castle."),
    ("WQ_VAL_6", lambda: setup_at(Phase.SETUP_CLAIM), ("claim", 0, {"territory": "C1"}), None),
    ("WQ_VAL_7", lambda: setup_at(Phase.SETUP_HIDE), ("hide", 0, {"owner": 0, "treasure": "crown",
                                                                  "territory": "1.1"}), None),
    ("WQ_VAL_9", lambda: attack(phase=Phase.PETITION, turn=Turn(drawn=True)), ("draw", P1), "one draw per turn"),
    ("WQ_VAL_10", lambda: attack(phase=Phase.PETITION, deck=[]), ("draw", P1), "exhausted"),
    ("WQ_VAL_11", lambda: attack(phase=Phase.PETITION), ("play", P1, {"card": "levy"}), None),
    ("WQ_VAL_11_STEP", attack, ("play", P1, {"card": "levy"}), "only be played in your Petition step"),
    ("WQ_VAL_12", lambda: attack(phase=Phase.PETITION, hands={P1: ["levy-1", "levy-2", "levy-3"]},
                                 todo=[Todo(kind="hand")]), ("done", P1), "Play one of them now"),
    ("WQ_VAL_13_TARGET", lambda: attack(phase=Phase.PETITION, hands={P1: ["dragon_lure-1"]}),
     ("play", P1, {"card": "lure"}), "Dragon Lure: choose a target"),
    ("WQ_VAL_13_ORCS", lambda: attack(phase=Phase.PETITION, hands={P1: ["orcbane-1"]}, orcs={"2.2": 1}),
     ("play", P1, {"card": "orcbane", "location": "2.1"}), "Orcbane: 2.1 holds no orcs."),
    ("WQ_VAL_13_CASTLE", lambda: attack(phase=Phase.PETITION, hands={P1: ["wizards_summons-1"]}),
     ("play", P1, {"card": "summons", "location": "C2"}), None),
    ("WQ_VAL_13_PROTECTED", lambda: attack(phase=Phase.PETITION, hands={P1: ["dragon_lure-1"]}, mage="4.1"),
     ("play", P1, {"card": "lure", "location": "4.4"}),
     "Dragon Lure: Region 4 (Eastvale) is protected by the Great Mage."),
    ("WQ_VAL_13_MARCH_OWN", lambda: attack(phase=Phase.PETITION, hands={P1: ["forced_march-1"]}),
     ("play", P1, {"card": "march", "location": "1.1", "to": "1.2", "count": 1}), None),
    ("WQ_VAL_13_MARCH_PATH", lambda: attack(phase=Phase.PETITION, hands={P1: ["forced_march-1"]}),
     ("play", P1, {"card": "march", "location": "1.1", "to": "6.6", "count": 1}), None),
    ("WQ_VAL_13_MARCH_COUNT", lambda: attack(phase=Phase.PETITION, hands={P1: ["forced_march-1"]}),
     ("play", P1, {"card": "march", "location": "1.1", "to": "1.4", "count": 3}), None),
    ("WQ_VAL_13_MARCH_LEADER", lambda: attack(phase=Phase.PETITION, hands={P1: ["forced_march-1"]}),
     ("play", P1, {"card": "march", "location": "1.1", "to": "1.4", "count": 1, "leader": "hero"}), None),
    ("WQ_VAL_13_MARCH_SHARE", lambda: attack(phase=Phase.PETITION, hands={P1: ["forced_march-1"]},
                                             hero={P1: "1.1"}, sorcerer={P1: "1.4"}),
     ("play", P1, {"card": "march", "location": "1.1", "to": "1.4", "count": 0, "leader": "hero"}), None),
    ("WQ_VAL_14", lambda: attack(phase=Phase.REINFORCE, pool=3), ("place", P1, {"placements": {"1.2": 1}}),
     None),
    ("WQ_VAL_15", lambda: attack(phase=Phase.REINFORCE, pool=3), ("place", P1, {"placements": {"1.1": 4}}),
     "only have 3 men"),
    ("WQ_VAL_16", lambda: attack(phase=Phase.REINFORCE, pool=3), ("done", P1), "Place all 3 remaining men"),
    ("WQ_VAL_17_ON_BOARD", lambda: attack(phase=Phase.REINFORCE, pool=3, hero={P1: "1.4"}),
     ("buy", P1, {"leader": "hero", "location": "1.1"}), "Your Hero is already on the board."),
    ("WQ_VAL_17_COST", lambda: attack(phase=Phase.REINFORCE, pool=1),
     ("buy", P1, {"leader": "sorcerer", "location": "1.1"}), "A Sorcerer costs 2 men; you have 1 left."),
    ("WQ_VAL_17_SHARE", lambda: attack(phase=Phase.REINFORCE, pool=3, hero={P1: "1.1"}),
     ("buy", P1, {"leader": "sorcerer", "location": "1.1"}), None),
    ("WQ_VAL_18", lambda: attack(attack=Attack(kind="campaign", source="1.1", target="1.2")), ("end", P1), None),
    ("WQ_VAL_19", lambda: attack(turn=Turn(campaigns=0)), ("attack", P1, {"source": "1.1", "target": "1.2"}),
     None),
    ("WQ_VAL_20", lambda: attack(turn=Turn(truce=True)), ("attack", P1, {"source": "1.1", "target": "1.2"}), None),
    ("WQ_VAL_21", attack, ("attack", P1, {"source": "1.3", "target": "1.2"}), "You don't occupy 1.3."),
    ("WQ_VAL_22", attack, ("attack", P1, {"source": "1.1", "target": "1.4"}), "You already occupy 1.4."),
    ("WQ_VAL_23", attack, ("attack", P1, {"source": "1.4", "target": "1.6"}), "1.6 is not adjacent to 1.4."),
    ("WQ_VAL_23_BOAT", attack, ("attack", P1, {"source": "1.1", "target": "2.2"}),
     "A Boat Privilege could cross the Sea."),
    ("WQ_VAL_24_NONE", attack, ("attack", P1, {"source": "1.1", "target": "2.2", "boat": True}), None),
    ("WQ_VAL_24_WATER", lambda: attack(boats={P1: ["levy-1"]}),
     ("attack", P1, {"source": "1.1", "target": "4.2", "boat": True}), "don't border the same water"),
    ("WQ_VAL_24_HERE", lambda: attack(boats={P1: ["levy-1"]}, dragon="1.1", hero={P1: "1.1"}),
     ("free", P1, {"source": "1.1", "beast": "dragon", "boat": True}), "no water to cross"),
    ("WQ_VAL_25", lambda: attack(mage="1.3"), ("attack", P1, {"source": "1.1", "target": "1.2"}),
     "Region 1 (Frostmarch) is protected"),
    ("WQ_VAL_26", lambda: attack(hero={P2: "1.2"}), ("attack", P1, {"source": "1.1", "target": "1.2"}), None),
    ("WQ_VAL_27", lambda: attack(dragon="1.2", hero={P1: "1.1"}),
     ("attack", P1, {"source": "1.1", "target": "1.2"}), "Drive it out with a free attack"),
    ("WQ_VAL_28", lambda: attack(dragon="1.2"), ("free", P1, {"source": "1.1", "beast": "dragon"}), None),
    ("WQ_VAL_29", lambda: attack(mage="1.2", hero={P1: "1.1"}), ("free", P1, {"source": "1.1", "beast": "mage"}),
     None),
    ("WQ_VAL_30_ABSENT", attack, ("free", P1, {"source": "1.1", "beast": "dragon"}), "not on the board"),
    ("WQ_VAL_30_ALONE", lambda: attack(dragon="2.2", owner={"2.1": P1}),
     ("free", P1, {"source": "2.1", "beast": "dragon"}), "alone in 2.2"),
    ("WQ_VAL_30_ELSEWHERE", lambda: attack(dragon="1.4", hero={P1: "1.1"}),
     ("free", P1, {"source": "1.1", "beast": "dragon"}), None),
    ("WQ_VAL_31", lambda: attack(attack=Attack(kind="free", source="1.1", target="1.2", beast="dragon", wounds=3)),
     ("aid", P1, {"source": "1.4", "count": 1}), None),
    ("WQ_VAL_32_ABSENT", attack, ("attack", P1, {"source": "1.1", "target": "1.2", "leader": "hero"}),
     "Your Hero is not on the board."),
    ("WQ_VAL_32_EMPTY", lambda: attack(hero={P1: "1.4"}, men={"1.4": 0}),
     ("attack", P1, {"source": "1.1", "target": "1.2", "leader": "hero"}), "would leave 1.4 empty"),
    ("WQ_VAL_33_ADJ", lambda: attack(attack=Attack(kind="campaign", source="1.1", target="1.2"),
                                     owner={"1.6": P1}), ("aid", P1, {"source": "1.6", "count": 1}), None),
    ("WQ_VAL_33_STAY", lambda: attack(attack=Attack(kind="campaign", source="1.1", target="1.2")),
     ("aid", P1, {"source": "1.4", "count": 3}), "At least 1 piece must stay in 1.4."),
    ("WQ_VAL_33_LEADER", lambda: attack(attack=Attack(kind="campaign", source="1.1", target="1.2"),
                                        hero={P1: "1.4"}), ("aid", P1, {"source": "1.4", "count": 4}), None),
    ("WQ_VAL_34", lambda: attack(attack=Attack(kind="campaign", source="1.1", target="1.2"), men={"1.1": 1}),
     ("roll", P1), "has only 1 piece"),
    ("WQ_VAL_35", attack, ("stop", P1), None),
    ("WQ_VAL_36", lambda: attack(attack=Attack(kind="campaign", source="1.1", target="1.3", empty_start=True),
                                 todo=[Todo(kind="capture")]), ("capture", P1, {"count": 3}),
     "Move between 1 and 2 pieces into 1.3"),
    ("WQ_VAL_36_LEADER", lambda: attack(attack=Attack(kind="campaign", source="1.1", target="1.3",
                                                      empty_start=True), todo=[Todo(kind="capture")]),
     ("capture", P1, {"count": 1, "leader": True}), "no leader in 1.1"),
    ("WQ_VAL_38", lambda: attack(todo=[Todo(kind="region", beast="mage")]), ("region", P1, {"region": 7}), None),
    ("WQ_VAL_39", lambda: attack(todo=[Todo(kind="ring")]), ("mage", P1, {"territory": "C1"}), None),
    ("WQ_VAL_8_CASTLE", lambda: setup_at(Phase.SETUP_HIDE), ("hide", 0, {"owner": 0, "treasure": "crown",
                                                                         "territory": "C1"}), None),
    ("WQ_VAL_8_OWNER", lambda: setup_at(Phase.SETUP_HIDE), ("hide", 0, {"owner": 0, "treasure": "crown",
                                                                        "territory": "own"}), "their treasure"),
    ("WQ_VAL_8_TAKEN", lambda: setup_at(Phase.SETUP_HIDE), ("hide", 0, {"owner": 0, "treasure": "crown",
                                                                        "territory": "taken"}), "already holds"),
]


def concrete(state: WQState, act: tuple[Any, ...]) -> tuple[Any, ...]:
    """Fill the setup cases' placeholders: the seat to act, the treasure they hide, a fitting territory."""
    if act[1] != 0:
        return act
    fields = dict(act[2])
    if act[0] == "hide":
        t = next(t for t in state.treasures if t.hider == state.current and t.location is None)
        fields.update(owner=t.owner, treasure=t.kind)
        if fields["territory"] == "own":
            fields["territory"] = next(x for x, o in state.owner.items() if o == t.owner and "." in x)
        if fields["territory"] == "taken":
            fields["territory"] = "1.1"
        if "treasure" in fields and act[2]["territory"] == "1.1":
            fields["treasure"] = "ring" if t.kind != "ring" else "crown"
            fields["owner"] = state.current
    return (act[0], state.current, fields)


@pytest.mark.rule(
    "WQ-VAL-1", "WQ-VAL-2", "WQ-VAL-3", "WQ-VAL-4", "WQ-VAL-5", "WQ-VAL-6", "WQ-VAL-7", "WQ-VAL-8",
    "WQ-VAL-9", "WQ-VAL-10", "WQ-VAL-11", "WQ-VAL-12", "WQ-VAL-13", "WQ-VAL-14", "WQ-VAL-15", "WQ-VAL-16",
    "WQ-VAL-17", "WQ-VAL-18", "WQ-VAL-19", "WQ-VAL-20", "WQ-VAL-21", "WQ-VAL-22", "WQ-VAL-23", "WQ-VAL-24",
    "WQ-VAL-25", "WQ-VAL-26", "WQ-VAL-27", "WQ-VAL-28", "WQ-VAL-29", "WQ-VAL-30", "WQ-VAL-31", "WQ-VAL-32",
    "WQ-VAL-33", "WQ-VAL-34", "WQ-VAL-35", "WQ-VAL-36", "WQ-VAL-38", "WQ-VAL-39", "WQ-VAL-40",
)
@pytest.mark.parametrize(("code", "build", "act", "text"), CASES, ids=[c[0] for c in CASES])
def test_refusal(code: str, build: Callable[[], WQState], act: tuple[Any, ...], text: str | None) -> None:
    state = build()
    if code == "WQ_VAL_8_TAKEN":
        state = replace(state, treasures=[
            replace(t, location="1.1") if k == 0 else t for k, t in enumerate(state.treasures)])
        first = state.treasures[0]
        state = replace(state, owner={k: v for k, v in state.owner.items() if k != "1.1"},
                        treasures=[replace(first, hider=P3), *state.treasures[1:]])
    error = rejects(state, concrete(state, act), code)
    if text is not None:
        assert text in error.message, error.message


def test_every_catalogued_refusal_is_tested() -> None:
    codes = {k for k in CATALOGUE if k.startswith("WQ_")}
    assert codes == {c[0] for c in CASES}


@pytest.mark.rule("WQ-VAL-37")
def test_no_extra_campaign_can_start_before_the_first_is_finished() -> None:
    s = attack(men={"1.1": 5}, turn=Turn(campaigns=2))
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    rejects(s, ("attack", P1, {"source": "1.4", "target": "1.2"}), "WQ_VAL_18")


@pytest.mark.rule("WQ-VAL-3")
def test_empty_start_capture_still_allows_aid_and_cancel_but_not_a_roll() -> None:
    s = position(2, owner={"1.1": P1}, men={"1.1": 1})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    rejects(s, ("roll", P1), "WQ_VAL_3")
    s, _ = play(s, ("cancel", P1))
    assert s.attack is None and not s.todo and s.turn.campaigns == 1
