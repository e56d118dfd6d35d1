"""Scenario tests for victory conditions, secret missions and victory checks (RISK-WIN-1 … WIN-29)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from engine.games.risk import RULESET
from engine.games.risk.mapdata import classic
from engine.games.risk.rules import mission_complete
from engine.games.risk.state import RiskState
from engine.games.risk.view import view
from tests.engine.risk.helpers import (
    IDS,
    NEUTRAL,
    P1,
    P2,
    P3,
    P4,
    P5,
    P6,
    Phase,
    new_with_events,
    of_type,
    play,
    position,
    rejects,
)

BOARD = classic()
PLAYERS = [P1, P2, P3, P4, P5, P6]
NA, SA, EU, AF, AS, AU = (
    list(BOARD.members[c]) for c in ("north_america", "south_america", "europe", "africa", "asia", "australia")
)


def world(p1: Iterable[str], others: tuple[int, ...] = (P2, P3)) -> dict[str, int]:
    """P1 owns `p1`; every other territory goes round-robin to `others` in table order."""
    mine = set(p1)
    rest = [t for t in IDS if t not in mine]
    return {t: P1 for t in mine} | {t: others[k % len(others)] for k, t in enumerate(rest)}


def place_one(s: RiskState, territory: str | None = None) -> tuple[RiskState, list[Any]]:
    """P1 places one reinforcement; any placement triggers a victory check."""
    target = territory or s.territories_of(P1)[0]
    return play(s, ("place", P1, {"territory": target, "count": 1}))


def mission_position(mission: str, p1: Iterable[str], **kwargs: Any) -> RiskState:
    """P1 to place 1 army, holding `mission`; the others hold M05 (never complete here)."""
    missions = {P1: mission, P2: "M05", P3: "M05"}
    kwargs.setdefault("pool", 1)
    return position(mode="secret_mission", missions=missions, owner=world(p1), **kwargs)


def assert_mission(mission: str, p1: Iterable[str], wins: bool, **kwargs: Any) -> None:
    s = mission_position(mission, p1, **kwargs)
    assert mission_complete(BOARD, s, P1) is wins
    after, events = place_one(s)
    if wins:
        assert after.phase is Phase.GAME_OVER and after.winner == P1
        assert [(e.player, e.reason) for e in of_type(events, "game_won")] == [(P1, "mission")]
    else:
        assert after.phase is Phase.REINFORCE and after.winner is None
        assert of_type(events, "game_won") == []


def won(after: RiskState, events: list[Any], pid: int, reason: str) -> None:
    assert after.phase is Phase.GAME_OVER and after.winner == pid
    assert [(e.player, e.reason) for e in of_type(events, "game_won")] == [(pid, reason)]
    assert RULESET.winners(after) == [pid]


def attack(source: str, target: str, player: int = P1) -> tuple[str, int, dict[str, Any]]:
    return ("attack", player, {"source": source, "target": target})


# ---------------------------------------------------------------- winning, mode by mode


@pytest.mark.rule("RISK-WIN-1")
def test_standard_game_is_won_by_taking_the_last_territory() -> None:
    owner = {t: P1 for t in IDS} | {"kamchatka": P3}
    s = position(phase=Phase.ATTACK, owner=owner, armies={"alaska": 8, "kamchatka": 1}, eliminated=(P2,))
    pending, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    assert pending.phase is Phase.ATTACK and of_type(events, "game_won") == []
    after, events = play(pending, ("move", P1, {"count": 3}))
    won(after, events, P1, "last_standing")
    assert len(after.territories_of(P1)) == 42


@pytest.mark.rule("RISK-WIN-1")
def test_standard_game_goes_on_while_another_opponent_remains() -> None:
    owner = {t: P1 for t in IDS} | {"kamchatka": P3, "japan": P2}
    s = position(phase=Phase.ATTACK, owner=owner, armies={"alaska": 4, "kamchatka": 1})
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    assert after.player(P3).status == "eliminated"
    assert after.phase is Phase.ATTACK and after.winner is None and of_type(events, "game_won") == []


@pytest.mark.rule("RISK-WIN-2", "RISK-WIN-20")
def test_a_mission_completed_mid_turn_wins_at_once_and_reveals_the_missions() -> None:
    # M02: North America and Australia. P1 lacks only Central America (P3) at the start of the turn.
    p1 = [t for t in NA + AU if t != "central_america"]
    missions = {P1: "M02", P2: "M05", P3: "M03"}
    owner = world(p1) | {"central_america": P3}
    s = position(mode="secret_mission", missions=missions, owner=owner, phase=Phase.ATTACK,
                 armies={"western_united_states": 4, "central_america": 1})
    assert mission_complete(BOARD, s, P1) is False
    after, events = play(s, attack("western_united_states", "central_america"), dice=[6, 6, 6, 1])
    won(after, events, P1, "mission")
    (game_won,) = of_type(events, "game_won")
    assert game_won.missions == missions
    assert view(after, None).missions == missions


@pytest.mark.rule("RISK-WIN-3")
def test_secret_mission_game_is_also_won_by_eliminating_everyone() -> None:
    # P3 resigned (Neutral land); P2 is down to Kamchatka; P1's M06 is far from done (1 army almost everywhere).
    owner = {t: NEUTRAL for t in IDS[2::3]} | {t: P1 for t in IDS[1::3]} | {t: P1 for t in IDS[0::3]}
    owner["kamchatka"] = P2
    armies = {t: 1 for t in IDS} | {"alaska": 4}
    s = position(mode="secret_mission", missions={P1: "M06", P2: "M05"}, owner=owner, armies=armies,
                 phase=Phase.ATTACK, resigned=(P3,))
    assert mission_complete(BOARD, s, P1) is False
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    won(after, events, P1, "last_standing")
    assert mission_complete(BOARD, after, P1) is False


@pytest.mark.rule("RISK-WIN-4")
def test_two_player_game_is_won_by_eliminating_the_opponent_neutral_remaining() -> None:
    owner = {t: (P1, NEUTRAL)[k % 2] for k, t in enumerate(IDS)} | {"kamchatka": P2, "alaska": P1}
    s = position(2, mode="two_player", owner=owner, armies={"alaska": 4, "kamchatka": 1}, phase=Phase.ATTACK)
    assert s.territories_of(P2) == ["kamchatka"]
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    won(after, events, P1, "last_standing")
    assert len(after.territories_of(NEUTRAL)) == 20


@pytest.mark.rule("RISK-WIN-4")
def test_two_player_game_is_not_won_by_taking_the_last_neutral_territory() -> None:
    owner = {t: (P1, P2)[k % 2] for k, t in enumerate(IDS)} | {"kamchatka": NEUTRAL, "alaska": P1}
    s = position(2, mode="two_player", owner=owner, armies={"alaska": 4, "kamchatka": 1}, phase=Phase.ATTACK)
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    assert after.territories_of(NEUTRAL) == []
    assert after.phase is Phase.ATTACK and after.winner is None and of_type(events, "game_won") == []


@pytest.mark.rule("RISK-WIN-5", "RISK-WIN-26")
@pytest.mark.parametrize("leaver", [P2, P1])
def test_last_real_player_wins_at_once_when_the_other_resigns(leaver: int) -> None:
    s = position(phase=Phase.ATTACK, owner=world(IDS[:20], (P2,)), eliminated=(P3,))
    after, events = play(s, ("resign", leaver))
    winner = P1 if leaver == P2 else P2
    won(after, events, winner, "last_standing")


@pytest.mark.rule("RISK-WIN-5", "RISK-WIN-29")
def test_last_real_player_wins_at_once_when_the_other_is_removed() -> None:
    s = position(phase=Phase.REINFORCE, pool=3, resigned=(P3,),
                 owner={t: NEUTRAL for t in IDS[2::3]})
    after, events = play(s, ("remove", P1, {"target": P2}))
    won(after, events, P1, "last_standing")
    assert after.pool == 3, "the unplaced armies are not a pending decision: the final board shows them"


@pytest.mark.rule("RISK-WIN-5", "RISK-WIN-4")
def test_two_player_opponent_wins_when_a_player_resigns() -> None:
    owner = {t: (P1, P2, NEUTRAL)[k % 3] for k, t in enumerate(IDS)}
    s = position(2, mode="two_player", owner=owner, phase=Phase.ATTACK)
    after, events = play(s, ("resign", P1))
    won(after, events, P2, "last_standing")


@pytest.mark.rule("RISK-WIN-5")
def test_secret_mission_last_player_standing_after_resignation_wins() -> None:
    s = position(mode="secret_mission", missions={P1: "M01", P2: "M02", P3: "M04"}, phase=Phase.ATTACK,
                 owner=world(IDS[:20], (P2,)), eliminated=(P3,))
    after, events = play(s, ("resign", P2))
    won(after, events, P1, "last_standing")


# ---------------------------------------------------------------- the mission cards


@pytest.mark.rule("RISK-WIN-6")
def test_m01_north_america_and_africa() -> None:
    assert_mission("M01", NA + AF, True)
    assert_mission("M01", NA + AF[:-1], False)
    assert_mission("M01", NA[1:] + AF, False)


@pytest.mark.rule("RISK-WIN-7")
def test_m02_north_america_and_australia() -> None:
    assert_mission("M02", NA + AU, True)
    assert_mission("M02", NA + AU[:-1], False)
    assert_mission("M02", NA + AF, False)


@pytest.mark.rule("RISK-WIN-8")
def test_m03_asia_and_south_america() -> None:
    assert_mission("M03", AS + SA, True)
    assert_mission("M03", AS[:-1] + SA, False)
    assert_mission("M03", AS + SA[:-1], False)


@pytest.mark.rule("RISK-WIN-9")
def test_m04_asia_and_africa() -> None:
    assert_mission("M04", AS + AF, True)
    assert_mission("M04", AS + AF[1:], False)
    assert_mission("M04", AS + SA, False)


@pytest.mark.rule("RISK-WIN-10")
def test_m05_twenty_four_territories_with_any_armies() -> None:
    assert_mission("M05", IDS[:24], True, armies={t: 1 for t in IDS})
    assert_mission("M05", IDS[:23], False)
    assert_mission("M05", IDS[:30], True)


@pytest.mark.rule("RISK-WIN-11")
def test_m06_eighteen_territories_with_two_armies_each() -> None:
    ones = {t: 1 for t in IDS}
    assert_mission("M06", IDS[:18], True)  # 3 armies each
    assert_mission("M06", IDS[:17], False)
    # 22 territories, only 17 with 2 armies: not enough; 18 with 2 and the rest with 1: enough
    assert_mission("M06", IDS[:22], False, armies=ones | {t: 2 for t in IDS[:17]})
    assert_mission("M06", IDS[:22], True, armies=ones | {t: 2 for t in IDS[4:22]})


def destroy(target_seat: int, **options: Any) -> tuple[RiskState, RiskState, list[Any], int]:
    """Six players; the next seat after the target eliminates it, holding that colour's destroy mission."""
    target, hunter = PLAYERS[target_seat], PLAYERS[(target_seat + 1) % 6]
    others = tuple(p for p in PLAYERS if p != target)
    owner = {t: others[k % 5] for k, t in enumerate(IDS)} | {"kamchatka": target, "alaska": hunter}
    missions = {p: "M05" for p in PLAYERS} | {hunter: f"M{7 + target_seat:02d}"}
    s = position(6, mode="secret_mission", missions=missions, owner=owner, current=hunter, phase=Phase.ATTACK,
                 armies={"alaska": 4, "kamchatka": 1}, **options)
    assert mission_complete(BOARD, s, hunter) is False
    after, events = play(s, attack("alaska", "kamchatka", hunter), dice=[6, 6, 6, 1])
    assert after.player(target).status == "eliminated"
    return s, after, events, hunter


