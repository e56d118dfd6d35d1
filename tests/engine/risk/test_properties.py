"""Property tests: random legal Risk games keep every invariant of the rules."""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.models import Event, Seat, to_json
from engine.core.play import play_out
from engine.core.record import GameRecord, replay
from engine.core.views import HIDDEN, SEALED
from engine.games.risk import RULESET, RiskOptions, RiskState
from engine.games.risk import events as E
from engine.games.risk.mapdata import classic
from engine.games.risk.state import NEUTRAL, Phase

BOARD = classic()

options_strategy = st.builds(
    RiskOptions,
    mode=st.sampled_from(["standard", "secret_mission", "two_player"]),
    setup=st.sampled_from(["claim", "random_deal"]),
    setup_placement=st.sampled_from(["one_at_a_time", "bulk_sequential", "simultaneous"]),
    fortify_mode=st.sampled_from(["adjacent", "connected"]),
    defender_dice=st.sampled_from(["auto_max", "choose"]),
    mission_set=st.sampled_from(["us12", "euro14"]),
    destroy_rule=st.sampled_from(["anyone", "convert_24"]),
)


def army_delta(events: list[Event]) -> int:
    """Armies added to or removed from the board by these events."""
    delta = 0
    for e in events:
        if isinstance(e, E.Claimed):
            delta += 1
        elif isinstance(e, E.Placed):
            delta += e.count
        elif isinstance(e, E.PlansRevealed):
            delta += sum(sum(plan.values()) for plan in e.plans.values())
        elif isinstance(e, E.CardsTraded) and e.bonus_territory:
            delta += 2
        elif isinstance(e, E.Battle):
            delta -= e.attacker_losses + e.defender_losses
    return delta


def check_invariants(s: RiskState) -> None:
    ids = set(BOARD.ids)
    players = {p.id for p in s.players}
    assert set(s.owner) <= ids
    if s.phase not in (Phase.SETUP_CLAIM,):
        assert set(s.owner) == ids, "every territory has exactly one owner"
    assert set(s.owner.values()) <= players | {NEUTRAL}
    occupying = s.interrupt.target if s.interrupt is not None and s.interrupt.kind == "occupy" else None
    for t, owner in s.owner.items():
        assert s.armies[t] >= (0 if t == occupying else 1), f"{t} is empty"
        if owner != NEUTRAL:
            assert s.player(owner).status == "active", "an eliminated or resigned player owns a territory"
    for p in s.players:
        if p.status != "active" and s.phase is not Phase.GAME_OVER:  # RISK-ELIM-2: a winning elimination
            assert not s.hands.get(p.id), "a player who left still holds cards"
    cards = [c for hand in s.hands.values() for c in hand] + s.deck + s.discard
    if s.turn > 0:  # the deck exists from the first game turn on
        assert sorted(cards) == sorted([*BOARD.ids, *BOARD.wild_cards]), "cards are conserved"
        if s.interrupt is None or s.interrupt.kind != "elim_trade":  # cards taken may be many (RISK-ELIM-4)
            # at most 5 left after the trades a turn forces (RISK-CARD-14, RISK-ELIM-5), and 1 drawn
            assert all(len(hand) <= 6 for hand in s.hands.values()), {p: len(h) for p, h in s.hands.items()}
    if s.phase is Phase.GAME_OVER:
        assert s.winner is not None and RULESET.pending(s) == []


def check_views(s: RiskState) -> None:
    for p in s.players:
        view = RULESET.view(s, p.id)
        assert view.hands.get(p.id, []) == s.hands.get(p.id, [])
        for other in s.players:
            if other.id != p.id:
                assert set(view.hands.get(other.id, [])) <= {HIDDEN}, "view leaks a hand"
        if s.phase is not Phase.GAME_OVER:
            assert set(view.missions) <= {p.id}, "view leaks a mission"
        assert set(view.deck) <= {HIDDEN} and view.rng == SEALED
    spectator = RULESET.view(s, None)
    assert all(set(hand) <= {HIDDEN} for hand in spectator.hands.values())
    if s.phase is not Phase.GAME_OVER:
        assert spectator.missions == {}


