"""The Battlemist position format (docs/battlemist-position.md): the examples, the strict check of a loaded
position, positions reached in play at every step, and the documentation of every field."""

from __future__ import annotations

import copy
import dataclasses
import random
import re
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from engine.core.errors import FormatError
from engine.core.models import Action, Seat, from_json, to_json
from engine.core.rng import Rng
from engine.games.battlemist import combat as C
from engine.games.battlemist import initiative, ruleset
from engine.games.battlemist.ai import POLICIES
from engine.games.battlemist.pieces import CityMark
from engine.games.battlemist.position import check_position
from engine.games.battlemist.quest import DuelHero, EncounterTarget, EndHeroes, HeroMove, QuestPass, pending_quest
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMOptions, BMState, Phase
from engine.positions import read_json
from tests.engine.battlemist.combat_kit import act, combat
from tests.engine.battlemist.helpers import position
from tests.engine.battlemist.quest_helpers import hero, run, step

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "battlemist-position.md").read_text(encoding="utf-8")
EXAMPLES = ROOT / "docs" / "examples"
NAMES = ("battlemist-position.json", "battlemist-battle.json", "battlemist-orders.json")


def example(name: str = "battlemist-position.json") -> Any:
    return read_json(EXAMPLES / name)


def load(data: Any) -> BMState:
    state = from_json(BMState, data)
    check_position(state)
    return state


def stand_ins(state: BMState, limit: int) -> Iterator[BMState]:
    """`state`, then each position its stand-ins' actions reach, up to `limit` actions or the game's end."""
    yield state
    for _ in range(limit):
        if state.phase is Phase.GAME_OVER:
            return
        state, _ = apply(state, ruleset.timeout_action(state, ruleset.pending(state)[0].player))
        yield state


def refused(data: Any) -> FormatError:
    with pytest.raises(FormatError) as err:
        load(data)
    return err.value


# ---------------------------------------------------------------------------------------------------- examples


@pytest.mark.rule("BM-DIG-20")
@pytest.mark.parametrize("name", NAMES)
def test_each_example_loads_passes_the_check_and_round_trips_exactly(name: str) -> None:
    data = example(name)
    state = load(data)
    assert to_json(state) == data
    assert ruleset.pending(state)


def test_the_examples_are_where_the_doc_says() -> None:
    game = load(example())
    assert (game.round, game.phase, game.active) == (3, Phase.MOVEMENT, 202)
    assert game.cities["N29"].kind == "city" and game.artifacts[101] == ["AR3"] and len(game.heroes_of(303)) == 2
    battle = load(example("battlemist-battle.json")).combat.battle
    assert battle is not None and battle.region == "H-KHR" and [h.routs for h in battle.hits] == [1]
    orders = load(example("battlemist-orders.json"))
    assert orders.economy is not None and orders.economy.orders is not None
    assert orders.economy.orders.locked == [202] and set(orders.economy.orders.drafts) == {101, 202}
    assert [(o.source, o.target) for o in orders.economy.offers] == [(303, 101)]
    for name in NAMES:
        assert f"examples/{name}" in DOC


@pytest.mark.parametrize("name", NAMES)
def test_play_goes_on_from_each_example(name: str) -> None:
    for state in stand_ins(load(example(name)), 150):
        check_position(from_json(BMState, to_json(state)))


def test_the_example_actions_fight_the_battle_the_doc_tells() -> None:
    assert "--dice 6,6" in DOC
    state = load({**example(), "rng": {**example()["rng"], "forced": [6, 6]}})
    for data in read_json(EXAMPLES / "battlemist-actions.json"):
        state, events = apply(state, ruleset.ACTION_ADAPTER.validate_python(data))
    rolled = [e for e in events if e.type == "battle_dice"]
    assert [(e.player, e.step, e.results, e.outcomes) for e in rolled] == [(303, "archery", [6, 6], ["rout", "rout"])]
    assert [(d.player, d.kind) for d in ruleset.pending(state)] == [(303, "reroll")]
    check_position(state)


@pytest.mark.rule("BM-DIG-22")
def test_the_same_dice_follow_after_a_round_trip() -> None:
    state = load(example("battlemist-battle.json"))
    again = from_json(BMState, to_json(state))
    first = [to_json(s) for s in stand_ins(state, 20)]
    assert [to_json(s) for s in stand_ins(again, 20)] == first


# ---------------------------------------------------------------------------------------------------- refusals


def edit(name: str, change: Callable[[Any], None]) -> Any:
    data = copy.deepcopy(example(name))
    change(data)
    return data