@pytest.mark.rule("RISK-WIN-12", "RISK-WIN-13", "RISK-WIN-14", "RISK-WIN-15", "RISK-WIN-16", "RISK-WIN-17")
@pytest.mark.parametrize(("seat", "colour"), list(enumerate(["red", "blue", "green", "yellow", "black", "pink"])))
def test_destroy_missions_complete_when_that_colour_is_eliminated(seat: int, colour: str) -> None:
    s, after, events, hunter = destroy(seat)
    assert s.players[seat].colour == colour
    assert BOARD.mission[f"M{7 + seat:02d}"].destroy == colour
    won(after, events, hunter, "mission")


@pytest.mark.rule("RISK-WIN-18")
def test_m13_europe_south_america_and_any_third_continent() -> None:
    assert_mission("M13", EU + SA + AU, True, mission_set="euro14")
    assert_mission("M13", EU + SA + NA, True, mission_set="euro14")
    assert_mission("M13", EU + SA + AF[:-1], False, mission_set="euro14")
    assert_mission("M13", EU + SA, False, mission_set="euro14")
    assert_mission("M13", EU + AU + AF, False, mission_set="euro14")


@pytest.mark.rule("RISK-WIN-19")
def test_m14_europe_australia_and_any_third_continent() -> None:
    assert_mission("M14", EU + AU + SA, True, mission_set="euro14")
    assert_mission("M14", EU + AU + AS, True, mission_set="euro14")
    assert_mission("M14", EU + AU, False, mission_set="euro14")
    assert_mission("M14", EU + SA + AF, False, mission_set="euro14")


