"""Leaving the game: resignation and removal leave rebels behind (WQ-LEAVE-*), and every turn announces itself."""

from __future__ import annotations

import random

import pytest

from engine.core.players import seat_cycle
from engine.games.wizards_quest import RULESET
from engine.games.wizards_quest.state import Attack, Phase, Treasure, WQState
from tests.engine.wizards_quest.helpers import P1, P2, P3, new, of_type, play, position, rejects
from tests.engine.wizards_quest.test_properties import check_invariants

QUIET_GROWTH = [1, 1, 1, 1]
"""Both growth rolls hit 1.1, which the scenarios give to P2."""
QUIET_DRAGON = [6, 2]
QUIET_MAGE = [4, 2]
HOST = 999
"""A host or moderator who is not seated."""


def until(state: WQState, phase: Phase, seed: int = 3) -> WQState:
    """Play the baseline AI for every seat until `phase` comes up."""
    policy, rng = RULESET.policy("baseline"), random.Random(seed)
    while state.phase is not phase:
        player = RULESET.pending(state)[0].player
        state, _ = RULESET.apply(state, policy.choose(state, player, rng))
    return state


@pytest.mark.rule("WQ-LEAVE-1")
def test_anyone_still_playing_may_resign_at_any_time_and_the_host_may_remove() -> None:
    s = position(3, owner={"3.2": P3}, current=P1)
    after, events = play(s, ("resign", P3))
    assert after.player(P3).status == "resigned" and after.current == P1
    assert [e.type for e in events] == ["player_left"] and events[0].removed_by is None
    assert RULESET.narrate(events[0], after) == "Player3 resigns; their 6 pieces stay on the board as rebels."
    removed, events = play(s, ("remove", HOST, {"target": P2}))
    assert removed.player(P2).status == "resigned" and events[0].removed_by == HOST
    assert "is removed from the game" in (RULESET.narrate(events[0], removed) or "")
    rejects(after, ("resign", P3), "WQ_VAL_1_OUT")
    rejects(after, ("remove", HOST, {"target": P3}), "E_NOT_PLAYER_TARGET")
    gone = position(3, eliminated=(P2,))
    rejects(gone, ("resign", P2), "WQ_VAL_1_OUT")
    over, _ = play(position(2), ("remove", HOST, {"target": P2}))
    assert over.phase is Phase.GAME_OVER and over.winners == [P1], "the last player left wins"
    rejects(over, ("resign", P1), "WQ_VAL_40")


@pytest.mark.rule("WQ-LEAVE-2")
def test_rebels_keep_every_piece_lose_their_leaders_and_defend_like_orcs() -> None:
    s = position(3, owner={"3.1": P1, "3.2": P3}, men={"3.1": 5, "3.2": 2}, hero={P3: "3.2"}, current=P1)
    rejects(s, ("attack", P1, {"source": "3.1", "target": "3.2"}), "WQ_VAL_26")
    s, events = play(s, ("resign", P3))
    assert s.men["3.2"] == 3 and P3 not in s.hero and s.owner["3.2"] == P3
    assert events[0].rebels == {"3.2": 3, "2.3": 3}
    assert "3.2: Player3's rebels 3" in RULESET.text_board(s)
    s, events = play(s, ("attack", P1, {"source": "3.1", "target": "3.2"}))
    assert "attacks Player3's rebels at 3.2" in (RULESET.narrate(events[0], s) or "")
    s, events = play(s, ("roll", P1), dice=[4])
    battle = of_type(events, "battle")[0]
    assert battle.d == 3 and battle.attacker_won, "orc range, no Hero bonus: a 4 wins"


@pytest.mark.rule("WQ-LEAVE-2")
def test_rebels_never_grow_and_orcs_leave_them_alone() -> None:
    s = position(3, owner={"3.2": P3, "3.6": P1, "1.1": P2}, orcs={"3.3": 4}, current=P2, order=[P1, P2, P3])
    s, _ = play(s, ("resign", P3))
    s, events = play(s, ("end", P2), dice=[*QUIET_GROWTH, 6, 6, 6, *QUIET_DRAGON, *QUIET_MAGE, 6, 1])
    frenzy = of_type(events, "frenzy")
    assert [f.target for f in frenzy] == ["3.6"], "3.2 (rebels) comes first in location order but is skipped"
    assert s.men["3.2"] == 3
    summons = position(3, owner={"3.2": P3}, phase=Phase.PETITION, hands={P1: ["wizards_summons-1"]})
    summons, _ = play(summons, ("resign", P3))
    summons, events = play(summons, ("play", P1, {"card": "summons", "location": "3.2"}))
    moved = of_type(events, "mage_moved")[0]
    assert summons.men["3.2"] == 3 and moved.added == 0
    assert "Player3's rebels hold it and never grow" in (RULESET.narrate(moved, summons) or "")


