"""The Wizards' Council (BM-RND-3 steps 1.0 – 1.3): victory, refill, the draw, votes, events and their
resolution."""

from __future__ import annotations

import pytest

from engine.core import orders as O
from engine.core.errors import RuleError
from engine.core.rng import Rng
from engine.games.battlemist import council as C
from engine.games.battlemist.dice import Rolled
from engine.games.battlemist.pieces import CityMark, Stars, Stock
from engine.games.battlemist.state import BMOptions, BMState, Phase
from tests.engine.battlemist.council_tools import of, run, step
from tests.engine.battlemist.helpers import DATA, position, snapshot

FOUR = ("DAQ", "ORC", "DWA", "KHR")
FOUR_IDS = (1, 2, 3, 4)


def council(races: tuple[str, ...] = FOUR, **fields: object) -> BMState:
    return position(races, phase=Phase.COUNCIL, **fields)  # type: ignore[arg-type]


def voting(card: str, races: tuple[str, ...] = FOUR, dice: tuple[int, ...] = (), **fields: object) -> BMState:
    """The Council with `card` drawn, its vote open (players without large cities roll off for the order)."""
    fields.setdefault("events", [card])
    state = council(races, dice=list(dice), **fields)
    state, _ = step(state, C.open_vote)
    return state


def cast(state: BMState, *commits: bool) -> tuple[BMState, list]:
    """The next voters in order commit (True) or abstain (False)."""
    events: list = []
    for commit in commits:
        assert state.council is not None
        voter = C.next_voter(state.council)
        assert voter is not None
        state, more = run(state, C.vote, C.Vote(player=voter, commit=commit))
        events += more
    return state, events


def refused(state: BMState, handler, action) -> RuleError:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as info:
        run(state, handler, action)
    return info.value


# --- 1.0 victory --------------------------------------------------------------------------------------------------

@pytest.mark.rule("BM-VIC-1", "BM-VIC-4")
def test_five_stars_at_the_council_win_at_once() -> None:
    state = council(stars={1: Stars(owned=5, spent=2), 2: Stars(owned=4, spent=4), 3: Stars(owned=1),
                           4: Stars(owned=0)}, deck=["AC01", "AC02", "AC03", "AC04"])
    before = snapshot(state)
    over, events = step(state, C.begin_council)
    assert snapshot(state) == before
    assert over.phase is Phase.GAME_OVER and over.winners == [1]
    [won] = of(events, C.GameWon)
    assert won.reason == "stars" and won.stars[1] == 5
    assert over.stars[1].spent == 2 and over.deck == state.deck and not of(events, C.StarsRefilled)
    going, events = step(council(stars={1: Stars(owned=4), 2: Stars(), 3: Stars(), 4: Stars()},
                                 deck=["AC01"] * 4), C.begin_council)
    assert going.phase is Phase.COUNCIL and going.winners is None and of(events, C.StarsRefilled)


@pytest.mark.rule("BM-VIC-2", "BM-A-30")
def test_victory_ties() -> None:
    stars = {1: Stars(owned=6), 2: Stars(owned=6), 3: Stars(owned=5), 4: Stars()}
    troops = {"N05": {1: {"infantry": 1}}, "N06": {2: {"infantry": 1}}, "N07": {2: {"infantry": 1}}}
    state = council(stars=stars, troops=troops)
    assert C.qualified(state) == [1, 2, 3] and C.best(state, [1, 2, 3]) == [2]
    state.cities = {"N05": CityMark(kind="large_city", since=0)}
    assert C.best(state, [1, 2, 3]) == [1]
    state.cities = {}
    state.troops = {"N05": {1: state.units("N05", 1)}, "N06": {2: state.units("N06", 2)}}
    over, _ = step(state, C.begin_council)
    assert over.winners == [1, 2]


