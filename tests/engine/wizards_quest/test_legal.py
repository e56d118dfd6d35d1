"""Wizard's Quest's choices (autocomplete) and controls (buttons) from the rules (WQ-DIG-1, WQ-DIG-3)."""

from __future__ import annotations

import pytest

from engine.core.i18n import translate
from engine.games.wizards_quest import RULESET
from engine.games.wizards_quest.state import Attack, Phase, Todo, Treasure, WQOptions
from tests.engine.legality import Fields, play_and_check
from tests.engine.wizards_quest.helpers import P1, P2, play, position


def values(state: object, player: int, field: str, **context: object) -> list[object]:
    return [c.value for c in RULESET.choices(state, player, field, **context)]  # type: ignore[arg-type]


def actions(state: object, player: int) -> list[dict[str, object]]:
    return [c.action for c in RULESET.controls(state, player)]  # type: ignore[arg-type]


@pytest.mark.rule("WQ-DIG-3")
def test_typed_context_picks_the_list_and_a_card_is_offered_to_its_holder_only() -> None:
    s = position(2, owner={"1.1": P1, "1.4": P1, "1.2": P2}, men={"1.1": 4}, orcs={"C1": 2}, mage="3.3",
                 phase=Phase.PETITION, hands={P1: ["orcbane-2"], P2: ["levy-3"]})
    assert values(s, P1, "attack.target", source="1-1") == ["1.2", "C1"], "typed as the player wrote it"
    assert values(s, P1, "attack.target", source="?") == []
    assert values(s, P1, "play.card") == ["orcbane-2"] and values(s, P2, "play.card") == ["levy-3"]
    assert values(s, P1, "play.location", card="orcbane-2") == ["C1"], "Orcbane targets orcs"
    assert values(s, P2, "play.location", card="orcbane-2") == [], "not P2's card"
    card = RULESET.choices(s, P1, "play.card")[0]
    assert translate(card.label.key, **card.label.params).startswith("Orcbane")


@pytest.mark.rule("WQ-SET-7")
def test_treasures_to_hide_and_where() -> None:
    s = position(2, phase=Phase.SETUP_HIDE, owner={"1.1": P2},
                 treasures=[Treasure(owner=P2, kind="crown", hider=P1), Treasure(owner=P1, kind="ring", hider=P2)])
    assert values(s, P1, "hide.treasure") == [f"{P2}:crown"] and values(s, P2, "hide.treasure") == [f"{P1}:ring"]
    spots = values(s, P1, "hide.territory", treasure=f"{P2}:crown")
    assert "1.1" not in spots and "1.2" in spots, "never on its owner's territory"


@pytest.mark.rule("WQ-DIG-3", "WQ-AID-1")
def test_battle_buttons_and_the_aid_menu() -> None:
    s = position(2, owner={"1.1": P1, "1.4": P1, "1.2": P2}, men={"1.1": 5, "1.4": 3, "1.2": 1})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    controls = RULESET.controls(s, P1)
    assert [c.action for c in controls[:5]] == [{"type": "roll"}, {"type": "roll", "times": 3},
                                                {"type": "roll", "times": 0},
                                                {"type": "roll", "times": 0, "until_below": 3}, {"type": "cancel"}]
    menu = controls[-1]
    assert [o.action for o in menu.options] == [{"type": "aid", "source": "1.4", "count": 2}], "one man stays"
    assert RULESET.controls(s, P2) == [], "only the attacker decides"


@pytest.mark.rule("WQ-CAP-1")
def test_capture_buttons_go_with_the_pieces_that_may_move() -> None:
    s = position(2, owner={"3.1": P1}, men={"3.1": 3}, hero={P1: "3.1"},
                 attack=Attack(kind="campaign", source="3.1", target="3.2", empty_start=True),
                 todo=[Todo(kind="capture")])
    assert actions(s, P1)[:4] == [{"type": "capture", "count": 1}, {"type": "capture", "count": 3},
                                  {"type": "capture", "count": 3, "leader": True}, {"type": "cancel"}]
    region = position(2, todo=[Todo(kind="region", beast="dragon")])
    assert actions(region, P1) == [{"type": "region", "region": r} for r in range(1, 7)]


# ---------------------------------------------------------------- held to apply over random games

WQ_IDS = list(RULESET.data.map.ids)
FIELDS: Fields = {
    "castle": {"castle": {"candidates": WQ_IDS}},
    "claim": {"territory": {"candidates": WQ_IDS}},
    "buy": {"location": {"candidates": WQ_IDS}},
    "attack": {"source": {"candidates": WQ_IDS, "free": ("target", WQ_IDS)},
               "target": {"candidates": WQ_IDS}},
    "free": {"source": {"candidates": WQ_IDS}},
    "aid": {"source": {"candidates": WQ_IDS, "fixed": {"count": 1}}},
    "mage": {"territory": {"candidates": WQ_IDS}},
}


@pytest.mark.parametrize(("options", "players", "seed"), [
    (WQOptions(), 3, 1), (WQOptions(decoy=True, turn_order="fixed"), 4, 2), (WQOptions(), 2, 3),
])
def test_wizards_quest_offers_only_what_the_rules_accept(options: WQOptions, players: int, seed: int) -> None:
    controls, choices = play_and_check("wizards_quest", FIELDS, options, players, seed)
    assert controls > 10 and choices > 10, (controls, choices)