@pytest.mark.rule("WQ-LEAVE-3")
def test_cards_go_to_the_discard_treasures_are_removed_and_the_leaver_ranks_among_the_fallen() -> None:
    crown = Treasure(owner=P1, kind="crown", hider=P2, location="3.2")
    own = Treasure(owner=P2, kind="chest", hider=P1, location="4.1")
    s = position(3, owner={"3.2": P2, "4.4": P2}, men={"4.4": 12}, treasures=[crown, own],
                 hands={P2: ["levy-1"]}, boats={P2: ["fair_winds-1"]}, eliminated=(P3,),
                 retrieved={P3: ["crown"]})
    s, _ = play(s, ("resign", P2))
    assert s.hands[P2] == [] and s.boats[P2] == [] and s.discard[-2:] == ["levy-1", "fair_winds-1"]
    assert s.treasures == [crown], "the leaver's own marker goes; another's on a rebel location stays"
    assert RULESET.alive(s) == [P1] and s.phase is Phase.GAME_OVER
    assert RULESET.ranking(s) == [P1, P3, P2], "18 rebels are nobody's strength; P3 retrieved a treasure"


@pytest.mark.rule("WQ-LEAVE-3")
def test_treasures_still_to_hide_pass_to_the_next_opponent() -> None:
    s = until(new(4), Phase.SETUP_HIDE)
    leaver = next(t.hider for t in s.treasures if t.location is None and t.hider != s.current)
    duties = [t for t in s.treasures if t.hider == leaver and t.location is None]
    s, _ = play(s, ("resign", leaver))
    for t in duties:
        heir = next(p for p in seat_cycle(s.seat_order(), leaver) if s.player(p).status == "active" and p != t.owner)
        assert Treasure(owner=t.owner, kind=t.kind, hider=heir) in s.treasures
    assert not any(t.owner == leaver for t in s.treasures)
    s = until(s, Phase.PETITION)
    assert all(t.location is not None for t in s.treasures), "setup goes on and every marker is hidden"


@pytest.mark.rule("WQ-LEAVE-4")
def test_a_leaver_deciding_hands_the_step_or_the_turn_on() -> None:
    deck = [c for c in RULESET.data.deck.instances if c != "fair_winds-1"]
    s = position(3, owner={"3.1": P1, "3.2": P2}, deck=deck, current=P1, order=[P1, P2, P3],
                 attack=Attack(kind="campaign", source="3.1", target="3.2", boat="fair_winds-1"))
    s, events = play(s, ("resign", P1))
    assert [e.type for e in events] == ["player_left", "turn_ended", "turn_started"]
    assert events[-1].player == P2 and s.current == P2 and s.attack is None and s.phase is Phase.PETITION
    assert "fair_winds-1" in s.discard
    check_invariants(s, None)
    castle = new(3)
    leader = castle.current
    castle, _ = play(castle, ("resign", leader))
    assert castle.phase is Phase.SETUP_CASTLE and castle.current == seat_cycle(castle.seat_order(), leader)[1]
    castle = until(castle, Phase.SETUP_CLAIM)
    assert sum(1 for c in castle.owner if c.startswith("C")) == 2, "only the two players left chose castles"


@pytest.mark.rule("WQ-LEAVE-4", "WQ-ORD-2")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_turn_begins_with_turn_started_even_when_players_leave(seed: int) -> None:
    state = new(4, seed=seed, round_limit=10)
    policy, rng = RULESET.policy("baseline"), random.Random(seed)
    steps = 0
    while RULESET.winners(state) is None:
        steps += 1
        active = state.active_ids()
        if steps % 60 == 0 and len(active) > 2:
            action = RULESET.parse_action({"type": "resign", "player": rng.choice(active)})
        else:
            player = RULESET.pending(state)[0].player
            action = policy.choose(state, player, rng)
        before = state
        state, events = RULESET.apply(state, action)
        check_invariants(state, before)
        began = [e.player for e in of_type(events, "turn_started")]
        if state.phase in (Phase.PETITION, Phase.REINFORCE, Phase.ATTACK) and \
                (state.round, state.current) != (before.round, before.current):
            assert began and began[-1] == state.current, f"{action!r} began a turn without turn_started"
        if began:
            assert began[-1] == state.current or state.phase is Phase.GAME_OVER
    assert any(p.status == "resigned" for p in state.players)