def setter(path: str, value: Any) -> Callable[[Any], None]:
    """Set the dotted `path` of a position to `value`."""
    def change(data: Any) -> None:
        *parents, last = path.split(".")
        for key in parents:
            data = data[int(key)] if isinstance(data, list) else data[key]
        if isinstance(data, list):
            data[int(last)] = value
        else:
            data[last] = value
    return change


def _units(kinds: dict[str, int]) -> dict[str, int]:
    return {"infantry": 0, "archers": 0, "cavalry": 0, "giant": 0, "firebreather": 0, "dragon": 0, **kinds}


BROKEN: list[tuple[str, str, Callable[[Any], None], str, str]] = [
    ("position", "one player", lambda d: d.update(players=d["players"][:1]), "players", "2 to 6 players"),
    ("position", "a seat twice", setter("players.1.id", 101), "players.1.id", "taken by an earlier player"),
    ("position", "a race twice", setter("players.1.race", "DRK"), "players.1.race", "DRK is taken"),
    ("position", "a wrong colour", setter("players.0.colour", "blue"), "players.0.colour", '"grey"'),
    ("position", "no race after the draft", setter("players.0.race", None), "players.0.race", "race draft"),
    ("position", "an unknown region", lambda d: d["regions"].append("N99"), "regions.36", 'no region "N99"'),
    ("position", "a region twice", lambda d: d["regions"].append("N01"), "regions", "listed twice"),
    ("position", "a void homeland", lambda d: d["regions"].append("H-ELF"), "regions.36", "a race nobody plays"),
    ("position", "a region missing", lambda d: d["regions"].remove("N12"), "regions", "N12 is missing"),
    ("position", "troops off the board", lambda d: d["troops"].update(N99={"101": _units({"infantry": 1})}),
     "troops.N99", 'no region "N99"'),
    ("position", "troops of nobody", lambda d: d["troops"]["N29"].update({"909": _units({"infantry": 1})}),
     "troops.N29.909", "not a seated player"),
    ("position", "an empty troops entry", setter("troops.N29.101", _units({})), "troops.N29.101", "holds no unit"),
    ("position", "an empty region", setter("troops.N29", {}), "troops.N29", "is empty"),
    ("position", "troops of a resigned player", setter("players.0.status", "resigned"), "troops.H-DRK.101",
     "resigned and no longer plays"),
    ("position", "a hero of nobody", setter("heroes.0.owner", 909), "heroes.0.owner", "not a seated player"),
    ("position", "a hero off the board", setter("heroes.0.region", "H-ELF"), "heroes.0.region", "not in play"),
    ("position", "a hero's number twice", setter("heroes.3.number", 1), "heroes.3.number", "two heroes"),
    ("position", "a hero over his life", setter("heroes.0.life", 6), "heroes.0.life", "maximum life 5"),
    ("position", "four heroes", lambda d: d["heroes"].extend(
        {"owner": 101, "number": n, "region": "H-DRK", "life": 5} for n in (2, 3, 4)), "heroes", "at most 3"),
    ("position", "a city of a future round", setter("cities.N29.since", 4), "cities.N29.since", "from 0 to 3"),
    ("position", "a neutral region occupied", setter("occupied", {"N29": 101}), "occupied.N29", "not a homeland"),
    ("position", "an owner occupying his homeland", setter("occupied", {"H-DRK": 101}), "occupied.H-DRK",
     "owns H-DRK"),
    ("position", "more Stars spent than owned", setter("stars.101.spent", 3), "stars.101.spent", "more than"),
    ("position", "too many Stars", setter("star_pool", 23), "star_pool", "25 Stars"),
    ("position", "a player without Stars", lambda d: d["stars"].pop("202"), "stars", "player 202 has no entry"),
    ("position", "a player without a stock", lambda d: d["stock"].pop("303"), "stock", "player 303 has no entry"),
    ("position", "eight cards in a hand", setter("hands.101", ["AC01"] * 4 + ["AC02"] * 4), "hands.101",
     "from 0 to 7"),
    ("position", "an unknown card", lambda d: d["deck"].append("AC99"), "deck", '"AC99" is not an action'),
    ("position", "a card too many", lambda d: d["discard"].extend(["AC14"] * 2), "discard", "more copies"),
    ("position", "an event in a hand", setter("hands.101", ["EV1"]), "hands.101", "EV1 is an event"),
    ("position", "an action card among the events", setter("events", ["AC01"]), "events.0", "not an event"),
    ("position", "a quest that is no adventure", setter("quests.101", "AR1"), "quests.101", "not an adventure"),
    ("position", "a quest card twice", lambda d: d["quest_discard"].append(d["quests"]["101"]), "quests.101",
     "also in quest_discard"),
    ("position", "an artifact that is no artifact", setter("artifacts.101", ["QA01"]), "artifacts.101",
     "not an artifact"),
    ("position", "a spell that does not exist", setter("cast", {"101": ["move:SP99"]}), "cast.101.0",
     "<scope>:<spell id>"),
    ("position", "a look at oneself", setter("sightings", {"101": [{"target": 101, "source": "AC15", "round": 3}]}),
     "sightings.101.0.target", "another player"),
    ("position", "a look by a card that shows nothing", setter("sightings", {"101": [
        {"target": 202, "source": "AC02", "round": 3}]}), "sightings.101.0.source", "AC15 or SP08"),
    ("position", "a look at a hand of events", setter("sightings", {"101": [
        {"target": 202, "source": "SP08", "round": 3, "hand": ["EV1"]}]}), "sightings.101.0.hand", "not an action"),
    ("position", "a bountiful region off the board", setter("effects.bountiful", ["H-ELF"]), "effects.bountiful.0",
     "not in play"),
    ("position", "a standing order of an unknown kind", setter("combat.standing", {"101": ["pikemen"]}),
     "combat.standing.101", "at most once"),
    ("position", "a forced face of 11", setter("rng.forced", [3, 11]), "rng.forced.1", "from 1 to 10"),
    ("position", "a round past the cap", setter("round", 11), "round", "from 1 to 10"),
    ("position", "round 0 in play", setter("round", 0), "round", "from 1 to 10"),
    ("position", "a turn twice in the order", setter("order", [202, 202, 101]), "order.1", "listed twice"),
    ("position", "no active player in a turn", setter("active", None), "active", "None is not a seated player"),
    ("position", "an active player without a turn", setter("order", [303, 101]), "active", "no turn"),
    ("position", "winners while the game goes on", setter("winners", [101]), "winners", "game_over"),
    ("position", "a council record outside the Council",
     setter("council", {"card": "EV1", "order": [101], "needed": 3}), "council", "outside phase council"),
    ("position", "a quest step outside the quest step", setter("quest_step", {}), "quest_step",
     "outside phase quest"),
    ("position", "a movement step without its record", setter("movement", None), "movement", "is missing"),
    ("position", "another player's movement step", setter("movement.player", 101), "movement.player",
     "player 202's turn"),
    ("position", "a movement step already done", setter("movement.done", True), "movement.done", "is open"),
    ("position", "a move order off the board", setter("movement.orders.0.path", ["N30", "H-ELF"]),
     "movement.orders.0.path.1", "not in play"),
    ("position", "a move order whose units are not where it ended", setter("movement.orders.0.n", 5),
     "movement.orders.0", "has fewer there"),
    ("position", "an economy still open in the turns", setter("economy.step", "orders"), "economy.step",
     '"resolved"'),
    ("position", "a battle outside the combat step", setter("combat.battle", example("battlemist-battle.json")
                                                            ["combat"]["battle"]), "combat.battle",
     "outside phase combat"),
    ("position", "a build record on the fixed map", setter("build", {}), "build", "fixed map"),
    ("battle", "an attacker who is not active", setter("combat.battle.attacker.player", 101),
     "combat.battle.attacker.player", "the active player"),
    ("battle", "a battle against oneself", setter("combat.battle.defender.player", 202),
     "combat.battle.defender.player", "himself"),
    ("battle", "hits for a bystander", setter("combat.battle.hits.0.player", 101), "combat.battle.hits",
     "player 101 is not a side"),
    ("battle", "a battle off the board", setter("combat.battle.region", "H-ELF"), "combat.battle.region",
     "not in play"),
    ("battle", "a finished combat step", setter("combat.done", True), "combat.done", "the next turn"),
    ("battle", "a die face of 11", setter("combat.battle.rolls", [{"player": 303, "units": ["archers"],
                                                                    "faces": [11]}]),
     "combat.battle.rolls.0.faces.0", "from 1 to 10"),
    ("battle", "a battle nobody waits on", setter("combat.battle.hits", []), "phase", "nobody has a decision"),
    ("orders", "no economy record in the orders", setter("economy", None), "economy", "is missing"),
    ("orders", "an economy record of another step", setter("economy.step", "upkeep"), "economy.step",
     '"orders"'),
    ("orders", "the order book missing", setter("economy.orders", None), "economy.orders", "is missing"),
    ("orders", "a draft of a seat outside the book", lambda d: d["economy"]["orders"]["seats"].remove(101),
     "economy.orders", "player 101 has orders"),
    ("orders", "a recruit off the board", setter("economy.orders.drafts.101.1.region", "H-ELF"),
     "economy.orders.drafts.101.1.region", "not in play"),
    ("orders", "an offer to nobody", setter("economy.offers.0.target", 909), "economy.offers.0.target",
     "not a seated player"),
    ("orders", "an offer id not yet given", setter("economy.offers.0.id", 5), "economy.offers.0.id",
     "below next_offer"),
    ("orders", "an offer of gold", setter("economy.offers.0.give", {"gold": 1}), "economy.offers.0.give.gold",
     "not a resource"),
]


