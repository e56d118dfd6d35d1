"""Cards: the deck, valid sets, trade values, trading windows, the +2 bonus and the draw (RISK-CARD-*)."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from engine.games.risk import RULESET, pending
from engine.games.risk.rules import is_valid_set, set_value, valid_sets
from engine.games.risk.state import RiskState
from tests.engine.risk.helpers import (
    BOARD,
    IDS,
    NEUTRAL,
    P1,
    P2,
    P3,
    Interrupt,
    Phase,
    new,
    of_type,
    play,
    position,
    rejects,
)

# Card symbols (data/risk/classic.json) and default 3-player owners (round-robin in table order):
# P1: alaska (inf), alberta (cav), western_united_states (art), venezuela (inf), argentina (inf), egypt (inf)
# P2: peru (inf), iceland (inf), ontario (cav), northwest_territory (art), china (inf), ukraine (cav)
# P3: kamchatka (inf), greenland (cav), brazil (art), japan (art), quebec (cav)
FOREIGN_INFANTRY = ["peru", "iceland", "kamchatka"]  # three Infantry, none owned by P1
FOREIGN_MIXED = ["peru", "ontario", "northwest_territory"]  # one of each symbol, none owned by P1


def trade(cards: list[str], bonus: str | None = None, player: int = P1) -> tuple[Any, ...]:
    fields: dict[str, Any] = {"cards": cards}
    if bonus is not None:
        fields["bonus"] = bonus
    return ("trade", player, fields)


def traded(events: list[Any]) -> Any:
    (event,) = of_type(events, "cards_traded")
    return event


@cache
def after_setup(mode: str) -> RiskState:
    """A game played through setup (dealt, simultaneous placement) up to turn 1."""
    s = new(3, seed=11, mode=mode, setup="random_deal", setup_placement="simultaneous")
    while s.phase is Phase.SETUP_PLACE:
        for decision in pending(s):
            for act in RULESET.timeout_actions(s, decision.player):
                s, _ = play(s, act)
    assert s.phase is Phase.REINFORCE
    return s


def hand_of(symbols: dict[str, int]) -> list[str]:
    """Distinct cards with the given numbers of each symbol ("wild" for wild cards), in table order."""
    cards: list[str] = []
    for symbol, n in symbols.items():
        pool = BOARD.wild_cards if symbol == "wild" else [t for t in IDS if BOARD.symbols[t] == symbol]
        cards.extend(pool[:n])
    return cards


# ---------------------------------------------------------------- the deck


@pytest.mark.rule("RISK-CARD-1")
def test_one_territory_card_per_territory_with_its_symbol() -> None:
    territory_cards = [c for c in after_setup("standard").deck if c not in BOARD.wild_cards]
    assert sorted(territory_cards) == sorted(IDS)
    assert len(territory_cards) == 42
    for t in IDS:
        assert BOARD.is_card(t)
        assert BOARD.card_symbol(t) == BOARD.territory[t].symbol
    assert Counter(BOARD.card_symbol(t) for t in IDS) == {"infantry": 14, "cavalry": 14, "artillery": 14}


@pytest.mark.rule("RISK-CARD-2")
def test_two_wild_cards_without_territory() -> None:
    assert BOARD.wild_cards == ["wild_1", "wild_2"]
    for w in BOARD.wild_cards:
        assert BOARD.is_card(w)
        assert w not in BOARD.territory
        assert BOARD.card_symbol(w) == "wild"
        assert w in after_setup("standard").deck
    # A wild stands for each of the three symbols.
    for symbol in ("infantry", "cavalry", "artillery"):
        two = hand_of({symbol: 2})
        assert is_valid_set(BOARD, [*two, "wild_1"])


@pytest.mark.rule("RISK-CARD-3", "RISK-CARD-4")
@pytest.mark.parametrize("mode", ["standard", "secret_mission"])
def test_draw_deck_holds_the_44_territory_and_wild_cards_only(mode: str) -> None:
    s = after_setup(mode)
    assert len(s.deck) == 44
    assert set(s.deck) == set(IDS) | set(BOARD.wild_cards)
    assert s.discard == []
    assert all(hand == [] for hand in s.hands.values())
    mission_ids = {m.id for m in BOARD.missions}
    assert not mission_ids & set(s.deck)
    if mode == "secret_mission":
        assert set(s.missions) == {P1, P2, P3}
        assert set(s.missions.values()) <= mission_ids
    else:
        assert s.missions == {}


@pytest.mark.rule("RISK-CARD-5")
def test_traded_cards_go_face_up_to_the_discard_pile() -> None:
    s = position(3, hands={P1: [*FOREIGN_INFANTRY, "wild_1"]}, discard=["japan"])
    s, events = play(s, trade(["kamchatka", "peru", "iceland"]))
    assert s.hands[P1] == ["wild_1"]
    assert s.discard == ["japan", "kamchatka", "peru", "iceland"]
    event = traded(events)
    assert event.private_to is None  # announced publicly
    assert event.cards == ["kamchatka", "peru", "iceland"]


# ---------------------------------------------------------------- valid sets


@pytest.mark.rule("RISK-CARD-6")
@pytest.mark.parametrize(
    "symbols",
    [
        {"infantry": 3},
        {"cavalry": 3},
        {"artillery": 3},
        {"infantry": 1, "cavalry": 1, "artillery": 1},
        {"infantry": 2, "wild": 1},
        {"cavalry": 1, "artillery": 1, "wild": 1},
    ],
)
def test_valid_sets_can_be_traded(symbols: dict[str, int]) -> None:
    cards = hand_of(symbols)
    s = position(3, hands={P1: [*cards, "japan"]})
    s, events = play(s, trade(cards))
    assert s.hands[P1] == ["japan"]
    assert (s.sets_traded, s.pool) == (1, 4)
    assert traded(events).value == 4


@pytest.mark.rule("RISK-CARD-6")
@pytest.mark.parametrize(
    "symbols",
    [
        {"infantry": 2, "cavalry": 1},
        {"cavalry": 2, "artillery": 1},
        {"artillery": 2, "infantry": 1},
    ],
)
def test_two_of_a_symbol_and_one_other_is_not_a_set(symbols: dict[str, int]) -> None:
    cards = hand_of(symbols)
    s = position(3, hands={P1: cards})
    rejects(s, trade(cards), "E_INVALID_SET")
    assert not is_valid_set(BOARD, cards)


@pytest.mark.rule("RISK-CARD-6")
@pytest.mark.parametrize(
    "cards",
    [
        ["peru", "iceland"],
        ["peru", "iceland", "kamchatka", "china"],
        ["peru", "peru", "iceland"],
        ["peru", "Peru", "iceland"],
    ],
)
def test_a_set_is_exactly_three_distinct_cards(cards: list[str]) -> None:
    s = position(3, hands={P1: ["peru", "iceland", "kamchatka", "china"]})
    rejects(s, trade(cards), "E_SET_SIZE")


@pytest.mark.rule("RISK-CARD-6")
def test_a_set_comes_from_the_traders_own_hand() -> None:
    s = position(3, hands={P1: ["peru", "iceland"], P2: ["kamchatka"]})
    err = rejects(s, trade(FOREIGN_INFANTRY), "E_CARD_NOT_IN_HAND")
    assert "Kamchatka" in err.message
    # The hand is checked before the set: Kamchatka is missing, and Peru-Ontario-Kamchatka is no set either.
    s = position(3, hands={P1: ["peru", "iceland", "ontario"]})
    rejects(s, trade(["peru", "ontario", "kamchatka"]), "E_CARD_NOT_IN_HAND")


@pytest.mark.rule("RISK-CARD-7")
@pytest.mark.parametrize("third", ["peru", "ontario", "northwest_territory"])
def test_two_wilds_and_any_card_are_a_set(third: str) -> None:
    cards = ["wild_1", "wild_2", third]
    s = position(3, hands={P1: cards})
    s, events = play(s, trade(cards))
    assert (s.hands[P1], s.sets_traded, s.pool) == ([], 1, 4)
    assert sorted(traded(events).cards) == sorted(cards)


@pytest.mark.rule("RISK-CARD-8")
def test_any_five_cards_contain_a_valid_set() -> None:
    kinds = ("infantry", "cavalry", "artillery", "wild")
    hands = 0
    for combo in itertools.combinations_with_replacement(kinds, 5):
        count = Counter(combo)
        if count["wild"] > 2:
            continue
        hand = hand_of(dict(count))
        assert len(hand) == 5
        sets = valid_sets(BOARD, hand)
        assert sets, f"no set in {hand}"
        # The forced trade can be made in play: the first set found is accepted.
        s = position(3, hands={P1: hand})
        s, _ = play(s, trade(list(sets[0])))
        assert len(s.hands[P1]) == 2
        hands += 1
    assert hands == 46


# ---------------------------------------------------------------- values


@pytest.mark.rule("RISK-CARD-9")
def test_values_follow_the_global_count_of_sets() -> None:
    s = position(3, hands={P1: FOREIGN_INFANTRY, P2: ["alberta", "greenland", "quebec"]})
    s, events = play(s, trade(FOREIGN_INFANTRY))
    assert (traded(events).value, s.sets_traded) == (4, 1)
    s, _ = play(s, ("place", P1, {"territory": "alaska", "count": 4}))
    s, _ = play(s, ("end_turn", P1))
    assert s.current == P2
    # P2's first set is the second of the game.
    s, events = play(s, trade(["alberta", "greenland", "quebec"], player=P2))
    assert (traded(events).value, s.sets_traded) == (6, 2)


@pytest.mark.rule("RISK-CARD-10", "RISK-CARD-11")
@pytest.mark.parametrize(
    ("already", "value"),
    [(0, 4), (1, 6), (2, 8), (3, 10), (4, 12), (5, 15), (6, 20), (7, 25), (8, 30), (9, 35), (12, 50)],
)
def test_set_values(already: int, value: int) -> None:
    s = position(3, pool=0, sets_traded=already, hands={P1: FOREIGN_MIXED})
    s, events = play(s, trade(FOREIGN_MIXED))
    assert (s.pool, s.sets_traded) == (value, already + 1)
    assert (traded(events).value, traded(events).sets_traded) == (value, already + 1)
    assert set_value(BOARD, already + 1) == value


# ---------------------------------------------------------------- when to trade


@pytest.mark.rule("RISK-CARD-12", "RISK-CARD-13")
@pytest.mark.parametrize("placed", [0, 1, 3])
def test_trading_before_between_or_after_placements(placed: int) -> None:
    s = position(3, pool=3, hands={P1: FOREIGN_INFANTRY})
    if placed:
        s, _ = play(s, ("place", P1, {"territory": "alaska", "count": placed}))
    s, _ = play(s, trade(FOREIGN_INFANTRY))
    assert (s.phase, s.pool, s.sets_traded) == (Phase.REINFORCE, 3 - placed + 4, 1)


@pytest.mark.rule("RISK-CARD-12")
def test_no_trading_after_the_first_attack() -> None:
    s = position(3, hands={P1: FOREIGN_INFANTRY}, armies={"alaska": 4, "kamchatka": 3})
    # A refused attack changes nothing: the trading window stays open.
    rejects(s, ("attack", P1, {"source": "alaska", "target": "japan"}), "E_NOT_ADJACENT")
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[1, 1, 1, 6, 6])
    assert s.phase is Phase.ATTACK
    rejects(s, trade(FOREIGN_INFANTRY), "E_TRADE_NOT_NOW")
    s, _ = play(s, ("end_attack", P1))
    rejects(s, trade(FOREIGN_INFANTRY), "E_TRADE_NOT_NOW")


@pytest.mark.rule("RISK-CARD-13")
def test_a_trade_adds_its_value_to_the_pool() -> None:
    s = position(3, pool=2, sets_traded=3, hands={P1: FOREIGN_MIXED})
    s, events = play(s, trade(FOREIGN_MIXED))
    assert (s.pool, s.sets_traded) == (12, 4)
    assert traded(events).player == P1


@pytest.mark.rule("RISK-CARD-14")
def test_five_cards_force_a_trade_before_placing() -> None:
    hand = [*FOREIGN_INFANTRY, "ontario", "japan"]
    s = position(3, pool=3, hands={P1: hand})
    err = rejects(s, ("place", P1, {"territory": "alaska", "count": 1}), "E_MUST_TRADE")
    assert err.params["n"] == 5
    s, _ = play(s, trade(FOREIGN_INFANTRY))
    assert s.hands[P1] == ["ontario", "japan"]
    s, _ = play(s, ("place", P1, {"territory": "alaska", "count": 7}))
    assert (s.armies["alaska"], s.pool) == (10, 0)


@pytest.mark.rule("RISK-CARD-14")
def test_the_forced_trade_continues_until_four_or_fewer() -> None:
    # Not reachable at a real turn start, but it shows the rule is "until ≤ 4", not "one set".
    hand = [*FOREIGN_INFANTRY, *FOREIGN_MIXED[1:], "greenland", "quebec", "brazil"]
    s = position(3, hands={P1: hand})
    assert len(hand) == 8
    s, _ = play(s, trade(FOREIGN_INFANTRY))
    rejects(s, ("place", P1, {"territory": "alaska", "count": 1}), "E_MUST_TRADE")
    rejects(s, ("end_turn", P1), "E_MUST_TRADE")
    s, _ = play(s, trade(["ontario", "greenland", "quebec"]))
    assert len(s.hands[P1]) == 2
    s, _ = play(s, ("place", P1, {"territory": "alaska", "count": 10}))
    assert s.pool == 0


@pytest.mark.rule("RISK-CARD-15")
@pytest.mark.parametrize("second_trade", [False, True])
def test_below_five_cards_a_second_trade_is_optional(second_trade: bool) -> None:
    cavalry = ["ontario", "greenland", "quebec"]
    s = position(3, hands={P1: [*FOREIGN_INFANTRY, *cavalry]})
    s, _ = play(s, trade(FOREIGN_INFANTRY))
    assert s.hands[P1] == cavalry
    if second_trade:
        s, events = play(s, trade(cavalry))
        assert traded(events).value == 6
        assert (s.hands[P1], s.pool) == ([], 10)
    else:
        s, _ = play(s, ("place", P1, {"territory": "alaska", "count": 4}))
        s, _ = play(s, ("end_turn", P1))
        assert (s.current, s.hands[P1]) == (P2, cavalry)


# ---------------------------------------------------------------- the +2 territory bonus


@pytest.mark.rule("RISK-CARD-16", "RISK-CARD-18")
def test_an_owned_territory_on_a_traded_card_gets_two_armies() -> None:
    s = position(3, pool=1, hands={P1: ["venezuela", "peru", "iceland"]})
    s, events = play(s, trade(["peru", "venezuela", "iceland"]))
    assert s.armies["venezuela"] == 5
    assert s.pool == 1 + 4  # the +2 does not go through the pool
    assert s.card_bonus_taken is True
    assert traded(events).bonus_territory == "venezuela"
    assert {t: n for t, n in s.armies.items() if n != 3} == {"venezuela": 5}


@pytest.mark.rule("RISK-CARD-16")
def test_cards_of_other_players_or_neutral_territories_give_no_bonus() -> None:
    s = position(3, owner={"iceland": NEUTRAL}, hands={P1: FOREIGN_INFANTRY})
    s, events = play(s, trade(FOREIGN_INFANTRY))
    assert traded(events).bonus_territory is None
    assert s.card_bonus_taken is False
    assert s.pool == 4
    assert all(n == 3 for n in s.armies.values())


@pytest.mark.rule("RISK-CARD-17")
def test_only_one_bonus_per_turn() -> None:
    s = position(3, hands={P1: ["alaska", "peru", "iceland", "venezuela", "kamchatka", "argentina"]})
    s, events = play(s, trade(["alaska", "peru", "iceland"]))
    assert (traded(events).bonus_territory, s.armies["alaska"], s.card_bonus_taken) == ("alaska", 5, True)
    s, events = play(s, trade(["venezuela", "kamchatka", "argentina"]))
    assert traded(events).bonus_territory is None
    assert (s.armies["venezuela"], s.armies["argentina"], s.pool) == (3, 3, 4 + 6)


@pytest.mark.rule("RISK-CARD-17")
def test_a_trade_without_bonus_does_not_use_up_the_turns_bonus() -> None:
    s = position(3, hands={P1: [*FOREIGN_MIXED, "alaska", "venezuela", "argentina"]})
    s, _ = play(s, trade(FOREIGN_MIXED))
    assert s.card_bonus_taken is False
    s, events = play(s, trade(["alaska", "venezuela", "argentina"]))
    assert (traded(events).bonus_territory, s.armies["alaska"], s.card_bonus_taken) == ("alaska", 5, True)


@pytest.mark.rule("RISK-CARD-17")
def test_the_bonus_is_available_again_next_turn() -> None:
    s = position(3, phase=Phase.FORTIFY, current=P3, card_bonus_taken=True, hands={P1: ["alaska", "peru", "iceland"]})
    s, _ = play(s, ("end_turn", P3))
    assert (s.current, s.card_bonus_taken) == (P1, False)
    s, events = play(s, trade(["alaska", "peru", "iceland"]))
    assert (traded(events).bonus_territory, s.armies["alaska"]) == ("alaska", 5)


def elimination_window(hand: list[str], bonus_taken: bool) -> RiskState:
    """P1 has just eliminated P3 (whose territories are now P1's) and must trade down to 4 cards."""
    owner = {t: P1 for t, o in position(3).owner.items() if o == P3}
    return position(
        3, owner=owner, eliminated=(P3,), phase=Phase.ATTACK, hands={P1: hand},
        interrupt=Interrupt(kind="elim_trade", eliminated=P3), card_bonus_taken=bonus_taken,
    )


@pytest.mark.rule("RISK-CARD-17")
def test_a_bonus_taken_earlier_in_the_turn_blocks_it_in_elimination_trades() -> None:
    hand = ["alaska", "venezuela", "argentina", "peru", "ontario", "northwest_territory"]
    s = elimination_window(hand, bonus_taken=True)
    s, events = play(s, trade(["alaska", "venezuela", "argentina"]))
    assert traded(events).bonus_territory is None
    assert (s.armies["alaska"], s.armies["venezuela"], s.armies["argentina"]) == (3, 3, 3)
    assert s.pool == 4
    assert s.interrupt is not None and s.interrupt.kind == "elim_place"


@pytest.mark.rule("RISK-CARD-17")
def test_elimination_trades_give_at_most_one_bonus() -> None:
    # 8 cards: two elimination trades (8 → 5 → 2), both with cards of P1's own territories.
    hand = ["alaska", "venezuela", "argentina", "peru", "ontario", "northwest_territory", "egypt", "kamchatka"]
    s = elimination_window(hand, bonus_taken=False)
    s, events = play(s, trade(["alaska", "venezuela", "argentina"]))
    assert (traded(events).bonus_territory, s.armies["alaska"], s.card_bonus_taken) == ("alaska", 5, True)
    assert s.interrupt is not None and s.interrupt.kind == "elim_trade"
    s, events = play(s, trade(["egypt", "kamchatka", "peru"]))  # Kamchatka was P3's, now P1's
    assert traded(events).bonus_territory is None
    assert (s.armies["egypt"], s.armies["kamchatka"], s.pool) == (3, 3, 4 + 6)
    assert s.interrupt is not None and s.interrupt.kind == "elim_place"


@pytest.mark.rule("RISK-CARD-19")
def test_the_player_may_name_the_bonus_territory() -> None:
    cards = ["alaska", "venezuela", "argentina"]
    s = position(3, hands={P1: cards})
    s2, events = play(s, trade(cards, bonus="argentina"))
    assert traded(events).bonus_territory == "argentina"
    assert (s2.armies["alaska"], s2.armies["venezuela"], s2.armies["argentina"]) == (3, 3, 5)
    # A territory name works as well as an id.
    s2, events = play(s, trade(cards, bonus="Venezuela"))
    assert (traded(events).bonus_territory, s2.armies["venezuela"]) == ("venezuela", 5)


@pytest.mark.rule("RISK-CARD-19")
@pytest.mark.parametrize("bonus", ["alberta", "peru"])
def test_the_named_bonus_must_be_an_owned_territory_on_a_traded_card(bonus: str) -> None:
    # Alberta is P1's but not on a traded card; Peru is on a traded card but P2's.
    s = position(3, hands={P1: ["alaska", "venezuela", "peru"]})
    err = rejects(s, trade(["alaska", "venezuela", "peru"], bonus=bonus), "E_BONUS_CHOICE")
    assert "Alaska" in err.message and "Venezuela" in err.message


@pytest.mark.rule("RISK-CARD-20")
@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (["peru", "argentina", "venezuela"], "argentina"),
        (["venezuela", "peru", "argentina"], "venezuela"),
        (["peru", "iceland", "argentina"], "argentina"),
    ],
)
def test_without_a_choice_the_first_matching_card_listed_gets_the_bonus(order: list[str], expected: str) -> None:
    s = position(3, hands={P1: ["peru", "argentina", "venezuela", "iceland"]})
    s, events = play(s, trade(order))
    assert traded(events).bonus_territory == expected
    assert {t: n for t, n in s.armies.items() if n != 3} == {expected: 5}


