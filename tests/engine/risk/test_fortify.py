"""Fortify: one move between own territories, adjacent or connected, ending the turn (RISK-FORT-*)."""

from __future__ import annotations

import pytest

from engine.core.i18n import words
from tests.engine.risk.helpers import NEUTRAL, P1, P2, P3, Phase, of_type, play, position, rejects

# Default 3-player owners (round-robin in table order): P1 holds alaska, alberta, western_united_states,
# irkutsk; P2 holds northwest_territory, ontario, eastern_united_states; P3 holds greenland, kamchatka.


def fortify(source: str, target: str, count: int) -> tuple[str, int, dict[str, object]]:
    return ("fortify", P1, {"source": source, "target": target, "count": count})


@pytest.mark.rule("RISK-FORT-1")
def test_all_but_one_army_may_move() -> None:
    s = position(3, phase=Phase.FORTIFY, armies={"alaska": 5, "alberta": 2})
    s, events = play(s, fortify("alaska", "alberta", 4))
    (moved,) = of_type(events, "moved")
    assert (moved.player, moved.source, moved.target) == (P1, "alaska", "alberta")
    assert (moved.count, moved.kind) == (4, "fortify")
    assert (s.armies["alaska"], s.armies["alberta"]) == (1, 6)


@pytest.mark.rule("RISK-FORT-1")
@pytest.mark.parametrize(("armies", "count"), [(5, 5), (5, 9), (1, 1)])
def test_at_least_one_army_stays_behind(armies: int, count: int) -> None:
    s = position(3, phase=Phase.FORTIFY, armies={"alaska": armies})
    err = rejects(s, fortify("alaska", "alberta", count), "E_LEAVE_ONE")
    assert err.params["max"] == armies - 1


@pytest.mark.rule("RISK-FORT-1")
@pytest.mark.parametrize("count", [0, -1])
def test_at_least_one_army_moves(count: int) -> None:
    s = position(3, phase=Phase.FORTIFY)
    rejects(s, fortify("alaska", "alberta", count), "E_BAD_NUMBER")


@pytest.mark.rule("RISK-FORT-1")
def test_source_and_target_must_differ() -> None:
    s = position(3, phase=Phase.FORTIFY)
    rejects(s, fortify("alaska", "alaska", 1), "E_SAME_TERRITORY")


@pytest.mark.rule("RISK-FORT-1")
def test_both_territories_must_be_owned() -> None:
    s = position(3, phase=Phase.FORTIFY, owner={"alberta": NEUTRAL})
    err = rejects(s, fortify("kamchatka", "alaska", 1), "E_NOT_OWNED")  # from: P3's
    assert err.params["owner"] == s.name(P3)
    err = rejects(s, fortify("alaska", "northwest_territory", 1), "E_NOT_OWNED")  # to: P2's
    assert err.params["owner"] == s.name(P2)
    err = rejects(s, fortify("alaska", "alberta", 1), "E_NOT_OWNED")  # to: Neutral
    assert words(err.params["owner"]) == "Neutral"


@pytest.mark.rule("RISK-FORT-1", "RISK-FORT-4")
def test_only_one_fortify_move_per_turn() -> None:
    s = position(3, phase=Phase.FORTIFY)
    s, _ = play(s, fortify("alaska", "alberta", 1))
    rejects(s, fortify("alberta", "alaska", 1), "E_NOT_YOUR_TURN")
    assert (s.armies["alaska"], s.armies["alberta"]) == (2, 4)


@pytest.mark.rule("RISK-FORT-2")
def test_adjacent_mode_needs_a_common_border() -> None:
    s = position(3, phase=Phase.FORTIFY)
    assert s.options.fortify_mode == "adjacent"  # the default
    # Alaska reaches Western United States through Alberta, but they do not border each other.
    rejects(s, fortify("alaska", "western_united_states", 1), "E_NOT_ADJACENT")
    s, _ = play(s, fortify("alberta", "western_united_states", 2))
    assert (s.armies["alberta"], s.armies["western_united_states"]) == (1, 5)


@pytest.mark.rule("RISK-FORT-2")
def test_adjacent_mode_allows_sea_lanes() -> None:
    s = position(3, phase=Phase.FORTIFY, owner={"kamchatka": P1})
    s, _ = play(s, fortify("kamchatka", "alaska", 2))
    assert (s.armies["kamchatka"], s.armies["alaska"]) == (1, 5)


@pytest.mark.rule("RISK-FORT-3")
def test_connected_mode_moves_along_a_chain_of_own_territories() -> None:
    # Alaska → Alberta → Ontario → Eastern United States, all P1's; Alaska and Eastern US are far apart.
    s = position(3, phase=Phase.FORTIFY, fortify_mode="connected",
                 owner={"ontario": P1, "eastern_united_states": P1, "western_united_states": P2})
    s, events = play(s, fortify("alaska", "eastern_united_states", 2))
    assert (s.armies["alaska"], s.armies["eastern_united_states"]) == (1, 5)
    assert of_type(events, "moved")[0].count == 2
    assert s.current == P2