@pytest.mark.rule("RISK-WIN-18", "RISK-WIN-19")
def test_euro14_missions_are_dealt_only_with_that_option() -> None:
    dealt_us: set[str] = set()
    dealt_euro: set[str] = set()
    for seed in range(1, 60):
        for mission_set, dealt in (("us12", dealt_us), ("euro14", dealt_euro)):
            _, events = new_with_events(6, seed, mode="secret_mission", mission_set=mission_set)
            dealt |= {e.replaced or e.mission for e in of_type(events, "mission_dealt")}
    assert not dealt_us & {"M13", "M14"}
    assert {"M13", "M14"} <= dealt_euro


@pytest.mark.rule("RISK-WIN-20")
def test_a_mission_continent_counts_only_if_held_at_the_check() -> None:
    # Held at the start of this turn does not matter: Egypt has since been lost.
    assert_mission("M01", [t for t in NA + AF if t != "egypt"], False)
    # Completed during the turn counts at once (no wait for the next turn start).
    p1 = [t for t in NA + AF if t != "egypt"] + ["southern_europe"]
    s = mission_position("M01", p1, phase=Phase.ATTACK, armies={"southern_europe": 3, "egypt": 1}, pool=0)
    after, events = play(s, attack("southern_europe", "egypt"), dice=[6, 6, 1])
    won(after, events, P1, "mission")
    assert after.turn == s.turn