@pytest.mark.rule("RISK-CARD-21")
@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (["wild_1", "peru", "iceland"], None),
        (["wild_1", "wild_2", "peru"], None),
        (["wild_2", "alaska", "peru"], "alaska"),
    ],
)
def test_wild_cards_never_give_the_bonus(cards: list[str], expected: str | None) -> None:
    s = position(3, hands={P1: cards})
    s, events = play(s, trade(cards))
    assert traded(events).bonus_territory == expected
    assert s.card_bonus_taken is (expected is not None)
    assert s.pool == 4
    changed = {t: n for t, n in s.armies.items() if n != 3}
    assert changed == ({} if expected is None else {expected: 5})


@pytest.mark.rule("RISK-CARD-21")
def test_a_wild_cannot_be_named_as_the_bonus() -> None:
    s = position(3, hands={P1: ["wild_1", "alaska", "peru"]})
    # A wild is not a territory at all, so the name is refused while parsing the arguments.
    rejects(s, trade(["wild_1", "alaska", "peru"], bonus="wild_1"), "E_UNKNOWN_TERRITORY")


# ---------------------------------------------------------------- drawing a card


def leaving(kind: str) -> tuple[Any, ...]:
    return {
        "end_attack": ("end_attack", P1),
        "fortify": ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}),
        "end_turn": ("end_turn", P1),
    }[kind]