@pytest.mark.rule("BM-VIC-3")
def test_round_cap() -> None:
    state = council(round=8)
    assert not C.round_cap_reached(state)
    state.options = BMOptions(round_cap=8)
    assert C.round_cap_reached(state)
    state.round = 7
    assert not C.round_cap_reached(state)
    stars = {1: Stars(owned=2), 2: Stars(owned=3), 3: Stars(owned=3), 4: Stars(owned=1)}
    state = position(FOUR, phase=Phase.UPKEEP, round=8, options=BMOptions(round_cap=8), stars=stars,
                     troops={"N05": {3: {"infantry": 1}}})
    over, events = step(state, lambda s, rng: C.end_at_round_cap(s))
    assert over.winners == [3] and over.phase is Phase.GAME_OVER and of(events, C.GameWon)[0].reason == "round_cap"


# --- 1.1 refill, 1.2 draw -----------------------------------------------------------------------------------------

@pytest.mark.rule("BM-COU-1")
def test_every_star_becomes_unspent() -> None:
    state = council(stars={1: Stars(owned=3, spent=3), 2: Stars(owned=1, spent=1), 3: Stars(), 4: Stars(owned=2)},
                    deck=["AC01"] * 4)
    state, _ = step(state, C.begin_council)
    assert {pid: (s.owned, s.spent) for pid, s in state.stars.items()} == {1: (3, 0), 2: (1, 0), 3: (0, 0),
                                                                          4: (2, 0)}


@pytest.mark.rule("BM-COU-2", "BM-ACT-3")
def test_each_player_draws_one_card_in_seat_order() -> None:
    state = council(deck=["AC01", "AC02", "AC03", "AC04", "AC05"], hands={1: [], 2: ["AC09"], 3: [], 4: []})
    state, events = step(state, C.begin_council)
    assert state.hands == {1: ["AC01"], 2: ["AC09", "AC02"], 3: ["AC03"], 4: ["AC04"]} and state.deck == ["AC05"]
    drawn = of(events, C.CardDrawn)
    assert [(e.player, e.private_to, e.card) for e in drawn] == [(1, 1, "AC01"), (2, 2, "AC02"), (3, 3, "AC03"),
                                                                  (4, 4, "AC04")]
    assert state.council is None and C.council_over(state)


@pytest.mark.rule("BM-COU-8", "BM-ACT-4")
def test_a_full_hand_draws_nothing() -> None:
    assert DATA.rules.hand_limit == 7
    full = ["AC01"] * 7
    state = council(deck=["AC02", "AC03", "AC04"], hands={1: full, 2: ["AC05"] * 6, 3: [], 4: []})
    with pytest.raises(RuleError) as info:
        step(state, lambda s, rng: C.draw_action_card(s, 1, rng))
    assert info.value.code == "BM_E_HAND_LIMIT" and info.value.message == "You hold 7 action cards and draw nothing."
    state, events = step(state, C.draw_cards)
    assert state.hands[1] == full and len(state.hands[2]) == 7 and [e.player for e in of(events, C.HandFull)] == [1]


@pytest.mark.rule("BM-ACT-7", "BM-COU-9")
def test_events_are_revealed_set_aside_and_replaced() -> None:
    state = council(deck=["EV1", "AC01", "AC02", "EV3", "EV6", "AC03", "AC04", "AC05"])
    state, events = step(state, C.draw_cards)
    assert state.hands == {1: ["AC01"], 2: ["AC02"], 3: ["AC03"], 4: ["AC04"]}
    assert state.events == ["EV1", "EV3", "EV6"]
    assert [(e.player, e.card) for e in of(events, C.EventRevealed)] == [(1, "EV1"), (3, "EV3"), (3, "EV6")]
    assert all(e.private_to is None for e in of(events, C.EventRevealed))


@pytest.mark.rule("BM-ACT-6")
def test_an_exhausted_deck_is_rebuilt_from_the_discards() -> None:
    state = council(deck=["AC01"], discard=["AC02", "AC03", "AC04", "AC05"])
    state, events = step(state, C.draw_cards)
    assert state.hands[1] == ["AC01"] and state.discard == [] and of(events, C.DeckRebuilt)[0].cards == 4
    assert sorted(state.hands[2] + state.hands[3] + state.hands[4] + state.deck) == ["AC02", "AC03", "AC04", "AC05"]
    empty = council(deck=[], discard=[])
    empty, events = step(empty, C.draw_cards)
    assert empty.hands == {} and not events


