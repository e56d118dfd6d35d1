"""The round as one state machine (BM-RND-1 … 4): whole games through `apply`, every decision answered by the
absent player's stand-in, from setup to the round cap."""

from __future__ import annotations

import pytest

from engine.core.models import Seat, from_json, to_json
from engine.games.battlemist import ruleset
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMOptions, BMState, Phase


def seats(n: int) -> list[Seat]:
    return [Seat(id=k, name=f"P{k}") for k in range(1, n + 1)]


def play_out(state: BMState, limit: int = 5000) -> tuple[BMState, list[str]]:
    """Every pending decision answered by its seat's stand-in until the game ends; the events' types in order."""
    told: list[str] = []
    for _ in range(limit):
        if state.phase is Phase.GAME_OVER:
            return state, told
        decisions = ruleset.pending(state)
        assert decisions, f"nobody can act in {state.phase} of round {state.round}"
        before = to_json(state)
        state, events = apply(state, ruleset.timeout_action(state, decisions[0].player))
        assert to_json(from_json(BMState, to_json(state))) == to_json(state)
        assert before != to_json(state)
        told += [e.type for e in events]
    raise AssertionError("the game did not end")


@pytest.mark.rule("BM-RND-1", "BM-RND-3", "BM-VIC-3", "BM-SIM-5", "BM-DIG-19")
@pytest.mark.parametrize("players", [2, 4, 6])
def test_stand_ins_play_every_step_of_every_round_to_the_round_cap(players: int) -> None:
    state, opening = ruleset.new_game(seats(players), BMOptions(round_cap=2), seed=players)
    assert state.round == 1 and state.phase is not Phase.GAME_OVER
    end, told = play_out(state)
    told = [e.type for e in opening] + told
    assert end.phase is Phase.GAME_OVER and end.round == 2 and end.winners
    steps = ["round_begun", "stars_refilled", "harvested", "initiative_set", "turn_started", "quest_step_ended",
             "movement_started", "movement_ended", "combat_step_begun", "combat_step_ended", "upkeep_paid",
             "round_ended", "round_begun"]
    first = [t for t in told if t in steps]
    assert first[:2] == ["round_begun", "stars_refilled"] and first.count("round_begun") == 2
    assert [t for t in dict.fromkeys(first)] == steps[:-1]  # every step, first met in the order of BM-RND-3
    assert first.count("turn_started") == 2 * players and told[-1] == "game_won"


@pytest.mark.rule("BM-A-28", "BM-INI-2")
def test_each_player_takes_quest_movement_and_combat_in_initiative_order() -> None:
    state, _ = ruleset.new_game(seats(3), BMOptions(round_cap=1), seed=11)
    turns: list[int] = []
    order: list[int] = []
    while state.phase is not Phase.GAME_OVER:
        decision = ruleset.pending(state)[0]
        state, events = apply(state, ruleset.timeout_action(state, decision.player))
        turns += [e.player for e in events if e.type == "turn_started"]
        order += [p for e in events if e.type == "initiative_set" for p in e.order]
    assert turns == order and sorted(turns) == [1, 2, 3]


def test_a_player_who_leaves_is_skipped_and_the_last_one_left_wins() -> None:
    from engine.core.turns import Resign

    state, _ = ruleset.new_game(seats(3), BMOptions(round_cap=2), seed=5)
    state, _ = apply(state, Resign(player=2))
    assert state.player(2).status == "resigned" and not any(2 in here for here in state.troops.values())
    assert all(d.player != 2 for d in ruleset.pending(state))
    state, _ = apply(state, Resign(player=3))
    assert state.phase is Phase.GAME_OVER and state.winners == [1]


@pytest.mark.rule("BM-DIG-1", "BM-DIG-5")
def test_a_view_hides_hands_quests_decks_and_dice() -> None:
    state, _ = ruleset.new_game(seats(3), BMOptions(), seed=3)
    seen = ruleset.view(state, 1)
    assert seen.hands[1] == state.hands[1] and set(seen.hands[2]) <= {"hidden"}
    assert seen.quests[1] == state.quests[1] and seen.quests[2] == "hidden"
    assert set(seen.deck) == {"hidden"} and set(seen.quest_deck) == {"hidden"} and seen.rng != state.rng
    assert len(seen.deck) == len(state.deck)


def test_a_defender_who_leaves_mid_battle_ends_it_and_the_attacker_holds_the_region() -> None:
    from engine.core.turns import Resign
    from tests.engine.battlemist.combat_kit import combat

    state, _ = combat({"N05": {1: {"infantry": 3}, 2: {"infantry": 2}}}, races=("DAQ", "ORC", "ELF"))
    assert state.combat.battle is not None
    state, events = apply(state, Resign(player=2))
    assert state.combat.battle is None and state.combat.done and state.controller("N05") == 1
    assert state.units("N05", 1).infantry == 3 and "player_left" in [e.type for e in events]