@pytest.mark.rule("RISK-CARD-22")
@pytest.mark.parametrize("kind", ["end_attack", "fortify", "end_turn"])
def test_leaving_attack_after_a_conquest_draws_the_top_card(kind: str) -> None:
    s = position(3, phase=Phase.ATTACK, conquered=True, hands={P1: ["peru"]}, deck=["japan", "iceland", "wild_1"])
    s, events = play(s, leaving(kind))
    assert s.hands[P1] == ["peru", "japan"]
    assert s.deck == ["iceland", "wild_1"]
    (drawn,) = of_type(events, "card_drawn")
    assert (drawn.player, drawn.hand_size) == (P1, 2)
    assert s.conquered_this_turn is False


@pytest.mark.rule("RISK-CARD-22")
@pytest.mark.parametrize("kind", ["end_attack", "fortify", "end_turn"])
def test_no_conquest_no_card(kind: str) -> None:
    s = position(3, phase=Phase.ATTACK, deck=["japan", "iceland"])
    s, events = play(s, leaving(kind))
    assert s.hands[P1] == []
    assert s.deck == ["japan", "iceland"]
    assert of_type(events, "card_drawn") == []


@pytest.mark.rule("RISK-CARD-22")
def test_one_card_however_many_territories_were_taken() -> None:
    s = position(3, armies={"alaska": 8, "kamchatka": 1, "japan": 1}, deck=["iceland", "peru", "china"])
    s, _ = play(s, ("attack", P1, {"source": "alaska", "target": "kamchatka"}), dice=[6, 6, 6, 1])
    s, _ = play(s, ("move", P1, {"count": 6}))
    s, _ = play(s, ("attack", P1, {"source": "kamchatka", "target": "japan"}), dice=[6, 6, 6, 1])
    s, _ = play(s, ("move", P1, {"count": 3}))
    assert (s.owner["kamchatka"], s.owner["japan"]) == (P1, P1)
    assert s.hands[P1] == []  # nothing is drawn at the conquests themselves
    s, events = play(s, ("end_attack", P1))
    assert s.hands[P1] == ["iceland"]
    assert s.deck == ["peru", "china"]
    assert len(of_type(events, "card_drawn")) == 1