# ---------------------------------------------------------------- dealing the destroy missions


@pytest.mark.rule("RISK-WIN-21")
@pytest.mark.parametrize(("players", "absent"), [(3, {"M10", "M11", "M12"}), (4, {"M11", "M12"}), (5, {"M12"})])
def test_destroy_missions_of_unseated_colours_are_never_dealt(players: int, absent: set[str]) -> None:
    dealt: set[str] = set()
    for seed in range(1, 80):
        state, events = new_with_events(players, seed, mode="secret_mission")
        assert [p.colour for p in state.players] == BOARD.colours[:players]
        dealt |= {e.replaced or e.mission for e in of_type(events, "mission_dealt")}
    assert not dealt & absent
    seated = {f"M{7 + k:02d}" for k in range(players)}
    assert seated <= dealt, "the seated colours' destroy missions are in the pool"


@pytest.mark.rule("RISK-WIN-22")
def test_own_colour_destroy_mission_becomes_m05_privately() -> None:
    replaced = 0
    for seed in range(1, 120):
        state, events = new_with_events(6, seed, mode="secret_mission")
        for e in of_type(events, "mission_dealt"):
            assert e.private_to is not None
            colour = state.player(e.private_to).colour
            if e.replaced is not None:
                replaced += 1
                assert BOARD.mission[e.replaced].destroy == colour
                assert e.mission == "M05" and state.missions[e.private_to] == "M05"
            else:
                assert BOARD.mission[e.mission].destroy != colour
                assert state.missions[e.private_to] == e.mission
    assert replaced > 0, "some seed deals a player their own colour"


