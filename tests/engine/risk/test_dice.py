"""The dice of a battle round: fair tables, one draw per round from schema 2, one per die in schema 1 games."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from engine.core.errors import RuleError
from engine.core.models import Seat, to_json
from engine.core.record import GameRecord, replay
from engine.core.rng import Rng
from engine.games.risk import RULESET, RiskOptions
from engine.games.risk.dice import resolve, table
from engine.games.risk.state import RiskState
from tests.engine.risk.helpers import P1, Phase, of_type, play, position


def chances(attack: int, defence: int) -> dict[tuple[int, int], Fraction]:
    outcomes, size = table(attack, defence)
    counts: dict[tuple[int, int], int] = {}
    for _, _, att_loss, def_loss in outcomes:
        counts[att_loss, def_loss] = counts.get((att_loss, def_loss), 0) + 1
    return {k: Fraction(v, size) for k, v in counts.items()}


@pytest.mark.rule("RISK-ATK-13", "RISK-ATK-14", "RISK-ATK-15", "RISK-ATK-16")
def test_round_tables_give_the_classic_odds() -> None:
    assert chances(3, 2) == {(0, 2): Fraction(2890, 7776), (1, 1): Fraction(2611, 7776),
                             (2, 0): Fraction(2275, 7776)}
    assert chances(2, 2) == {(0, 2): Fraction(295, 1296), (1, 1): Fraction(420, 1296), (2, 0): Fraction(581, 1296)}
    assert chances(1, 1) == {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)}
    assert chances(3, 1)[0, 1] == Fraction(855, 1296)
    assert chances(2, 1)[0, 1] == Fraction(125, 216)
    assert chances(1, 2)[0, 1] == Fraction(55, 216)


def test_every_table_lists_each_combination_of_faces_once_in_draw_order() -> None:
    for attack, defence in ((a, d) for a in (1, 2, 3) for d in (1, 2)):
        outcomes, size = table(attack, defence)
        assert size == len(outcomes) == 6 ** (attack + defence)
        for index in random.Random(attack * 10 + defence).sample(range(size), min(size, 200)):
            faces = [index // 6 ** k % 6 + 1 for k in reversed(range(attack + defence))]
            assert outcomes[index] == resolve(faces, attack)


def battle_of(state: RiskState) -> tuple[RiskState, list[int], list[int]]:
    after, events = play(state, ("attack", P1, {"source": "alaska", "target": "kamchatka", "dice": 3}))
    (battle,) = of_type(events, "battle")
    return after, battle.attack_dice, battle.defence_dice


@pytest.mark.rule("RISK-GEN-3", "RISK-ATK-11")
def test_from_schema_2_a_round_takes_one_draw_and_reads_its_faces_attacker_first() -> None:
    s = position(phase=Phase.ATTACK, armies={"alaska": 6, "kamchatka": 4})
    assert s.schema_version == 2
    rng = Rng(s.rng)
    index = rng.below(6 ** 5)
    faces = [index // 6 ** k % 6 + 1 for k in reversed(range(5))]
    after, att, dfn = battle_of(s)
    assert (att, dfn) == (sorted(faces[:3], reverse=True), sorted(faces[3:], reverse=True))
    assert after.rng == rng.export()


@pytest.mark.rule("RISK-GEN-3")
def test_a_schema_1_game_keeps_rolling_one_draw_per_die() -> None:
    s = replace(position(phase=Phase.ATTACK, armies={"alaska": 6, "kamchatka": 4}), schema_version=1)
    rng = Rng(s.rng)
    faces = rng.dice(5)
    after, att, dfn = battle_of(s)
    assert (att, dfn) == (sorted(faces[:3], reverse=True), sorted(faces[3:], reverse=True))
    assert after.rng == rng.export()
    assert after.schema_version == 1


def random_game(record: GameRecord, steps: int) -> tuple[RiskState, GameRecord]:
    state, _ = replay(RULESET, record)
    policy = RULESET.policy("random")
    rng = random.Random(record.seed)
    actions = []
    for _ in range(steps):
        if RULESET.winners(state) is not None:
            break
        action = policy.choose(state, RULESET.pending(state)[0].player, rng)
        state, _ = RULESET.apply(state, action)
        actions.append(to_json(action))
    assert isinstance(state, RiskState)
    return state, record.model_copy(update={"actions": actions})


@pytest.mark.rule("RISK-GEN-3")
def test_a_record_replays_under_the_schema_it_was_made_with() -> None:
    seats = [Seat(id=10 + i, name=f"P{i}") for i in range(4)]
    old = GameRecord(game="risk", seed=5, options=RiskOptions().model_dump(mode="json"), seats=seats)
    assert old.schema_version == 1, "a record without the field was made before schema 2"
    state, record = random_game(old, 400)
    assert state.turn > 3 and state.schema_version == 1
    replayed, _ = replay(RULESET, GameRecord.model_validate_json(record.model_dump_json()))
    assert replayed == state
    try:
        other, _ = replay(RULESET, record.model_copy(update={"schema_version": 2}))
    except RuleError:
        return  # under the other dice some action of the game no longer fits
    assert other != state


def test_a_record_from_a_newer_engine_is_refused() -> None:
    seats = [Seat(id=10 + i, name=f"P{i}") for i in range(3)]
    newest = RiskState.newest_schema()
    record = GameRecord(game="risk", seed=5, seats=seats, schema_version=newest + 1)
    with pytest.raises(RuleError) as refused:
        replay(RULESET, record)
    assert refused.value.code == "E_RECORD_TOO_NEW"
    assert f"schema {newest + 1}" in refused.value.message and f"schema {newest} at most" in refused.value.message