@pytest.mark.rule("BM-ACT-5")
def test_unused_cards_may_be_discarded_at_any_time() -> None:
    for phase in (Phase.COUNCIL, Phase.MOVEMENT, Phase.UPKEEP):
        state = position(FOUR, phase=phase, hands={2: ["AC01", "AC05", "AC01"]}, discard=["AC09"])
        after, events = run(state, C.discard_card, C.DiscardCard(player=2, card="AC01"))
        assert after.hands[2] == ["AC05", "AC01"] and after.discard == ["AC09", "AC01"]
        assert state.hands[2] == ["AC01", "AC05", "AC01"] and [e.type for e in events] == ["card_discarded"]
    err = refused(state, C.discard_card, C.DiscardCard(player=2, card="AC02"))
    assert err.code == "BM_E_CARD_NOT_IN_HAND" and err.message == "You do not hold Forced March (AC02)."
    over = position(FOUR, phase=Phase.GAME_OVER, hands={2: ["AC01"]})
    assert refused(over, C.discard_card, C.DiscardCard(player=2, card="AC01")).code == "BM_E_WRONG_PHASE"


# --- 1.3 votes ----------------------------------------------------------------------------------------------------

@pytest.mark.rule("BM-COU-3", "BM-TRD-3", "BM-COU-10", "BM-A-13")
def test_events_resolve_in_draw_order_each_after_a_discussion() -> None:
    state = council(events=["EV3", "EV4"], dice=[5, 6, 7, 8, 5, 6, 7, 8])
    state, events = step(state, C.open_vote)
    assert [type(e) for e in events if not isinstance(e, Rolled)] == [C.CouncilDiscussion, C.VoteOpened]
    assert of(events, C.CouncilDiscussion)[0].card == "EV3" and state.council is not None
    state, events = cast(state, True, True, True, True)
    assert of(events, C.EffectSet)[0].card == "EV3" and state.events == ["EV4"]
    kinds = [type(e) for e in events]
    assert kinds.index(C.EventRemoved) < kinds.index(C.CouncilDiscussion) < kinds.index(C.VoteOpened)
    assert state.council is not None and state.council.card == "EV4"
    state, events = cast(state, False, False, False, False)
    assert state.effects.mana_storm == "none" and C.council_over(state)


@pytest.mark.rule("BM-COU-4")
def test_votes_per_player() -> None:
    troops = {"N05": {1: {"infantry": 1}}, "N06": {1: {"infantry": 1}}, "N07": {2: {"infantry": 1}}}
    cities = {"N05": CityMark(kind="large_city", since=0), "N06": CityMark(kind="large_city", since=0),
              "N07": CityMark(kind="city", since=0)}
    state = council(troops=troops, cities=cities, artifacts={3: ["AR5"], 4: ["AR1"]})
    assert [C.votes_of(state, pid) for pid in (1, 2, 3, 4)] == [3, 1, 2, 1]


@pytest.mark.rule("BM-COU-5", "BM-A-9", "BM-DIE-4")
def test_vote_order_fewest_large_cities_first_ties_rolled_off() -> None:
    troops = {"N05": {1: {"infantry": 1}}, "N06": {1: {"infantry": 1}}, "N07": {2: {"infantry": 1}}}
    cities = {"N05": CityMark(kind="large_city", since=0), "N06": CityMark(kind="large_city", since=0),
              "N07": CityMark(kind="large_city", since=0)}
    state = voting("EV3", troops=troops, cities=cities, dice=(4, 9, 4, 2, 7))
    assert state.council is not None and state.council.order == [4, 3, 2, 1]
    state = voting("EV3", troops=troops, cities=cities, dice=(6, 6, 3, 8))
    assert state.council is not None and state.council.order == [4, 3, 2, 1]
    state = council(troops=troops, cities=cities, events=["EV3"], dice=[6, 6, 3, 8])
    _, events = step(state, C.open_vote)
    rolls = of(events, Rolled)
    assert [(e.player, e.dice, e.purpose) for e in rolls] == [(3, [6], "vote_order"), (4, [6], "vote_order"),
                                                             (3, [3], "vote_order"), (4, [8], "vote_order")]
    opened = of(events, C.VoteOpened)[0]
    assert opened.votes == {4: 1, 3: 1, 2: 2, 1: 3} and opened.order == [4, 3, 2, 1]