@pytest.mark.parametrize(("name", "what", "change", "field", "problem"), BROKEN, ids=[b[1] for b in BROKEN])
def test_a_broken_position_is_refused_naming_its_field(name: str, what: str, change: Callable[[Any], None],
                                                       field: str, problem: str) -> None:
    err = refused(edit(f"battlemist-{name}.json" if name != "position" else "battlemist-position.json", change))
    assert err.field == field, str(err)
    assert problem in err.problem, str(err)


def test_the_draft_may_leave_races_open_only_in_join_order() -> None:
    state, _ = ruleset.new_game([Seat(id=k, name=f"P{k}") for k in (1, 2, 3)], BMOptions(races="draft"), seed=1)
    check_position(state)
    data = to_json(state)
    data["players"][1] = {**data["players"][1], "race": "DAQ", "colour": "blue"}
    assert refused(data).field == "players"
    data = to_json(state)
    data["regions"] = ["N01"]
    assert refused(data).problem.startswith("must be empty during the race draft")


def test_a_build_record_places_exactly_the_regions_in_play() -> None:
    state, _ = ruleset.new_game([Seat(id=k, name=f"P{k}") for k in (1, 2)], BMOptions(board="build"), seed=2)
    check_position(state)
    data = to_json(state)
    data["regions"] = [*data["regions"], "N33"] if "N33" not in data["regions"] else data["regions"][:-1]
    assert refused(data).field == "build.positions"
    data = to_json(state)
    data["build"]["turn"] = None
    assert refused(data).field == "build.turn"


