"""Battlemist's legal choices and buttons: in positions random and baseline games reach, every control is an
action `apply` accepts, and the values autocomplete offers for a field are exactly those it accepts there."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import RuleError
from engine.core.i18n import Msg, translate
from engine.core.models import Event, to_json
from engine.games import NAMES
from engine.games.battlemist import ai, economy, legal, movement, ruleset
from engine.games.battlemist.data import ARMY, RACES, load
from engine.games.battlemist.economy import EconOrders
from engine.games.battlemist.pieces import UNIT_KINDS
from engine.games.battlemist.state import BMOptions, BMState, Phase
from tests.engine.battlemist.ai_kit import RULES, seats
from tests.engine.battlemist.helpers import position, snapshot
from tests.engine.legality import Fields, check_choices, check_controls, play_and_check

DATA = load()
IDS = list(DATA.map.ids)
CARDS = sorted(DATA.cards.actions_by_id)
SPELLS = [s.id for s in DATA.cards.spells]


def seat_ids(state: BMState) -> list[int]:
    return [p.id for p in state.players]


FIELDS: Fields = {
    "move": {"origin": {"candidates": IDS}, "unit": {"candidates": list(UNIT_KINDS)}},
    "battle": {"region": {"candidates": IDS}},
    "hero_move": {"hero": {"candidates": [1, 2, 3]}},
    "vote": {"commit": {"candidates": [True, False]}},
    "pick_race": {"race": {"candidates": list(RACES)}},
    "battle_play": {"card": {"candidates": CARDS}},
    "battle_cast": {"spell": {"candidates": SPELLS}},
    "encounter_hero": {"hero": {"candidates": [1, 2, 3]}},
    "encounter_target": {"foe": {"candidates": list(range(6))}},
    "initiative": {"change": {"candidates": list(range(-4, 5))}},
    "plunder": {"yes": {"candidates": [True, False]}},
    "trade_answer": {"accept": {"candidates": [True, False]}},
    "move_play": {"card": {"candidates": CARDS}},
    "move_cast": {"spell": {"candidates": SPELLS}},
    "individual_play": {"card": {"candidates": CARDS}, "target": {"candidates": lambda s, _: seat_ids(s)}},
    "individual_cast": {"spell": {"candidates": SPELLS}, "target": {"candidates": lambda s, _: seat_ids(s)}},
}


def worded(label: Msg) -> str:
    text = translate(label.key, **label.params)
    assert text != label.key and "{" not in text, (label, text)
    return text


def check_labels(state: BMState) -> None:
    """Every button and menu is worded by the catalogue, and a decision shows at most 25 of them, each menu at
    most 25 options (Discord's limits)."""
    for pid in dict.fromkeys(d.player for d in ruleset.pending(state)):
        shown = legal.controls(state, pid)
        assert len(shown) <= 25
        for control in shown:
            worded(control.label)
            assert len(control.options) <= 25
            for option in control.options:
                worded(option.label)


def checked_game(options: BMOptions, players: int, seed: int, every: int = 2) -> tuple[int, int, set[str]]:
    """A game of baseline and random seats; every few positions the controls and the choices are checked."""
    state, _ = ruleset.new_game(seats(players), options, seed)
    policies = {k: ai.BaselinePolicy() if k % 2 else ai.RandomPolicy() for k in range(1, players + 1)}
    rng = random.Random(seed)
    counts = [0, 0]
    kinds: set[str] = set()
    recent: list[Event] = []
    for _ in range(3000):
        if state.phase is Phase.GAME_OVER:
            break
        decision = ruleset.pending(state)[0]
        action = policies[decision.player].choose(state, decision.player, rng)
        if state.seq % every == 0:
            kinds |= {d.kind for d in ruleset.pending(state)}
            check_labels(state)
            counts[0] += check_controls(RULES, state, recent)
            counts[1] += check_choices(RULES, FIELDS, state, action)
        state, recent = RULES.apply(state, action)
    assert state.phase is Phase.GAME_OVER
    return counts[0], counts[1], kinds


@pytest.mark.rule("BM-DIG-13", "BM-DIG-6", "BM-DIG-7")
@pytest.mark.parametrize(("options", "players", "seed"), [
    (BMOptions(round_cap=3), 3, 1),
    (BMOptions(round_cap=3, board="build", races="draft", player_trades=True), 4, 2),
    (BMOptions(round_cap=4, player_trades=True), 2, 3),
])
def test_every_control_and_choice_is_accepted_and_nothing_accepted_is_left_out(options: BMOptions, players: int,
                                                                               seed: int) -> None:
    controls, choices, kinds = checked_game(options, players, seed)
    assert controls > 50 and choices > 20, (controls, choices)
    assert {"econ_orders", "move", "upkeep", "econstart", "bm_hero_moves"} <= kinds


def movement_position() -> BMState:
    return position(troops={"N01": {1: {"infantry": 2, "cavalry": 1}}, "N02": {2: {"infantry": 1}}},
                    movement=movement.MoveStep(player=1))


@pytest.mark.rule("BM-DIG-13", "BM-DIG-12")
def test_path_autocomplete_offers_exactly_the_legal_next_hops() -> None:
    state = movement_position()
    before = snapshot(state)
    for unit in ARMY:
        if not state.units("N01", 1).get(unit):
            continue
        for path in ([], *([hop] for hop in movement.next_hops(state, 1, unit, "N01"))):
            offered = [c.value for c in legal.choices(state, 1, "move.path", origin="n01", unit=unit, path=path)]
            assert offered == movement.next_hops(state, 1, unit, "N01", path)
            for hop in IDS:
                move = movement.Move(player=1, n=1, unit=unit, origin="N01", path=(*path, hop))  # type: ignore[arg-type]
                assert legal.accepted(state, move) == (hop in offered), (unit, path, hop)
    assert snapshot(state) == before
    typed = legal.choices(state, 1, "move.path", origin="N01", unit="cav", path="N02")
    assert [c.value for c in typed] == movement.next_hops(state, 1, "cavalry", "N01", ["N02"])
    assert legal.choices(state, 1, "move.path", origin="N01", unit="infantry", path=["N99"]) == []


@pytest.mark.rule("BM-DIG-13")
def test_origins_and_units_are_only_those_that_may_still_move() -> None:
    state = movement_position()
    origins = [c.value for c in legal.choices(state, 1, "move.origin", n=1, unit="infantry", path=["N02"])]
    assert origins == ["N01"]
    units = [c.value for c in legal.choices(state, 1, "move.unit", n=1, origin="N01", path=["N02"])]
    assert units == ["infantry", "cavalry"]
    state, _ = RULES.apply(state, movement.Move(player=1, n=2, unit="infantry", origin="N01", path=("N02",)))
    units = [c.value for c in legal.choices(state, 1, "move.unit", n=1, origin="N01", path=["N02"])]
    assert units == ["cavalry"], "units that moved this step are not offered again"
    assert legal.choices(state, 2, "move.origin", n=1, unit="infantry", path=["N01"]) == []


def play_until(kind: str, seed: int, players: int = 3) -> BMState:
    """A baseline game up to the first decision of `kind` (for seat 1, any seat for reactions)."""
    state, _ = ruleset.new_game(seats(players), BMOptions(round_cap=4), seed)
    rng = random.Random(seed)
    baseline = ai.BaselinePolicy()
    while not any(d.kind == kind for d in ruleset.pending(state)):
        assert state.phase is not Phase.GAME_OVER, f"no {kind} decision came"
        player = ruleset.pending(state)[0].player
        state, _ = RULES.apply(state, baseline.choose(state, player, rng))
    return state


@pytest.mark.rule("BM-DIG-13")
def test_hero_path_autocomplete_offers_exactly_the_legal_next_hops() -> None:
    state = play_until("bm_hero_moves", 3)
    pid = state.active
    assert pid is not None
    for hero in state.heroes_of(pid):
        offered = [c.value for c in legal.choices(state, pid, "hero_move.path", hero=hero.number, path=[])]
        assert offered, "a hero can always go somewhere"
        for region in IDS:
            move = ruleset.quest.HeroMove(player=pid, hero=hero.number, path=[region])
            assert legal.accepted(state, move) == (region in offered), region
        longer = [c.value for c in legal.choices(state, pid, "hero_move.path", hero=hero.number,
                                                 path=[offered[0]])]
        assert longer == legal.hero_hops(state, pid, hero.number, [offered[0]])


@pytest.mark.rule("BM-DIG-6", "BM-VAL-3", "BM-REC-2")
def test_an_order_lines_regions_are_those_where_the_line_would_be_valid() -> None:
    state = play_until("econ_orders", 5)
    recruit = [c.value for c in legal.choices(state, 1, "econ_orders.recruit", unit="infantry", n=1)]
    assert state.homeland(1) in recruit
    for region in IDS:
        lines = (economy.Recruit(unit="infantry", region=region),)
        assert legal.accepted(state, EconOrders(player=1, lines=lines)) == (region in recruit), region
    assert legal.choices(state, 1, "econ_orders.recruit", unit="infantry", n=99) == []
    built = [c.value for c in legal.choices(state, 1, "econ_orders.build", city="city")]
    for region in IDS:
        lines = (economy.Build(region=region),)
        assert legal.accepted(state, EconOrders(player=1, lines=lines)) == (region in built), region


@pytest.mark.rule("BM-DIG-6", "BM-DIG-7")
def test_the_order_builder_locks_the_draft_as_it_stands_or_no_orders() -> None:
    state, _ = ruleset.new_game(seats(2), BMOptions(round_cap=2), 4)
    rng = random.Random(4)
    while state.phase is not Phase.ORDERS:
        player = ruleset.pending(state)[0].player
        state, _ = RULES.apply(state, ai.RandomPolicy().choose(state, player, rng))
    draft = (economy.Recruit(unit="infantry", region=state.homeland(1)),)
    state, _ = RULES.apply(state, EconOrders(player=1, lines=draft))
    shown = [c.action for c in legal.controls(state, 1)]
    assert to_json(EconOrders(player=1, lines=draft, lock=True)) | {"player": 1} in [a | {"player": 1} for a in shown]
    assert {"type": "econ_orders", "lines": [], "lock": True} in shown
    locked, _ = RULES.apply(state, RULES.parse_action(shown[0] | {"player": 1}))
    assert ruleset.pending(locked) == [d for d in ruleset.pending(locked) if d.player != 1]


@pytest.mark.rule("BM-CMB-23", "BM-A-6")
def test_the_casualty_menu_lists_combats_legal_assignments_and_each_is_accepted() -> None:
    state, _ = ruleset.new_game(seats(4), BMOptions(round_cap=8), 11)
    rng = random.Random(11)
    policies = {k: ai.BaselinePolicy() if k % 2 else ai.RandomPolicy() for k in range(1, 5)}
    seen = 0
    while state.phase is not Phase.GAME_OVER and seen < 3:
        decision = ruleset.pending(state)[0]
        if decision.kind == "casualties":
            menu = [c for c in legal.controls(state, decision.player) if c.options]
            assert menu and menu[0].action["type"] == "casualties"
            assert [o.action["kills"] for o in menu[0].options] == [k for k, _ in
                                                                    legal.casualty_options(state, decision.player)]
            seen += 1
        state, _ = RULES.apply(state, policies[decision.player].choose(state, decision.player, rng))
    assert seen, "no battle asked for casualties"


@pytest.mark.rule("BM-VAL-1", "BM-VAL-4")
def test_a_refused_candidate_changes_nothing_and_is_told_in_the_catalogues_words() -> None:
    """Over a game, every candidate action `apply` refuses leaves the state as it was, with an error code the
    catalogue words completely from the parameters the rules give."""
    state, _ = ruleset.new_game(seats(3), BMOptions(round_cap=3, player_trades=True), 8)
    rng = random.Random(8)
    codes: set[str] = set()
    while state.phase is not Phase.GAME_OVER:
        player = ruleset.pending(state)[0].player
        before = snapshot(state)
        for action in legal.candidates(state, player)[:40]:
            try:
                RULES.apply(state, action)
            except RuleError as err:
                text = translate(err.code, **err.params)
                assert text != err.code and "{" not in text, (err.code, err.params, text)
                codes.add(err.code)
        assert snapshot(state) == before
        state, _ = RULES.apply(state, ai.RandomPolicy().choose(state, player, rng))
    assert len(codes) >= 5, codes


@pytest.mark.skipif("battlemist" not in NAMES, reason="the game is registered only by the REGISTER commit")
@pytest.mark.parametrize(("options", "players", "seed"), [
    (BMOptions(round_cap=3), 3, 1), (BMOptions(round_cap=3, board="build", races="draft"), 4, 2),
])
def test_battlemist_offers_only_what_the_rules_accept(options: BMOptions, players: int, seed: int) -> None:
    controls, choices = play_and_check("battlemist", FIELDS, options, players, seed)
    assert controls > 10 and choices > 10, (controls, choices)


@pytest.mark.rule("BM-MOV-8", "BM-WIN-1", "BM-DIG-6")
def test_the_movement_panel_offers_the_w_movestart_plays_then_only_w_individual_ones() -> None:
    """Forced March and Swift Winds on each region his units may start from, Pathfinders on none, while
    W-MOVESTART is open; Spy and Far Sight on each other player all through his turn."""
    from engine.games.battlemist import windows
    from engine.games.battlemist.pieces import Stars

    state = position(("DAQ", "ORC", "ELF"), troops={"N20": {1: {"infantry": 2}}, "N05": {1: {"dragon": 1}}},
                     hands={1: ["AC02", "AC03", "AC15"], 2: [], 3: []},
                     stars={1: Stars(owned=2), 2: Stars(owned=1), 3: Stars(owned=1)},
                     movement=movement.MoveStep(player=1))
    menus = {c.label.key: [o.action for o in c.options] for c in legal.controls(state, 1) if c.options}
    assert [(a["card"], a["region"]) for a in menus["bm.menu.move_play"]] == [
        ("AC02", "N05"), ("AC02", "N20"), ("AC03", None)]
    assert [(a["spell"], a["region"]) for a in menus["bm.menu.move_cast"]] == [
        ("SP02", "N05"), ("SP02", "N20"), ("SP03", "N05"), ("SP03", "N20")]
    assert [(a["type"], a.get("card") or a.get("spell"), a["target"]) for a in menus["bm.menu.spy"]] == [
        ("individual_play", "AC15", 2), ("individual_play", "AC15", 3), ("individual_cast", "SP08", 2),
        ("individual_cast", "SP08", 3)]
    labels = [translate(o.label.key, **o.label.params) for c in legal.controls(state, 1) for o in c.options]
    assert "Forced March (AC02) on the units starting in N20 Kingsfield" in labels and "Pathfinders (AC03)" in labels
    assert "Spy (AC15): look at P2's hand and quest" in labels
    moved, _ = RULES.apply(state, movement.Move(player=1, n=1, unit="infantry", origin="N20", path=("N11",)))
    menus = {c.label.key for c in legal.controls(moved, 1) if c.options}
    assert menus == {"bm.menu.spy"}
    assert legal.controls(moved, 2) == [] and not legal.individual_candidates(moved, 2)
    assert windows.IndividualPlay(player=1, card="AC15", target=2) in legal.candidates(moved, 1)