@pytest.mark.rule("BM-COU-6", "BM-A-8")
def test_commit_all_or_abstain_and_votes_are_not_used_up() -> None:
    troops = {"N05": {2: {"infantry": 1}}}
    cities = {"N05": CityMark(kind="large_city", since=0)}
    state = voting("EV3", troops=troops, cities=cities, dice=(9, 8, 7), events=["EV3", "EV4"])
    assert state.council is not None and state.council.order == [1, 3, 4, 2]
    state, events = cast(state, False, True, False, True)
    assert [(e.player, e.committed) for e in of(events, C.VoteCast)] == [(1, 0), (3, 1), (4, 0), (2, 2)]
    assert of(events, C.EventDecided)[0].committed == 3
    opened = of(events, C.VoteOpened)[0]
    assert opened.votes[2] == 2


def test_vote_errors_and_check_order() -> None:
    state = voting("EV3", dice=(9, 8, 7, 6))
    assert state.council is not None and state.council.order == [1, 2, 3, 4]
    err = refused(state, C.vote, C.Vote(player=3, commit=True))
    assert err.code == "BM_E_VOTE_ORDER" and err.message == "It is P1's turn to vote."
    state, _ = cast(state, True)
    assert refused(state, C.vote, C.Vote(player=1, commit=True)).code == "BM_E_VOTE_ORDER"
    state.phase = Phase.ECONSTART
    assert refused(state, C.vote, C.Vote(player=3, commit=True)).code == "BM_E_WRONG_PHASE"
    assert refused(council(), C.vote, C.Vote(player=1, commit=True)).code == "BM_E_WRONG_PHASE"


@pytest.mark.rule("BM-EVT-1", "BM-COU-7")
def test_threshold_and_outcome() -> None:
    event = DATA.cards.card["EV1"]
    assert [event.needed(n) for n in (6, 5, 4, 3, 2)] == [5, 4, 3, 2, 1]  # type: ignore[union-attr]
    state = voting("EV3", dice=(9, 8, 7, 6))
    assert state.council is not None and state.council.needed == 3
    a, events = cast(state, True, True, True, False)
    assert of(events, C.EventDecided)[0].outcome == "a" and a.effects.failed_harvest == "half"
    b, events = cast(state, True, False, True, False)
    decided = of(events, C.EventDecided)[0]
    assert (decided.committed, decided.needed, decided.outcome) == (2, 3, "b") and b.effects.failed_harvest == "none"


@pytest.mark.rule("BM-COU-11")
def test_a_resolved_event_leaves_the_game() -> None:
    state = voting("EV4", dice=(9, 8, 7, 6), discard=["AC01"], deck=["AC02"])
    state, events = cast(state, True, True, True, True)
    assert state.events == [] and state.discard == ["AC01"] and state.deck == ["AC02"]
    assert of(events, C.EventRemoved)[0].card == "EV4" and state.council is None


# --- the events (BM-EVT-2) ----------------------------------------------------------------------------------------

