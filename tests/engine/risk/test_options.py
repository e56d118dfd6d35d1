"""Game options: RISK-OPT-1 … OPT-11 (defaults, accepted values, validation, behaviour)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from pydantic import ValidationError

from engine.core.models import from_json, json_text
from engine.games.risk import RULESET, RiskOptions, RiskState
from engine.games.risk.state import NEUTRAL, Phase
from tests.engine.risk.helpers import (
    IDS,
    P1,
    P2,
    P3,
    new,
    new_with_events,
    of_type,
    play,
    position,
    rejects,
)

DEFAULTS: dict[str, Any] = {
    "mode": "standard",
    "setup": "claim",
    "setup_placement": "one_at_a_time",
    "fortify_mode": "adjacent",
    "defender_dice": "auto_max",
    "mission_set": "us12",
    "destroy_rule": "anyone",
    "turn_timer_hours": 24.0,
    "defender_timeout_minutes": 60.0,
    "absent_after": 2,
    "timeout_action": "ai",
}


def accepted(field: str, values: list[Any]) -> None:
    for value in values:
        assert getattr(RiskOptions(**{field: value}), field) == value


def refused(field: str, values: list[Any]) -> None:
    for value in values:
        with pytest.raises(ValidationError):
            RiskOptions(**{field: value})


@pytest.mark.rule("RISK-OPT-1", "RISK-OPT-2", "RISK-OPT-3", "RISK-OPT-4", "RISK-OPT-5", "RISK-OPT-6", "RISK-OPT-7",
                  "RISK-OPT-8", "RISK-OPT-9", "RISK-OPT-10", "RISK-OPT-11")
def test_defaults_give_the_classic_async_game() -> None:
    opts = RiskOptions()
    assert {k: getattr(opts, k) for k in DEFAULTS} == DEFAULTS
    # The defaults are what a fresh game stores.
    assert new(3, seed=1).options == opts
    with pytest.raises(ValidationError):
        RiskOptions(no_such_option=1)  # type: ignore[call-arg]


# ---------------------------------------------------------------- OPT-1 mode


@pytest.mark.rule("RISK-OPT-1")
def test_mode_values() -> None:
    accepted("mode", ["standard", "secret_mission", "two_player"])
    refused("mode", ["classic", "Standard", "", None, 2])


@pytest.mark.rule("RISK-OPT-1")
def test_mode_changes_the_game() -> None:
    standard = new(3, seed=5)
    assert standard.missions == {}
    assert NEUTRAL not in standard.setup_left
    mission = new(3, seed=5, mode="secret_mission")
    assert set(mission.missions) == {P1, P2, P3}
    two = new(2, seed=5, mode="two_player")
    assert two.phase is Phase.SETUP_PLACE_2P
    assert sum(1 for o in two.owner.values() if o == NEUTRAL) == 14
    assert two.missions == {}


# ---------------------------------------------------------------- OPT-2 setup


@pytest.mark.rule("RISK-OPT-2")
def test_setup_values() -> None:
    accepted("setup", ["claim", "random_deal"])
    refused("setup", ["deal", "random", None])


@pytest.mark.rule("RISK-OPT-2")
def test_claim_starts_with_an_empty_map_and_random_deal_deals_everything() -> None:
    claim = new(3, seed=2)
    assert claim.phase is Phase.SETUP_CLAIM
    assert claim.owner == {}
    deal = new(3, seed=2, setup="random_deal")
    assert deal.phase is Phase.SETUP_PLACE
    assert set(deal.owner) == set(IDS)
    assert {p: sum(1 for o in deal.owner.values() if o == p) for p in (P1, P2, P3)} == {P1: 14, P2: 14, P3: 14}


@pytest.mark.rule("RISK-OPT-2")
def test_secret_mission_and_two_player_always_deal_even_with_setup_claim() -> None:
    mission = new(4, seed=2, mode="secret_mission", setup="claim")
    assert mission.phase is Phase.SETUP_PLACE
    assert set(mission.owner) == set(IDS)
    two = new(2, seed=2, mode="two_player", setup="claim")
    assert two.phase is Phase.SETUP_PLACE_2P
    assert set(two.owner) == set(IDS)


# ---------------------------------------------------------------- OPT-3 setup_placement


def dealt(placement: str) -> RiskState:
    return new(3, seed=4, setup="random_deal", setup_placement=placement)


@pytest.mark.rule("RISK-OPT-3")
def test_setup_placement_values() -> None:
    accepted("setup_placement", ["one_at_a_time", "bulk_sequential", "simultaneous"])
    refused("setup_placement", ["bulk", "all_at_once", None])


@pytest.mark.rule("RISK-OPT-3")
def test_one_at_a_time_places_a_single_army_per_setup_turn() -> None:
    s = dealt("one_at_a_time")
    me = s.current
    mine = s.territories_of(me)[0]
    rejects(s, ("place", me, {"territory": mine, "count": 2}), "E_TOO_MANY_TO_PLACE")
    rejects(s, ("deploy", me, {"placements": {mine: 1}}), "E_WRONG_PHASE")
    after, _ = play(s, ("place", me, {"territory": mine}))
    assert after.armies[mine] == 2
    assert after.current != me


@pytest.mark.rule("RISK-OPT-3")
def test_bulk_sequential_places_everything_in_one_setup_turn() -> None:
    s = dealt("bulk_sequential")
    me = s.current
    left = s.setup_left[me]
    a, b = s.territories_of(me)[:2]
    after, _ = play(s, ("deploy", me, {"placements": {a: left - 1, b: 1}}))
    assert after.armies[a] == left and after.armies[b] == 2
    assert after.setup_left[me] == 0
    assert after.current != me


@pytest.mark.rule("RISK-OPT-3")
def test_placement_variants_also_follow_a_claim_but_claiming_stays_one_at_a_time() -> None:
    s = new(3, seed=1, setup_placement="bulk_sequential")
    assert s.phase is Phase.SETUP_CLAIM and s.current == P1
    rejects(s, ("deploy", P1, {"placements": {"alaska": 1}}), "E_WRONG_PHASE")
    rejects(s, ("place", P1, {"territory": "alaska", "count": 2}), "E_TOO_MANY_TO_PLACE")
    order = [P1, P2, P3]
    for k, t in enumerate(IDS):
        s, _ = play(s, ("claim", order[k % 3], {"territory": t}))
    assert s.phase is Phase.SETUP_PLACE and s.current == P1
    after, _ = play(s, ("deploy", P1, {"placements": {"alaska": s.setup_left[P1]}}))
    assert after.armies["alaska"] == 35 - 13
    assert after.setup_left[P1] == 0 and after.current == P2


@pytest.mark.rule("RISK-OPT-3")
def test_simultaneous_takes_secret_plans_from_everyone_at_once() -> None:
    s = dealt("simultaneous")
    waiting = {d.player for d in RULESET.pending(s)}
    assert waiting == {P1, P2, P3}
    not_current = next(p for p in (P1, P2, P3) if p != s.current)
    mine = s.territories_of(not_current)[0]
    after, events = play(s, ("deploy", not_current, {"placements": {mine: s.setup_left[not_current]}}))
    assert of_type(events, "plan_submitted")[0].player == not_current
    assert after.armies[mine] == 1  # hidden until everyone is in
    assert {d.player for d in RULESET.pending(after)} == {P1, P2, P3} - {not_current}


# ---------------------------------------------------------------- OPT-4 fortify_mode


def fortify_position(**options: Any) -> RiskState:
    owner = {"alaska": P1, "alberta": P1, "ontario": P1, "northwest_territory": P2, "western_united_states": P2,
             "greenland": P1, "quebec": P2, "eastern_united_states": P2, "kamchatka": P2}
    return position(owner=owner, armies={"alaska": 6}, phase=Phase.FORTIFY, **options)


@pytest.mark.rule("RISK-OPT-4")
def test_fortify_mode_values() -> None:
    accepted("fortify_mode", ["adjacent", "connected"])
    refused("fortify_mode", ["any", "path", None])


@pytest.mark.rule("RISK-OPT-4")
def test_adjacent_fortify_refuses_a_connected_but_distant_target() -> None:
    s = fortify_position()
    rejects(s, ("fortify", P1, {"source": "alaska", "target": "ontario", "count": 3}), "E_NOT_ADJACENT")
    after, _ = play(s, ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 3}))
    assert (after.armies["alaska"], after.armies["alberta"]) == (3, 6)


@pytest.mark.rule("RISK-OPT-4")
def test_connected_fortify_moves_along_own_territories_only() -> None:
    s = fortify_position(fortify_mode="connected")
    after, _ = play(s, ("fortify", P1, {"source": "alaska", "target": "ontario", "count": 3}))
    assert (after.armies["alaska"], after.armies["ontario"]) == (3, 6)
    assert after.current == P2
    # Greenland is P1's but only reachable through Ontario → Greenland; cut Ontario and the path is blocked.
    cut = replace(s, owner={**s.owner, "ontario": P2})
    rejects(cut, ("fortify", P1, {"source": "alaska", "target": "greenland", "count": 3}), "E_NOT_CONNECTED")


# ---------------------------------------------------------------- OPT-5 defender_dice


def attack_position(**options: Any) -> RiskState:
    return position(owner={"alaska": P1, "kamchatka": P2}, armies={"alaska": 5, "kamchatka": 4},
                    phase=Phase.ATTACK, **options)


@pytest.mark.rule("RISK-OPT-5")
def test_defender_dice_values() -> None:
    accepted("defender_dice", ["auto_max", "choose"])
    refused("defender_dice", ["max", "ask", None])


@pytest.mark.rule("RISK-OPT-5")
def test_auto_max_rolls_two_defence_dice_at_once() -> None:
    after, events = play(attack_position(), ("attack", P1, {"source": "alaska", "target": "kamchatka"}),
                         dice=[6, 6, 6, 1, 1])
    battle = of_type(events, "battle")[0]
    assert battle.defence_dice == [1, 1]
    assert after.interrupt is None
    assert after.armies["kamchatka"] == 2


@pytest.mark.rule("RISK-OPT-5")
def test_choose_asks_the_defender_first() -> None:
    after, events = play(attack_position(defender_dice="choose"),
                         ("attack", P1, {"source": "alaska", "target": "kamchatka"}))
    assert of_type(events, "battle") == []
    assert after.interrupt is not None and after.interrupt.kind == "defend"
    assert [(d.player, d.kind) for d in RULESET.pending(after)] == [(P2, "defend")]
    done, events = play(after, ("defend", P2, {"dice": 1}), dice=[6, 6, 6, 1])
    battle = of_type(events, "battle")[0]
    assert battle.defence_dice == [1]
    assert done.armies["kamchatka"] == 3


# ---------------------------------------------------------------- OPT-6 mission_set


@pytest.mark.rule("RISK-OPT-6")
def test_mission_set_values() -> None:
    accepted("mission_set", ["us12", "euro14"])
    refused("mission_set", ["us", "euro", None])


@pytest.mark.rule("RISK-OPT-6")
def test_only_euro14_deals_the_two_european_missions() -> None:
    def dealt_missions(mission_set: str) -> set[str]:
        found: set[str] = set()
        for seed in range(40):
            _, events = new_with_events(6, seed=seed, mode="secret_mission", mission_set=mission_set)
            found |= {e.replaced or e.mission for e in of_type(events, "mission_dealt")}
        return found

    us = dealt_missions("us12")
    euro = dealt_missions("euro14")
    assert not us & {"M13", "M14"}
    assert us == {f"M{k:02d}" for k in range(1, 13)}
    assert euro == {f"M{k:02d}" for k in range(1, 15)}


# ---------------------------------------------------------------- OPT-7 destroy_rule


def green_about_to_fall(**options: Any) -> RiskState:
    """P3 (Green) holds only Kamchatka; P1 attacks it; P2 holds the 'destroy Green' mission (M09)."""
    owner = {t: (P1 if k % 2 == 0 else P2) for k, t in enumerate(IDS)}
    owner.update({"alaska": P1, "kamchatka": P3})
    return position(owner=owner, armies={"alaska": 5, "kamchatka": 1}, phase=Phase.ATTACK,
                    mode="secret_mission", missions={P1: "M01", P2: "M09", P3: "M05"}, **options)


@pytest.mark.rule("RISK-OPT-7")
def test_destroy_rule_values() -> None:
    accepted("destroy_rule", ["anyone", "convert_24"])
    refused("destroy_rule", ["any", "24", None])


@pytest.mark.rule("RISK-OPT-7")
def test_anyone_completes_a_destroy_mission_when_another_player_eliminates_the_target() -> None:
    s = green_about_to_fall()
    assert s.player(P3).colour == "green"
    after, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), dice=[6, 6, 6, 1])
    after, events = play(after, ("move", P1, {"count": 3}))
    assert of_type(events, "eliminated")[0].player == P3
    won = of_type(events, "game_won")
    assert won and won[0].player == P2 and won[0].reason == "mission"
    assert after.phase is Phase.GAME_OVER and after.winner == P2


@pytest.mark.rule("RISK-OPT-7")
def test_convert_24_turns_the_destroy_mission_into_24_territories() -> None:
    s = green_about_to_fall(destroy_rule="convert_24")
    after, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}), dice=[6, 6, 6, 1])
    after, events = play(after, ("move", P1, {"count": 3}))
    assert of_type(events, "eliminated")[0].player == P3
    assert of_type(events, "game_won") == []
    changed = of_type(events, "mission_changed")
    assert [(e.private_to, e.previous, e.mission) for e in changed] == [(P2, "M09", "M05")]
    assert after.missions[P2] == "M05"
    assert after.phase is not Phase.GAME_OVER


# ---------------------------------------------------------------- OPT-8 … OPT-11 timers (enforced by the bot)


@pytest.mark.rule("RISK-OPT-8")
def test_turn_timer_is_a_positive_duration_or_off() -> None:
    accepted("turn_timer_hours", [None, 0.05, 1.0, 24.0, 168.0])
    refused("turn_timer_hours", [0, -1, 168.5, "soon"])
    s = new(3, seed=1, turn_timer_hours=5 / 60)
    assert s.options.turn_timer_hours == pytest.approx(5 / 60)
    assert new(3, seed=1, turn_timer_hours=None).options.turn_timer_hours is None


@pytest.mark.rule("RISK-OPT-9")
def test_defender_timeout_is_a_bounded_positive_duration() -> None:
    accepted("defender_timeout_minutes", [1.0, 60.0, 1440.0])
    refused("defender_timeout_minutes", [0, -5, 1441, None])
    s = new(3, seed=1, defender_dice="choose", defender_timeout_minutes=1.0)
    assert s.options.defender_timeout_minutes == 1.0


@pytest.mark.rule("RISK-OPT-10")
def test_absent_after_counts_whole_turns_within_bounds() -> None:
    accepted("absent_after", [1, 2, 10])
    refused("absent_after", [0, -1, 11, 1.5, None])
    assert new(3, seed=1, absent_after=3).options.absent_after == 3


@pytest.mark.rule("RISK-OPT-11")
def test_timeout_action_is_ai_or_skip() -> None:
    accepted("timeout_action", ["ai", "skip"])
    refused("timeout_action", ["pass", "kick", None])
    assert new(3, seed=1, timeout_action="skip").options.timeout_action == "skip"


@pytest.mark.rule("RISK-OPT-8", "RISK-OPT-9", "RISK-OPT-10", "RISK-OPT-11")
def test_timer_options_are_stored_with_the_game_and_survive_a_save() -> None:
    s = new(3, seed=1, turn_timer_hours=0.5, defender_timeout_minutes=1.0, absent_after=4, timeout_action="skip")
    loaded = from_json(RiskState, json.loads(json_text(s)))
    assert loaded.options == s.options
    assert (loaded.options.turn_timer_hours, loaded.options.defender_timeout_minutes,
            loaded.options.absent_after, loaded.options.timeout_action) == (0.5, 1.0, 4, "skip")
    with pytest.raises(ValidationError):
        s.options.absent_after = 5  # type: ignore[misc]  # options are frozen once the game exists