# ---------------------------------------------------------------- destroy missions during play


def blue_falls(destroy_rule: str = "anyone", p1_mission: str = "M01", p3_mission: str = "M08") -> RiskState:
    """P1 to attack Blue's (P2's) last territory, Northwest Territory, from Alaska."""
    owner = world(IDS[:20], (P3,)) | {"northwest_territory": P2, "alaska": P1}
    return position(mode="secret_mission", missions={P1: p1_mission, P2: "M05", P3: p3_mission}, owner=owner,
                    phase=Phase.ATTACK, armies={"alaska": 4, "northwest_territory": 1}, destroy_rule=destroy_rule)


@pytest.mark.rule("RISK-WIN-23")
def test_anyone_eliminating_the_target_completes_the_destroy_mission() -> None:
    s = blue_falls()
    after, events = play(s, attack("alaska", "northwest_territory"), dice=[6, 6, 6, 1])
    assert [e.player for e in of_type(events, "eliminated")] == [P2]
    won(after, events, P3, "mission")
    assert after.current == P1, "P3 wins during P1's turn"


@pytest.mark.rule("RISK-WIN-24")
def test_convert_24_turns_the_mission_into_m05_when_someone_else_eliminates() -> None:
    s = blue_falls("convert_24")
    after, events = play(s, attack("alaska", "northwest_territory"), dice=[6, 6, 6, 1])
    assert after.phase is Phase.ATTACK and after.winner is None
    assert after.missions[P3] == "M05"
    changed = of_type(events, "mission_changed")
    assert [(e.private_to, e.mission, e.previous, e.reason) for e in changed] == [
        (P3, "M05", "M08", "target_eliminated_by_other")
    ]
    assert all(e.private_to == P3 for e in changed)


@pytest.mark.rule("RISK-WIN-24")
def test_convert_24_holder_eliminating_the_target_still_wins() -> None:
    s = blue_falls("convert_24", p1_mission="M08", p3_mission="M01")
    after, events = play(s, attack("alaska", "northwest_territory"), dice=[6, 6, 6, 1])
    won(after, events, P1, "mission")
    assert of_type(events, "mission_changed") == []


@pytest.mark.rule("RISK-WIN-25")
@pytest.mark.parametrize("destroy_rule", ["anyone", "convert_24"])
@pytest.mark.parametrize("leave", ["resign", "remove"])
def test_target_leaving_turns_the_destroy_mission_into_m05(destroy_rule: str, leave: str) -> None:
    s = blue_falls(destroy_rule)
    act = ("resign", P2) if leave == "resign" else ("remove", P1, {"target": P2})
    after, events = play(s, act)
    assert after.missions[P3] == "M05"
    changed = of_type(events, "mission_changed")
    assert [(e.private_to, e.mission, e.previous, e.reason) for e in changed] == [(P3, "M05", "M08", "target_left")]
    assert after.phase is Phase.ATTACK and after.winner is None  # P3 holds only 22 territories


@pytest.mark.rule("RISK-WIN-25", "RISK-WIN-26", "RISK-WIN-28")
def test_a_converted_mission_already_fulfilled_wins_at_the_resignation() -> None:
    owner = world(IDS[:12], (P3,)) | {"northwest_territory": P2, "alaska": P1}
    assert sum(1 for o in owner.values() if o == P3) >= 24
    s = position(mode="secret_mission", missions={P1: "M01", P2: "M05", P3: "M08"}, owner=owner,
                 phase=Phase.ATTACK)
    after, events = play(s, ("resign", P2))
    won(after, events, P3, "mission")


# ---------------------------------------------------------------- when the checks happen


def m06_position(**kwargs: Any) -> RiskState:
    """P1 (M06) owns 20 territories: 17 with 2+ armies, Alaska, Alberta and Venezuela with 1."""
    p1 = list(IDS[0::3]) + list(IDS[1::3])[:6]
    armies = {t: 2 for t in p1} | {"alaska": 1, "alberta": 1, "venezuela": 1, "western_united_states": 3}
    armies |= kwargs.pop("armies", {})
    missions = {P1: "M06", P2: "M05", P3: "M05"}
    return position(mode="secret_mission", missions=missions, owner=world(p1), armies=armies, **kwargs)