@pytest.mark.rule("BM-EVT-2", "BM-COU-12")
def test_tremors_a_reduces_every_large_city() -> None:
    cities = {"N05": CityMark(kind="large_city", since=2), "N06": CityMark(kind="city", since=1),
              "N07": CityMark(kind="large_city", since=1)}
    state = voting("EV1", dice=(9, 8, 7, 6), cities=cities)
    before = snapshot(state)
    after, events = cast(state, True, True, True, False)
    assert snapshot(state) == before
    assert after.cities == {"N05": CityMark(kind="city", since=2), "N06": CityMark(kind="city", since=1),
                            "N07": CityMark(kind="city", since=1)}
    assert of(events, C.CitiesStruck)[0].reduced == ["N05", "N07"]


@pytest.mark.rule("BM-EVT-2", "BM-DIE-2")
def test_tremors_b_rolls_for_every_city() -> None:
    cities = {"N07": CityMark(kind="large_city", since=1), "N05": CityMark(kind="city", since=1),
              "N06": CityMark(kind="city", since=1)}
    state = voting("EV1", dice=(9, 8, 7, 6, 7, 6, 10), cities=cities)
    after, events = cast(state, False, False, False, False)
    rolls = [(e.region, e.dice[0], e.player) for e in of(events, Rolled) if e.purpose == "tremors"]
    assert rolls == [("N05", 7, None), ("N06", 6, None), ("N07", 10, None)]
    assert after.cities == {"N06": CityMark(kind="city", since=1)}
    assert of(events, C.CitiesStruck)[0].destroyed == ["N05", "N07"]


@pytest.mark.rule("BM-EVT-2")
def test_round_long_effects() -> None:
    cases = {("EV3", True): ("failed_harvest", "half"), ("EV3", False): ("failed_harvest", "none"),
             ("EV4", True): ("mana_storm", "costly"), ("EV4", False): ("mana_storm", "none"),
             ("EV6", True): ("blizzard", "slow"), ("EV6", False): ("blizzard", "no_mountains")}
    for (card, yes), (name, value) in cases.items():
        state = voting(card, dice=(9, 8, 7, 6))
        after, events = cast(state, yes, yes, yes, yes)
        assert getattr(after.effects, name) == value and of(events, C.EffectSet)[0].value == value
    harsher = voting("EV3", dice=(9, 8, 7, 6, 9, 8, 7, 6), events=["EV3", "EV3"])
    harsher, _ = cast(harsher, False, False, False, False, True, True, True, True)
    assert harsher.effects.failed_harvest == "none"
    twice = voting("EV4", dice=(9, 8, 7, 6, 9, 8, 7, 6), events=["EV4", "EV4", "EV3", "EV3"])
    twice, _ = cast(twice, *[True] * 16)
    assert (twice.effects.mana_storm, twice.effects.surcharge) == ("costly", 2)
    assert (twice.effects.failed_harvest, twice.effects.halvings) == ("half", 2)
    once = voting("EV4", dice=(9, 8, 7, 6))
    once, _ = cast(once, True, True, True, True)
    assert once.effects.surcharge == 1 and once.effects.halvings == 0


PLAGUE_TROOPS = {"N05": {1: {"infantry": 3, "archers": 2, "cavalry": 3}}, "N06": {2: {"infantry": 1, "archers": 4}},
                 "H-DAQ": {1: {"cavalry": 4, "giant": 2}}, "N07": {3: {"infantry": 2, "dragon": 3}}}


@pytest.mark.rule("BM-EVT-2", "BM-COU-13", "BM-SIM-1", "BM-SIM-5")
def test_plague_b_removes_two_units_by_private_choice_or_default() -> None:
    state = voting("EV2", dice=(9, 8, 7, 6), troops=PLAGUE_TROOPS)
    state, events = cast(state, False, False, False, False)
    assert state.council is not None and state.council.affected == {1: ["H-DAQ", "N05"], 2: ["N06"]}
    assert [(d.player, d.kind) for d in C.council_decisions(state)] == [(1, "plague_losses"),
                                                                         (2, "plague_losses")]
    choice = C.PlagueLosses(player=1, removals={"N05": {"cavalry": 2}})
    state, events = run(state, C.choose_plague, choice)
    assert not events and state.units("N05", 1).cavalry == 3
    state, events = run(state, C.choose_plague, C.timeout_council(state, 2))
    assert state.units("N05", 1).counts() == {"infantry": 3, "archers": 2, "cavalry": 1}
    assert state.units("H-DAQ", 1).counts() == {"cavalry": 2, "giant": 2}
    assert state.units("N06", 2).counts() == {"archers": 3}
    assert state.units("N07", 3).counts() == {"infantry": 2, "dragon": 3}
    assert [(e.player, e.region, e.units) for e in of(events, C.UnitsLost)] == [
        (1, "H-DAQ", {"cavalry": 2}), (1, "N05", {"cavalry": 2}), (2, "N06", {"infantry": 1, "archers": 1})]
    assert state.council is None and C.council_over(state)