@pytest.mark.rule("RISK-CARD-23")
def test_an_empty_deck_is_refilled_from_the_shuffled_discard_pile() -> None:
    s = position(3, phase=Phase.ATTACK, conquered=True, deck=[], discard=["japan", "peru", "iceland"])
    s, events = play(s, ("end_attack", P1))
    assert [e.type for e in events] == ["deck_reshuffled", "card_drawn"]
    assert of_type(events, "deck_reshuffled")[0].cards == 3
    assert len(s.hands[P1]) == 1
    assert len(s.deck) == 2
    assert sorted([*s.hands[P1], *s.deck]) == ["iceland", "japan", "peru"]
    assert s.discard == []


@pytest.mark.rule("RISK-CARD-24")
def test_no_card_when_deck_and_discard_are_both_empty() -> None:
    everything = [*IDS, *BOARD.wild_cards]
    hands = {P1: everything[:4], P2: everything[4:24], P3: everything[24:]}
    s = position(3, phase=Phase.ATTACK, conquered=True, deck=[], discard=[], hands=hands)
    s, events = play(s, ("end_attack", P1))
    assert events == []
    assert (s.phase, s.current) == (Phase.FORTIFY, P1)
    assert s.hands == hands
    assert (s.deck, s.discard) == ([], [])


@pytest.mark.rule("RISK-CARD-25")
def test_drawing_a_sixth_card_forces_no_trade_until_next_turn() -> None:
    # Five cards mid-attack are possible after an elimination that left fewer than 6 (RISK-ELIM-8).
    hand = ["peru", "iceland", "kamchatka", "ontario", "northwest_territory"]
    s = position(3, phase=Phase.ATTACK, conquered=True, hands={P1: hand}, deck=["japan"])
    s, _ = play(s, ("end_attack", P1))
    assert len(s.hands[P1]) == 6
    assert (s.phase, s.interrupt) == (Phase.FORTIFY, None)
    (decision,) = pending(s)
    assert (decision.player, decision.kind) == (P1, "fortify")
    s, _ = play(s, ("fortify", P1, {"source": "alaska", "target": "alberta", "count": 1}))
    assert s.current == P2
    # At P1's next turn the forced trade applies.
    s = replace(s, current=P3, phase=Phase.FORTIFY, pool=0)
    s, _ = play(s, ("end_turn", P3))
    (decision,) = pending(s)
    assert (decision.player, decision.kind) == (P1, "trade")
    rejects(s, ("place", P1, {"territory": "alaska", "count": 1}), "E_MUST_TRADE")