@pytest.mark.rule("RISK-FORT-3")
@pytest.mark.parametrize("blocker", [P2, P3, NEUTRAL])
def test_connected_mode_is_blocked_by_enemy_and_neutral_territories(blocker: int) -> None:
    # P1 holds Alaska, Alberta and Eastern US; both routes between Alberta and Eastern US
    # (via Ontario or via Western US) pass through a territory P1 does not own.
    owner = {"ontario": blocker, "western_united_states": blocker, "eastern_united_states": P1}
    s = position(3, phase=Phase.FORTIFY, fortify_mode="connected", owner=owner)
    rejects(s, fortify("alaska", "eastern_united_states", 1), "E_NOT_CONNECTED")
    # One owned link restores the route.
    s = position(3, phase=Phase.FORTIFY, fortify_mode="connected", owner=owner | {"ontario": P1})
    s, _ = play(s, fortify("alaska", "eastern_united_states", 1))
    assert s.armies["eastern_united_states"] == 4


@pytest.mark.rule("RISK-FORT-3")
def test_connected_mode_still_checks_ownership_and_the_army_left_behind() -> None:
    s = position(3, phase=Phase.FORTIFY, fortify_mode="connected")
    rejects(s, fortify("alaska", "ontario", 1), "E_NOT_OWNED")
    rejects(s, fortify("alaska", "western_united_states", 3), "E_LEAVE_ONE")


@pytest.mark.rule("RISK-FORT-4")
def test_a_fortify_move_ends_the_turn() -> None:
    s = position(3, phase=Phase.FORTIFY)
    s, events = play(s, fortify("alaska", "alberta", 2))
    assert [e.type for e in events] == ["moved", "turn_started"]
    assert (s.current, s.phase) == (P2, Phase.REINFORCE)
    assert of_type(events, "turn_started")[0].player == P2


@pytest.mark.rule("RISK-FORT-5")
def test_end_turn_ends_the_turn_without_a_move() -> None:
    s = position(3, phase=Phase.FORTIFY)
    before = dict(s.armies)
    s, events = play(s, ("end_turn", P1))
    assert [e.type for e in events] == ["turn_started"]
    assert s.armies == before
    assert (s.current, s.phase) == (P2, Phase.REINFORCE)


@pytest.mark.rule("RISK-FORT-6")
def test_armies_that_conquered_this_turn_may_fortify() -> None:
    s = position(3, armies={"alaska": 6, "kamchatka": 1})
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[6, 6, 6, 1])
    s, _ = play(s, ("move", P1, {"count": 5}))
    assert (s.armies["alaska"], s.armies["kamchatka"]) == (1, 5)
    # The five that just moved in go on to Irkutsk (P1's), leaving one behind.
    s, _ = play(s, fortify("kamchatka", "irkutsk", 4))
    assert (s.armies["kamchatka"], s.armies["irkutsk"]) == (1, 7)
    assert s.current == P2


@pytest.mark.rule("RISK-FORT-6")
def test_armies_placed_this_turn_may_fortify() -> None:
    s = position(3, pool=4, armies={"alaska": 1})
    s, _ = play(s, ("place", P1, {"territory": "alaska", "count": 4}))
    s, _ = play(s, fortify("alaska", "alberta", 4))
    assert (s.armies["alaska"], s.armies["alberta"]) == (1, 7)


@pytest.mark.rule("RISK-FORT-7")
@pytest.mark.parametrize("phase", [Phase.REINFORCE, Phase.FORTIFY])
def test_fortifying_without_attacking(phase: Phase) -> None:
    # Straight from REINFORCE (pool empty), or after end_attack with no attack made.
    s = position(3, phase=phase)
    s, events = play(s, fortify("alaska", "alberta", 2))
    assert of_type(events, "battle") == []
    assert (s.armies["alaska"], s.armies["alberta"]) == (1, 5)
    assert s.current == P2


@pytest.mark.rule("RISK-FORT-7")
def test_fortifying_after_an_attack_that_took_nothing() -> None:
    s = position(3, armies={"alaska": 5, "kamchatka": 3})
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[1, 1, 1, 6, 6])
    assert (s.phase, s.armies["alaska"]) == (Phase.ATTACK, 3)
    s, events = play(s, fortify("alaska", "alberta", 2))
    assert of_type(events, "card_drawn") == []
    assert (s.armies["alaska"], s.armies["alberta"], s.current) == (1, 5, P2)