@pytest.mark.rule("RISK-WIN-26")
def test_checked_after_a_placement() -> None:
    s = m06_position(pool=2)
    after, events = place_one(s, "peru")
    assert after.phase is Phase.REINFORCE and of_type(events, "game_won") == []
    after, events = place_one(after, "venezuela")
    won(after, events, P1, "mission")
    assert after.pool == 0


@pytest.mark.rule("RISK-WIN-26")
def test_checked_after_a_trade() -> None:
    s = m06_position(hands={P1: ["alaska", "peru", "iceland"]})
    after, events = play(s, ("trade", P1, {"cards": ["alaska", "peru", "iceland"]}))
    assert [e.bonus_territory for e in of_type(events, "cards_traded")] == ["alaska"]
    won(after, events, P1, "mission")


@pytest.mark.rule("RISK-WIN-26")
def test_checked_after_a_fortify() -> None:
    s = m06_position(phase=Phase.ATTACK)
    after, events = play(s, ("fortify", P1, {"source": "western_united_states", "target": "alberta", "count": 1}))
    won(after, events, P1, "mission")
    assert after.current == P1 and of_type(events, "turn_started") == []


@pytest.mark.rule("RISK-WIN-26", "RISK-WIN-27")
def test_checked_after_a_conquest_move() -> None:
    # M05: P1 has 23 territories and takes a 24th.
    p1 = list(IDS[0::3]) + [t for t in IDS[1::3] if t != "northwest_territory"][:9]
    s = position(mode="secret_mission", missions={P1: "M05", P2: "M05", P3: "M05"}, owner=world(p1),
                 phase=Phase.ATTACK, armies={"alaska": 8, "kamchatka": 1})
    assert len(s.territories_of(P1)) == 23 and s.owner["kamchatka"] != P1
    pending, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    assert len(pending.territories_of(P1)) == 24
    assert pending.phase is Phase.ATTACK and pending.winner is None, "no check while the move-in is pending"
    assert of_type(events, "game_won") == []
    assert pending.interrupt is not None and pending.interrupt.kind == "occupy"
    after, events = play(pending, ("move", P1, {"count": 4}))
    won(after, events, P1, "mission")
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (4, 4)


@pytest.mark.rule("RISK-WIN-27")
def test_an_automatic_move_in_counts_as_made_at_once() -> None:
    p1 = list(IDS[0::3]) + [t for t in IDS[1::3] if t != "northwest_territory"][:9]
    s = position(mode="secret_mission", missions={P1: "M05", P2: "M05", P3: "M05"}, owner=world(p1),
                 phase=Phase.ATTACK, armies={"alaska": 4, "kamchatka": 1})
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    won(after, events, P1, "mission")
    assert (after.armies["alaska"], after.armies["kamchatka"]) == (1, 3)


@pytest.mark.rule("RISK-WIN-27")
def test_last_territory_with_move_in_pending_is_not_yet_a_win() -> None:
    owner = {t: P1 for t in IDS} | {"kamchatka": P3}
    s = position(phase=Phase.ATTACK, owner=owner, armies={"alaska": 10, "kamchatka": 1}, eliminated=(P2,))
    pending, _ = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    assert pending.phase is Phase.ATTACK and pending.winner is None
    assert pending.player(P3).status == "active"
    assert [d.kind for d in RULESET.pending(pending)] == ["occupy"]


@pytest.mark.rule("RISK-WIN-28")
def test_the_active_player_wins_a_tie() -> None:
    # P1 (M05, 23 territories) takes Blue's last territory: P1's M05 and P3's M08 complete together.
    p1 = [*IDS[0::3], *[t for t in IDS[1::3] if t != "northwest_territory"][:9]]
    owner = world(p1, (P3,)) | {"northwest_territory": P2}
    s = position(mode="secret_mission", missions={P1: "M05", P2: "M05", P3: "M08"}, owner=owner,
                 phase=Phase.ATTACK, armies={"alaska": 4, "northwest_territory": 1})
    after, events = play(s, attack("alaska", "northwest_territory"), dice=[6, 6, 6, 1])
    assert mission_complete(BOARD, after, P3) is True
    won(after, events, P1, "mission")


