"""Digital behaviour: hidden hands, decisions, commands and names, timeouts, narration, dice forcing
(WQ-DIG-1 … DIG-6, WQ-DICE-2, WQ-VAL-0, WQ-PCS-4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.errors import RuleError
from engine.core.views import HIDDEN, SEALED
from engine.games.wizards_quest import RULESET
from engine.games.wizards_quest.actions import ACTION_ADAPTER
from engine.games.wizards_quest.names import matches, parse_placements, resolve
from engine.games.wizards_quest.state import Attack, Phase, Todo, Turn, WQState
from tests.engine.wizards_quest.helpers import P1, P2, P3, of_type, play, position, rejects


@pytest.mark.rule("WQ-DIG-1")
def test_views_show_only_your_own_hand() -> None:
    s = position(3, hands={P1: ["levy-3"], P2: ["muster-1", "plague-1"]}, boats={P3: ["levy-1"]})
    mine, theirs, spectator = RULESET.view(s, P1), RULESET.view(s, P2), RULESET.view(s, None)
    assert mine.hands == {P1: ["levy-3"], P2: [HIDDEN, HIDDEN], P3: []}
    assert theirs.hands == {P1: [HIDDEN], P2: ["muster-1", "plague-1"], P3: []}
    assert spectator.hands == {P1: [HIDDEN], P2: [HIDDEN, HIDDEN], P3: []}
    for v in (mine, theirs, spectator):
        assert v.deck == [HIDDEN] * len(s.deck) and v.rng == SEALED and v.boats[P3] == ["levy-1"]


@pytest.mark.rule("WQ-DIG-2")
def test_only_the_attacker_decides_during_an_attack() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 5, "1.2": 1})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    assert RULESET.pending(s)[0].player == P1 and RULESET.pending(s)[0].kind == "battle"
    s, _ = play(s, ("roll", P1), dice=[6])
    decision = RULESET.pending(s)[0]
    assert (decision.player, decision.kind, decision.detail["max"]) == (P1, "capture", 4)
    assert "1.2" in RULESET.prompt(decision, s) and "{" not in RULESET.prompt(decision, s)


@pytest.mark.rule("WQ-DIG-3")
def test_commands_names_and_legal_targets() -> None:
    for kind in ("castle", "claim", "hide", "place", "buy", "draw", "play", "done", "attack", "free", "aid",
                 "roll", "stop", "cancel", "capture", "region", "mage", "end"):
        assert kind in str(ACTION_ADAPTER.json_schema())
    assert resolve("3-6") == "3.6" and resolve("c7") == "C7" and resolve("west bridge") == "C7"
    assert resolve("NORTH") == "C1" and matches("bridge") == ["C7", "C8"]
    with pytest.raises(RuleError) as info:
        resolve("7.1")
    assert info.value.code == "WQ_VAL_4"
    s = position(2, owner={"1.1": P1, "1.4": P1, "1.2": P2}, men={"1.1": 4}, orcs={"C1": 2}, mage="3.3")
    assert [c.value for c in RULESET.choices(s, P1, "attack.target", source="1.1")] == ["1.2", "C1"]
    assert [c.value for c in RULESET.choices(s, P1, "attack.target", source="1.4")] == ["1.5", "C1"], "3.1 is protected"
    assert [c.value for c in RULESET.choices(s, P1, "attack.source")] == ["1.1", "1.4", "6.6"], "6.6 is the home"
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    assert [c.value for c in RULESET.choices(s, P1, "aid.source")] == ["1.4"]


@pytest.mark.rule("WQ-DIG-5")
def test_timeouts_take_the_least_harmful_legal_action() -> None:
    base = position(2, owner={"1.1": P1, "1.2": P2, "C1": P1}, men={"1.1": 2, "C1": 5})
    cases = [
        (replace(base, phase=Phase.PETITION), "done"),
        (replace(base, phase=Phase.REINFORCE, pool=4), "place"),
        (base, "end"),
        (replace(base, attack=Attack(kind="campaign", source="1.1", target="1.2")), "stop"),
        (replace(base, todo=[Todo(kind="region", beast="dragon")], mage="1.3"), "region"),
        (replace(base, todo=[Todo(kind="ring")]), "mage"),
        (replace(base, phase=Phase.PETITION, todo=[Todo(kind="hand")],
                 hands={P1: ["levy-1", "levy-2", "orcbane-1"], P2: []}), "play"),
    ]
    for state, kind in cases:
        act = RULESET.timeout_action(state, P1)
        assert act.type == kind
        RULESET.apply(state, act)
    assert RULESET.timeout_action(cases[1][0], P1).placements == {"C1": 4}
    assert RULESET.timeout_action(cases[4][0], P1).region == 2
    assert RULESET.timeout_action(cases[5][0], P1).territory is None
    assert RULESET.timeout_action(cases[6][0], P1).card == "orcbane-1"


@pytest.mark.rule("WQ-DIG-6")
def test_every_automated_step_is_narrated_with_its_dice() -> None:
    s = position(2, owner={"1.2": P1, "3.2": P1, "C1": P1}, men={"1.2": 1, "3.2": 2}, orcs={"1.3": 4},
                 current=P2, order=[P1, P2])
    s2, events = play(s, ("end", P2), dice=[2, 2, 1, 1, 6, 3, 2, 4, 4, 2, 5, 3])
    lines = [RULESET.narrate(e, s2) for e in events]
    assert all(line and "{" not in line and not line.startswith("wq.") for line in lines)
    text = "\n".join(str(x) for x in lines)
    assert "2·2" in text and "rolling 6" in text and "3·2" in text and "devours 2 of Player1" in text
    assert "4·2" in text and "Order:" in text
    assert RULESET.narrate(of_type(events, "dragon_landed")[0], s2).endswith("(die 4).")
    board = RULESET.text_board(s2)
    assert "Region 4: Eastvale (protected by the Great Mage)" in board and "1.3: 1 orc\n" in board


@pytest.mark.rule("WQ-DIG-6", "WQ-BOAT-3")
def test_an_attack_across_water_is_narrated_as_by_boat() -> None:
    """Each kind of attack has its own message for the boat case."""
    s = position(2, owner={"1.1": P1, "1.5": P1, "2.3": P2, "1.2": P2}, men={"1.1": 5, "1.5": 5},
                 boats={P1: ["levy-1"]}, hero={P1: "1.1"})

    def declared(state: WQState, act: tuple[str, int, dict[str, object]]) -> str:
        _, events = play(state, act)
        line = RULESET.narrate(of_type(events, "attack_declared")[0], state)
        assert line is not None
        return line

    attack = ("attack", P1, {"source": "1.1", "target": "2.3", "boat": True})
    assert declared(s, attack) == "⚔️ Player1 attacks Player2 at 2.3 by boat from 1.1."
    empty = ("attack", P1, {"source": "1.1", "target": "3.1", "boat": True})
    assert declared(s, empty) == "⚔️ Player1 moves on the empty 3.1 by boat from 1.1."
    beast = ("free", P1, {"source": "1.1", "beast": "dragon", "boat": True})
    assert declared(replace(s, dragon="2.3"), beast) == \
        "⚔️ Player1 attacks the Dragon at 2.3 by boat from 1.1."


@pytest.mark.rule("WQ-DICE-2")
def test_forced_dice_are_used_in_order_and_then_the_seed_takes_over() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 9, "1.2": 9})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    after, events = play(s, ("roll", P1, {"times": 3}), dice=[6, 1], all_dice=False)
    rolls = [b.roll for b in of_type(events, "battle")]
    assert rolls[:2] == [6, 1] and 1 <= rolls[2] <= 6
    again, events2 = play(s, ("roll", P1, {"times": 3}), dice=[6, 1], all_dice=False)
    assert again == after and events2 == events


@pytest.mark.rule("WQ-VAL-0")
def test_a_refusal_changes_nothing() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P2}, turn=Turn(campaigns=0))
    digest = s.digest()
    rejects(s, ("attack", P1, {"source": "1.1", "target": "1.2"}), "WQ_VAL_19")
    assert s.digest() == digest


@pytest.mark.rule("WQ-PCS-4")
def test_orcs_are_unlimited_overall() -> None:
    crowd = {t: 3 for t in RULESET.data.map.territories if t not in ("1.1", "6.6", "5.4", "2.2")}
    s = position(2, owner={"1.1": P1}, orcs=crowd, current=P2, order=[P1, P2])
    assert sum(crowd.values()) > 90
    s, events = play(s, ("end", P2), dice=[1, 2, 1, 3, 6, 2, 5, 5, 5, 5, 6, 1], all_dice=False)
    assert sum(s.orcs.values()) >= sum(crowd.values()) + 2 - 10
    assert of_type(events, "orc_growth")[0].after == 4


@pytest.mark.rule("WQ-DIG-3")
def test_several_placements_are_written_location_colon_count() -> None:
    assert parse_placements("3.2:4 C7:3") == {"3.2": 4, "C7": 3}
    assert parse_placements(" 3-2 = 1, c7:2, 3-2:2 ") == {"3-2": 3, "c7": 2}
    for garbage in ("lots please", "3.2:4 C7", "", "3.2:-1"):
        with pytest.raises(RuleError) as info:
            parse_placements(garbage)
        assert info.value.code == "E_PLACEMENTS" and "3.2:4 C7:3" in info.value.message


@pytest.mark.rule("WQ-DIG-4")
def test_text_board_shows_a_leader_alone_without_a_count_of_no_men() -> None:
    s = position(2, owner={"1.1": P1, "1.2": P1}, men={"1.1": 0, "1.2": 1}, hero={P1: "1.1"})
    board = RULESET.text_board(s).splitlines()
    assert "1.1: Player1 (Hero alone)" in board and "1.2: Player1 1 man" in board
    assert not any("0 men" in line for line in board)