# ---------------------------------------------------------------------------------------------------- reached


def round_trips(state: BMState) -> None:
    data = to_json(state)
    again = from_json(BMState, data)
    assert to_json(again) == data
    check_position(again)


GAMES = [(2, BMOptions(round_cap=2), 1), (4, BMOptions(round_cap=2, player_trades=True), 2),
         (6, BMOptions(round_cap=1), 3), (3, BMOptions(round_cap=1, races="draft", board="build"), 4)]


@pytest.mark.rule("BM-DIG-20")
@pytest.mark.parametrize(("players", "options", "seed"), GAMES)
def test_every_position_of_stand_in_play_round_trips_and_passes_the_check(players: int, options: BMOptions,
                                                                         seed: int) -> None:
    state, _ = ruleset.new_game([Seat(id=100 + k, name=f"P{k}") for k in range(players)], options, seed)
    phases: set[Phase] = set()
    for reached in stand_ins(state, 5000):
        round_trips(reached)
        phases.add(reached.phase)
    assert {Phase.ECONSTART, Phase.ORDERS, Phase.QUEST, Phase.MOVEMENT, Phase.UPKEEP, Phase.GAME_OVER} <= phases


@pytest.mark.rule("BM-DIG-20", "BM-COU-13")
@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
def test_every_position_of_random_play_passes_the_check(players: int, seed: int) -> None:
    """Random choices reach what stand-ins never do: a Plague or an Uprising that asks only the affected players
    with a real choice (the others take the default), among others."""
    state, _ = ruleset.new_game([Seat(id=k, name=f"P{k}") for k in range(1, players + 1)], BMOptions(), seed)
    policy, rng = POLICIES["random"](), random.Random(seed)
    asked: set[str] = set()
    for _ in range(400):
        if state.phase is Phase.GAME_OVER:
            break
        decision = ruleset.pending(state)[0]
        asked.add(decision.kind)
        state, _ = apply(state, policy.choose(state, decision.player, rng))
        round_trips(state)
    assert {"vote", "econ_orders", "move"} <= asked


def test_a_player_who_left_leaves_a_valid_position() -> None:
    from engine.core.turns import Resign

    state, _ = ruleset.new_game([Seat(id=k, name=f"P{k}") for k in (1, 2, 3)], BMOptions(round_cap=2), seed=5)
    state, _ = apply(state, Resign(player=2))
    for reached in stand_ins(state, 300):
        round_trips(reached)