@pytest.mark.rule("BM-EVT-2", "BM-SIM-2", "BM-SIM-4")
def test_plague_a_strikes_seven_or_more_and_choices_may_change_until_locked() -> None:
    state = voting("EV2", dice=(9, 8, 7, 6), troops=PLAGUE_TROOPS)
    state, _ = cast(state, True, True, True, True)
    assert state.council is not None and state.council.affected == {1: ["N05"]}
    state, _ = run(state, C.choose_plague, C.PlagueLosses(player=1, removals={"N05": {"archers": 2}}, lock=False))
    assert state.council is not None and state.council.choices is not None
    assert O.missing(state.council.choices) == [1]
    spectator = C.seen_by(state.council, None)
    assert spectator is not None and spectator.choices is not None and spectator.choices.drafts == {}
    own = C.seen_by(state.council, 1)
    assert own is not None and own.choices is not None and own.choices.drafts[1].removals == {"N05": {"archers": 2}}
    state, _ = run(state, C.choose_plague, C.PlagueLosses(player=1, removals={"N05": {"infantry": 2}}))
    assert state.units("N05", 1).counts() == {"infantry": 1, "archers": 2, "cavalry": 3}
    assert C.council_over(state)


def test_plague_choice_errors() -> None:
    state = voting("EV2", dice=(9, 8, 7, 6), troops=PLAGUE_TROOPS)
    state, _ = cast(state, False, False, False, False)
    codes = {
        "BM_E_PLAGUE_REGION": C.PlagueLosses(player=1, removals={"N06": {"infantry": 2}}),
        "BM_E_UNIT_NOT_FOUND": C.PlagueLosses(player=2, removals={"N06": {"infantry": 2}}),
        "BM_E_PLAGUE_COUNT": C.PlagueLosses(player=1, removals={"N05": {"infantry": 3}}),
        "BM_E_EVENT_NO_CHOICE": C.PlagueLosses(player=3),
    }
    for code, action in codes.items():
        assert refused(state, C.choose_plague, action).code == code
    assert refused(state, C.choose_plague, codes["BM_E_PLAGUE_COUNT"]).message == (
        "Remove exactly 2 army units in N05.")
    assert refused(state, C.pay_uprising, C.UprisingPayment(player=1)).code == "BM_E_WRONG_PHASE"
    locked, _ = run(state, C.choose_plague, C.PlagueLosses(player=1))
    err = refused(locked, C.choose_plague, C.PlagueLosses(player=1, removals={"N06": {"x": 1}}))
    assert err.code == "BM_E_LOCKED" and err.message == "You already locked your Plague."


UPRISING_TROOPS = {"N05": {1: {"cavalry": 1}}, "N06": {1: {"infantry": 1, "giant": 1}},
                   "N07": {2: {"archers": 1}}, "N08": {2: {"infantry": 2}}, "H-ORC": {2: {"infantry": 1}},
                   "N09": {3: {"infantry": 1}, 4: {"infantry": 1}}}