def check_pending(s: RiskState) -> None:
    """A pending decision exists for an active seat and can always be answered legally."""
    if s.phase is Phase.GAME_OVER:
        return
    decisions = RULESET.pending(s)
    assert decisions, "nothing pending in a live game"
    for d in decisions:
        assert s.player(d.player) is not None and s.player(d.player).status == "active"
        assert not re.search(r"\b0\b", RULESET.prompt(d, s)), "a prompt asks for nothing"
    state = s
    pid = decisions[0].player
    for act in RULESET.timeout_actions(s, pid):
        if RULESET.winners(state) is not None:
            break  # a placement can complete a mission midway: the rest is not played
        assert RULESET.timeout_action(state, pid) == act, "asked one at a time, the stand-in plays another turn"
        state, _ = RULESET.apply(state, act)
    assert state.seq > s.seq


def play_random(seed: int, n: int, options: RiskOptions, steps: int) -> tuple[RiskState, GameRecord]:
    seats = [Seat(id=10 + i, name=f"P{i}") for i in range(n)]
    state, _ = RULESET.new_game(seats, options, seed)
    assert isinstance(state, RiskState)
    policy = RULESET.policy("random")
    rng = random.Random(seed)
    record = GameRecord(game="risk", seed=seed, options=options.model_dump(mode="json"), seats=seats,
                        schema_version=state.schema_version)
    leaver = rng.randrange(steps) if rng.random() < 0.3 else -1
    for step in range(steps):
        if RULESET.winners(state) is not None:
            break
        check_pending(state)
        if step == leaver:
            who = rng.choice(state.active_ids())
            act = RULESET.parse_action({"type": "resign", "player": who})
        else:
            who = RULESET.pending(state)[0].player
            act = policy.choose(state, who, rng)
        before = to_json(state)
        total = sum(state.armies.values())
        new_state, events = RULESET.apply(state, act)
        assert to_json(state) == before, "apply mutated its input"
        assert isinstance(new_state, RiskState)
        assert sum(new_state.armies.values()) == total + army_delta(events), "armies are not conserved"
        record.actions.append(to_json(act))
        state = new_state
        check_invariants(state)
        if step % 25 == 0:
            check_views(state)
            RULESET.check_position(state)  # what a loaded position must keep, a position reached in play keeps
    return state, record


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), n=st.integers(3, 6), options=options_strategy)
def test_random_games_keep_the_invariants(seed: int, n: int, options: RiskOptions) -> None:
    n = 2 if options.mode == "two_player" else n
    state, record = play_random(seed, n, options, steps=300)
    replayed, _ = replay(RULESET, record)
    assert replayed.digest() == state.digest(), "the same seed and actions give a different state"
    check_views(state)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6))
def test_random_games_finish(seed: int, n: int) -> None:
    """Whole games end with a winner: the game never stalls."""
    options = RiskOptions(mode="two_player") if n == 2 else RiskOptions(setup="random_deal")
    state, _ = play_random(seed, n, options, steps=20_000)
    assert state.phase is Phase.GAME_OVER and state.winner in state.active_ids()


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), options=options_strategy, n=st.integers(3, 6))
def test_baseline_seats_play_legal_games_to_the_end(seed: int, options: RiskOptions, n: int) -> None:
    """Every decision of the baseline AI is legal under every option, and its games finish."""
    n = 2 if options.mode == "two_player" else n
    seats = [Seat(id=10 + i, name=f"P{i}") for i in range(n)]
    state, _ = RULESET.new_game(seats, options, seed)
    policies = {s.id: RULESET.policy("baseline") for s in seats}
    state, _ = play_out(RULESET, state, policies, seed, max_actions=20_000)
    assert isinstance(state, RiskState)
    assert state.phase is Phase.GAME_OVER and state.winner in state.active_ids()


def test_baseline_beats_random_seats() -> None:
    """The baseline is sensible: against three random seats it wins far more than its 1-in-4 share."""
    wins = 0
    for seed in range(24):
        seats = [Seat(id=i + 1, name=f"P{i}") for i in range(4)]
        state, _ = RULESET.new_game(seats, RiskOptions(), seed)
        smart = 1 + seed % 4
        policies = {s.id: RULESET.policy("baseline" if s.id == smart else "random") for s in seats}
        state, _ = play_out(RULESET, state, policies, seed)
        wins += RULESET.winners(state) == [smart]
    assert wins >= 12, f"the baseline won only {wins} of 24 games"