@pytest.mark.rule("RISK-WIN-28")
def test_missions_are_checked_in_seat_order_from_the_active_player() -> None:
    # Contrived to isolate the order: P1 and P3 both hold M10 (destroy Yellow), P2 eliminates Yellow (P4).
    # From P2 the order is P2, P3, P4, P1, so P3 wins although P1 sits first at the table.
    owner = {t: (P1, P2, P3)[k % 3] for k, t in enumerate(IDS)} | {"kamchatka": P4, "alaska": P2}
    s = position(4, mode="secret_mission", missions={P1: "M10", P2: "M01", P3: "M10", P4: "M05"}, owner=owner,
                 current=P2, phase=Phase.ATTACK, armies={"alaska": 4, "kamchatka": 1})
    after, events = play(s, attack("alaska", "kamchatka", P2), dice=[6, 6, 6, 1])
    won(after, events, P3, "mission")


@pytest.mark.rule("RISK-WIN-29")
def test_victory_ends_the_game_at_once_discarding_pending_steps() -> None:
    owner = {t: P1 for t in IDS} | {"kamchatka": P3}
    hands = {P1: ["peru", "iceland", "ontario"], P3: ["ukraine", "madagascar", "yakutsk", "china"]}
    s = position(phase=Phase.ATTACK, owner=owner, armies={"alaska": 4, "kamchatka": 1}, eliminated=(P2,),
                 hands=hands, conquered=True)
    after, events = play(s, attack("alaska", "kamchatka"), dice=[6, 6, 6, 1])
    won(after, events, P1, "last_standing")
    assert after.interrupt is None, "no elimination trade after the game is won"
    assert of_type(events, "card_drawn") == [] and after.deck == s.deck
    assert after.hands[P1] == ["peru", "iceland", "ontario"]
    assert RULESET.pending(after) == []
    for act in [("end_turn", P1), ("resign", P1), ("trade", P1, {"cards": ["peru", "iceland", "ontario"]}),
                ("remove", P1, {"target": P1})]:
        err = rejects(after, act, "E_GAME_OVER")
        assert "Player1" in err.message


@pytest.mark.rule("RISK-WIN-29", "RISK-WIN-26")
@pytest.mark.parametrize("command", [("place", P1, {"territory": "alaska", "count": 1}),
                                     ("deploy", P1, {"placements": {"alaska": 1, "alberta": 1}})])
def test_a_placement_that_wins_keeps_the_armies_left_to_place(command: tuple[Any, ...]) -> None:
    # Alaska's second army makes 18 territories with 2 or more (M06); 2 of the 3 armies are still unplaced.
    after, events = play(m06_position(pool=3), command)
    won(after, events, P1, "mission")
    assert [(e.territory, e.count) for e in of_type(events, "placed")] == [("alaska", 1)]
    assert (after.pool, after.armies["alaska"], after.armies["alberta"]) == (2, 2, 1)
    assert RULESET.pending(after) == []


@pytest.mark.rule("RISK-WIN-29")
def test_a_mission_win_with_a_defence_prompt_open_drops_the_prompt() -> None:
    # P2 resigns while defending; P3's M08 (destroy Blue) turns into M05, which P3 already fulfils.
    owner = world(IDS[:12], (P3,)) | {"northwest_territory": P2, "alaska": P1}
    s = position(mode="secret_mission", missions={P1: "M01", P2: "M05", P3: "M08"}, owner=owner,
                 phase=Phase.ATTACK, armies={"alaska": 5, "northwest_territory": 3}, defender_dice="choose")
    s, _ = play(s, attack("alaska", "northwest_territory"))
    assert s.interrupt is not None and s.interrupt.kind == "defend"
    after, events = play(s, ("resign", P2), dice=[6, 6, 6, 1, 1])
    won(after, events, P3, "mission")
    assert after.interrupt is None and RULESET.pending(after) == []