@pytest.mark.rule("BM-EVT-2", "BM-COU-13")
def test_uprising_a_pay_one_grain_or_lose_the_lone_unit() -> None:
    stock = {1: {"grain": 1}, 2: {"grain": 5}}
    state = voting("EV5", dice=(9, 8, 7, 6), troops=UPRISING_TROOPS, stock=stock)
    state, _ = cast(state, True, True, True, True)
    assert state.council is not None and state.council.affected == {1: ["N05", "N06"], 2: ["N07"]}
    err = refused(state, C.pay_uprising, C.UprisingPayment(player=1, pay=["N05", "N06"]))
    assert err.code == "BM_E_INSUFFICIENT_RESOURCES" and err.message == "You need 2 grain but have 1 grain."
    assert refused(state, C.pay_uprising, C.UprisingPayment(player=1, pay=["N08"])).code == "BM_E_UPRISING_REGION"
    state, _ = run(state, C.pay_uprising, C.UprisingPayment(player=1, pay=["N06"]))
    state, events = run(state, C.pay_uprising, C.timeout_council(state, 2))
    assert state.stock[1] == Stock(grain=0) and state.stock[2] == Stock(grain=5)
    assert state.units("N06", 1).counts() == {"infantry": 1, "giant": 1}
    assert "N05" not in state.troops and "N07" not in state.troops
    assert of(events, C.UprisingPaid)[0].regions == ["N06"]
    assert state.units("N09", 3).infantry == 1 and state.units("H-ORC", 2).infantry == 1


@pytest.mark.rule("BM-EVT-2")
def test_uprising_b_removes_every_lone_unit() -> None:
    state = voting("EV5", dice=(9, 8, 7, 6), troops=UPRISING_TROOPS, stock={1: {"grain": 9}})
    state, events = cast(state, False, False, False, False)
    assert state.council is None and state.stock[1].grain == 9
    assert state.units("N06", 1).counts() == {"giant": 1}
    assert {(e.player, e.region) for e in of(events, C.UnitsLost)} == {(1, "N05"), (1, "N06"), (2, "N07")}
    nobody = voting("EV2", dice=(9, 8, 7, 6))
    nobody, _ = cast(nobody, False, False, False, False)
    assert C.council_over(nobody)


def test_council_decisions_and_timeout() -> None:
    state = voting("EV3", dice=(9, 8, 7, 6))
    [decision] = C.council_decisions(state)
    assert (decision.player, decision.kind, decision.detail["needed"]) == (1, "vote", 3)
    assert C.timeout_council(state, 1) == C.Vote(player=1, commit=False)
    assert C.council_decisions(council()) == []


@pytest.mark.rule("BM-COU-13")
def test_players_without_a_real_choice_are_not_asked() -> None:
    troops = {"N05": {1: {"infantry": 5}}, "N06": {2: {"infantry": 2, "cavalry": 3}}}
    state = voting("EV2", dice=(9, 8, 7, 6), troops=troops)
    state, _ = cast(state, False, False, False, False)
    assert [d.player for d in C.council_decisions(state)] == [2]
    state, _ = run(state, C.choose_plague, C.PlagueLosses(player=2, removals={"N06": {"cavalry": 2}}))
    assert state.units("N05", 1).infantry == 3 and state.units("N06", 2).counts() == {"infantry": 2, "cavalry": 1}
    alone = voting("EV2", dice=(9, 8, 7, 6), troops={"N05": {1: {"archers": 4}}})
    alone, _ = cast(alone, False, False, False, False)
    assert alone.units("N05", 1).archers == 2 and C.council_over(alone)
    poor = voting("EV5", dice=(9, 8, 7, 6), troops=UPRISING_TROOPS, stock={2: {"grain": 3}})
    poor, _ = cast(poor, True, True, True, True)
    assert [d.player for d in C.council_decisions(poor)] == [2]
    poor, _ = run(poor, C.pay_uprising, C.UprisingPayment(player=2, pay=["N07"]))
    assert "N05" not in poor.troops and poor.units("N07", 2).archers == 1 and poor.stock[2].grain == 2