def test_every_step_of_a_battle_round_trips_and_passes_the_check() -> None:
    troops = {"N05": {1: {"infantry": 3, "archers": 2, "cavalry": 1}, 2: {"infantry": 3, "archers": 1, "giant": 1}},
              "N06": {1: {"cavalry": 2}, 2: {"infantry": 2, "cavalry": 2}}}
    state, _ = combat(troops, seed=11)
    kinds: set[str] = set()
    while not C.finished(state):
        round_trips(state)
        waiting = C.pending(state)
        kinds |= {d.kind for d in waiting}
        state, _ = act(state, C.timeout_combat(state, waiting[0].player))
    assert {"battle_order", "window_battlestart", "casualties", "window_rally"} <= kinds


def quest_fight(state: BMState, *actions: Action) -> set[str]:
    """Run `actions` in the quest step, checking every position on the way (the step's end is the lead's `apply`
    going on to the movement step, which `run` leaves out); the decisions met."""
    kinds: set[str] = set()
    for action in actions:
        round_trips(state)
        kinds |= {d.kind for d in pending_quest(state)}
        state, _ = run(state, action)
    if state.quest_step is not None:
        round_trips(state)
    return kinds


def test_every_step_of_an_encounter_and_of_a_duel_round_trips_and_passes_the_check() -> None:
    bandits = step(heroes=[hero(1, 1, "N12")], quests={1: "QA12"}, quest_deck=["STAR"], dice=[3, 4, 7, 1, 2, 1, 8])
    assert "bm_encounter_target" in quest_fight(bandits, HeroMove(player=1, hero=1, path=["N13"]),
                                                QuestPass(player=1), EncounterTarget(player=1, foe=1))
    heroes = [hero(1, 1, "N11", 2), hero(2, 1, "N11", 2), hero(2, 2, "N11", 2)]
    duel = step(heroes=heroes, quests={1: "QA01", 2: "QA05"}, dice=[5, 6, 2, 7])
    kinds = quest_fight(duel, EndHeroes(player=1), DuelHero(player=1, hero=1, defender=2, target=2),
                        QuestPass(player=1), QuestPass(player=2))
    assert {"bm_duel_window"} <= kinds
    data = to_json(run(duel, EndHeroes(player=1), DuelHero(player=1, hero=1, defender=2, target=2))[0])
    data["quest_step"]["fight"]["defender"] = [2, 3]
    assert refused(data).field == "quest_step.fight.defender"


def test_the_initiative_choices_of_large_city_owners_round_trip() -> None:
    state = position(phase=Phase.ORDERS, troops={"N05": {1: {"infantry": 2}}},
                     cities={"N05": CityMark(kind="large_city", since=0)}, active=None, order=[])
    rng = Rng(state.rng)
    initiative.begin_initiative(state, rng)
    state.rng = rng.export()
    assert state.phase is Phase.INITIATIVE and state.initiative is not None
    round_trips(state)
    data = to_json(state)
    data["initiative"]["choices"]["drafts"] = {"1": 2}
    assert refused(data).field == "initiative.choices.drafts.1"


# ---------------------------------------------------------------------------------------------------- the doc


def _fields(kind: Any) -> list[str]:
    if dataclasses.is_dataclass(kind):
        return [f.name for f in dataclasses.fields(kind)]
    return list(kind.model_fields)


def _record(kind: Any) -> bool:
    return isinstance(kind, type) and (dataclasses.is_dataclass(kind) or issubclass(kind, BaseModel))


def _nested(hint: Any) -> Iterator[type]:
    """The records (dataclasses and models) a type hint names, at any depth (a generic record such as `Orders[T]`
    by its origin)."""
    for kind in (typing.get_origin(hint), hint):
        if _record(kind):
            yield kind
    for arg in typing.get_args(hint):
        yield from _nested(arg)


def records() -> dict[str, list[str]]:
    """Every record of a position, from BMState down, with its fields."""
    found: dict[str, list[str]] = {}
    todo: list[Any] = [BMState]
    while todo:
        kind = todo.pop()
        if kind.__qualname__ in found:
            continue
        found[kind.__qualname__] = _fields(kind)
        hints = typing.get_type_hints(kind)
        todo += [k for name in found[kind.__qualname__] for k in _nested(hints[name])]
    return found


def test_the_doc_names_every_field_of_the_state_and_its_records() -> None:
    named = set(re.findall(r"`([a-z_]+)`", DOC))
    found = records()
    assert {"Battle", "Side", "Encounter", "Duel", "Orders", "Recruit", "Disband", "Offer", "RngState"} <= set(found)
    missing = sorted(f"{kind}.{name}" for kind, names in found.items() for name in names if name not in named)
    assert not missing, f"docs/battlemist-position.md does not document {missing}"
