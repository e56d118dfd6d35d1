"""The round's frame through the game's one `apply`: who may act in another player's individual turn (BM-RND-4,
the reference's ruling 3) and the check order of BM-VAL-0's first group."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.core.models import Action
from engine.games.battlemist import combat, council, movement, quest, upkeep
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist import quest_helpers
from tests.engine.battlemist.helpers import position, snapshot


def code(state: BMState, action: Action) -> str:
    before = snapshot(state)
    with pytest.raises(RuleError) as info:
        apply(state, action)
    assert snapshot(state) == before
    return info.value.code


@pytest.mark.rule("BM-RND-4", "BM-VAL-0")
def test_a_turn_command_out_of_step_is_not_your_turn_for_the_others() -> None:
    in_quest = quest_helpers.step(heroes=[quest_helpers.hero(1, 1, "H-DAQ"), quest_helpers.hero(2, 1, "H-ORC")])
    assert in_quest.phase is Phase.QUEST and in_quest.active == 1
    assert code(in_quest, movement.EndMove(player=2)) == "BM_E_NOT_YOUR_TURN"
    assert code(in_quest, combat.ChooseBattle(player=2, region="N05")) == "BM_E_NOT_YOUR_TURN"
    assert code(in_quest, movement.EndMove(player=1)) == "BM_E_WRONG_PHASE"
    in_movement = position(phase=Phase.MOVEMENT, movement=movement.MoveStep(player=1))
    assert code(in_movement, quest.QuestPass(player=2)) == "BM_E_NOT_YOUR_TURN"
    assert code(in_movement, quest.QuestPass(player=1)) == "BM_E_WRONG_PHASE"
    for step in (in_quest, in_movement):
        assert code(step, council.Vote(player=2, commit=True)) == "BM_E_WRONG_PHASE"
        assert code(step, upkeep.SubmitUpkeep(player=2)) == "BM_E_WRONG_PHASE"