def test_a_player_who_leaves_no_longer_holds_the_council_up() -> None:
    state = voting("EV3", dice=(9, 8, 7, 6))
    state, _ = cast(state, True, True, True)
    assert state.council is not None and C.next_voter(state.council) == 4
    gone, events = run(state, lambda s, a, rng: C.leave_council(s, 4, rng), C.Vote(player=4, commit=False))
    assert of(events, C.EventDecided)[0].outcome == "a" and C.council_over(gone)
    kept, events = run(state, lambda s, a, rng: C.leave_council(s, 1, rng), C.Vote(player=1, commit=False))
    assert not events and kept.council is not None and kept.council.votes[1] == 1
    plague = voting("EV2", dice=(9, 8, 7, 6), troops=PLAGUE_TROOPS)
    plague, _ = cast(plague, False, False, False, False)
    plague, _ = run(plague, C.choose_plague, C.PlagueLosses(player=1))
    plague, events = run(plague, lambda s, a, rng: C.leave_council(s, 2, rng), C.Vote(player=2, commit=False))
    assert C.council_over(plague) and plague.units("N06", 2).archers == 4
    idle = council()
    assert C.leave_council(idle, 1, Rng(idle.rng)) == []


@pytest.mark.rule("BM-COU-13", "BM-SIM-5", "BM-DIG-19")
def test_an_unlocked_event_choice_stands_at_the_deadline() -> None:
    state = voting("EV2", dice=(9, 8, 7, 6), troops=PLAGUE_TROOPS)
    state, _ = cast(state, False, False, False, False)
    draft, _ = run(state, C.choose_plague, C.PlagueLosses(player=1, removals={"N05": {"cavalry": 2}}, lock=False))
    assert C.timeout_council(draft, 1) == C.PlagueLosses(player=1, removals={"N05": {"cavalry": 2}})
    assert C.timeout_council(draft, 2) == C.PlagueLosses(player=2)
    uprising = voting("EV5", dice=(9, 8, 7, 6), troops=UPRISING_TROOPS, stock={1: {"grain": 2}, 2: {"grain": 1}})
    uprising, _ = cast(uprising, True, True, True, True)
    paid, _ = run(uprising, C.pay_uprising, C.UprisingPayment(player=1, pay=["N05"], lock=False))
    assert C.timeout_council(paid, 1) == C.UprisingPayment(player=1, pay=["N05"])
    assert C.timeout_council(paid, 2) == C.UprisingPayment(player=2)


@pytest.mark.rule("BM-VIC-4", "BM-VAL-4")
def test_after_the_game_every_command_is_in_the_wrong_phase() -> None:
    from engine.core.turns import Resign
    from engine.games.battlemist.rules import apply

    over = position(FOUR, phase=Phase.GAME_OVER, active=None, winners=[2], hands={1: ["AC01"]})
    before = snapshot(over)
    for action in (C.Vote(player=1, commit=True), C.DiscardCard(player=1, card="AC01"), Resign(player=3)):
        with pytest.raises(RuleError) as info:
            apply(over, action)
        assert info.value.code == "BM_E_WRONG_PHASE", action
        assert info.value.message == "That is not possible now: the game is in game over/final ranking."
    assert snapshot(over) == before


@pytest.mark.rule("BM-VIC-2", "BM-VIC-3")
def test_the_final_ranking_follows_the_victory_order_counting_the_homeland() -> None:
    from engine.games.battlemist import ruleset

    stars = {1: Stars(owned=1), 2: Stars(owned=2), 3: Stars(owned=3), 4: Stars(owned=2)}
    troops = {"N05": {2: {"infantry": 1}}, "N08": {4: {"infantry": 1}}, "N09": {4: {"infantry": 1}},
              "H-KHR": {1: {"infantry": 1}}}
    state = position(FOUR, phase=Phase.GAME_OVER, active=None, winners=[3], stars=stars, troops=troops,
                     occupied={"H-KHR": 1})
    assert [C.regions_held(state, pid) for pid in FOUR_IDS] == [1, 2, 1, 2]
    assert ruleset.ranking(state) == [3, 2, 4, 1]
