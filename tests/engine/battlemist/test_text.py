"""Battlemist's words: every event narrated (every die with its purpose), private events told only to their
seat, no secret in a public line, a prompt for every decision kind, the text board, and every message used."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import re
import types
import typing
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any, Literal

import pytest

import engine.core.i18n as i18n
from engine.core.events import PlayerLeft
from engine.core.models import Decision, Event, Seat, copier
from engine.core.rng import Rng
from engine.games.battlemist import battle as BT
from engine.games.battlemist import combat as CB
from engine.games.battlemist import council as CO
from engine.games.battlemist import economy as EC
from engine.games.battlemist import movement as MV
from engine.games.battlemist import quest as QU
from engine.games.battlemist import quest_cards as QC
from engine.games.battlemist import quest_events as QE
from engine.games.battlemist import rules as RU
from engine.games.battlemist import ruleset as RS
from engine.games.battlemist import setup as SE
from engine.games.battlemist import text as T
from engine.games.battlemist import upkeep as UP
from engine.games.battlemist import windows as WI
from engine.games.battlemist.dice import Rolled
from engine.games.battlemist.initiative import InitiativeSet
from engine.games.battlemist.pieces import CityMark, Effects, HeroToken, Stars
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMOptions, BMPlayer, BMState, Phase
from engine.service import news
from tests.engine.battlemist.helpers import DATA, position, snapshot
from tests.engine.battlemist.quest_helpers import hero, run, step

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "engine" / "games" / "battlemist"
CATALOGUE = ROOT / "data" / "locales" / "en" / "battlemist_text.json"


# ---------------------------------------------------------------------------------------------------- the events


def event_classes() -> list[type[Event]]:
    """Every event class the Battlemist modules define (the package has no __init__, so its files are scanned)."""
    found: dict[type[Event], None] = {}
    for info in pkgutil.iter_modules([str(PACKAGE)]):
        module = importlib.import_module(f"engine.games.battlemist.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Event) and cls.__module__ == module.__name__ and "type" in cls.__dataclass_fields__:
                found[cls] = None
    return list(found)


PRIVATE_CLASSES = {CO.CardDrawn, QE.QuestDrawn, EC.Drafted, WI.SpyReport}
"""The event classes whose instances are private to their seat."""


def private_in_source() -> set[str]:
    """The event classes the modules ever build with `private_to=` (read from their source)."""
    names: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        names |= set(re.findall(r"\b([A-Z]\w+)\((?:[^()]|\([^()]*\))*?private_to=", path.read_text(encoding="utf-8")))
    return names

STRINGS = {"region": "N05", "homeland": "H-ORC", "tile": "N07", "card": "EV1", "spell": "SP05", "source": "AC02",
           "adventure": "QA01", "artifact": "AR4", "race": "ORC", "step": "archery", "window": "rally",
           "purpose": "initiative", "by": "home", "city": "large_city", "detail": "archers", "value": "none",
           "target": "N01", "unit": "cavalry"}
RESOURCE_FIELDS = {"income", "cost", "gain", "price", "paid", "give", "get"}
OVERRIDES: dict[type[Event], dict[str, Any]] = {
    EC.PlaysLocked: {"step": "orders"}, EC.Drafted: {"step": "upkeep"},
    EC.MerchantTraded: {"give": "wood", "get": "iron", "amount": 3, "received": 1},
    QE.HeroHealed: {"by": "AC11"}, CO.CardDrawn: {"card": "AC15"}, QE.WindowPassed: {"window": "prequest"},
    BT.BattleDice: {"units": ["archers", "archers"], "results": [7, 3], "outcomes": ["kill", "miss"], "modifier": 0},
    QE.EncounterStarted: {"foes": ["Young Dragon"]}, QE.HeroMoved: {"path": ["N05", "N06"]},
    WI.SpyReport: {"hand": ["AC04", "AC10"], "quest": "QA01", "source": "SP08"}, WI.PlayerSpied: {"source": "AC15"},
}


def _value(cls: type[Event], name: str, hint: Any) -> Any:
    """A plausible value for field `name` of type `hint`."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        return args[0]
    if origin in (types.UnionType, typing.Union):
        return _value(cls, name, next(a for a in args if a is not type(None)))
    if hint is bool:
        return True
    if hint is int:
        return 2 if name in ("defender", "victim", "target", "owner") else 1 if name in (
            "player", "attacker", "source", "hero", "number", "offer") else 3
    if hint is str:
        return STRINGS.get(name, "N05")
    if origin is list:
        item = args[0]
        if inspect.isclass(item) and issubclass(item, Event):
            return [build(item)]
        if item is int:
            return [1, 2] if name in ("order", "winners") else [7, 3]
        if typing.get_origin(item) is list:
            return [[7, 3], [9]]
        if typing.get_origin(item) is dict:
            return [{1: 4, 2: 4}, {1: 9, 2: 2}]
        return {"path": ["N05", "N06", "N11"], "abilities": ["horde", "hardy"], "foes": ["Young Dragon"],
                "returned": ["AR1"], "units": ["archers"], "order": ["cavalry", "infantry"]}.get(name, ["N05", "N06"])
    if origin is dict:
        key, item = args
        if key is int:
            if item is int:
                return {1: 4, 2: 2}
            if typing.get_origin(item) is dict:
                return {2: {"infantry": 2, "archers": 1}}
            return {1: ["N01", "N02"], 2: ["N03"]}
        if typing.get_origin(item) is tuple:
            return {"N01": (0, 0), "N02": (1, 0)}
        return {"grain": 2, "iron": 1} if name in RESOURCE_FIELDS else {"infantry": 2, "cavalry": 1}
    raise AssertionError(f"{cls.__name__}.{name}: no sample value for {hint!r}")


def build(cls: type[Event]) -> Event:
    """One instance of `cls` with plausible fields (private to its seat when its class is private)."""
    hints = typing.get_type_hints(cls)
    params = {f.name: _value(cls, f.name, hints[f.name]) for f in fields(cls) if f.name not in ("type", "private_to")}
    params.update(OVERRIDES.get(cls, {}))
    if cls in PRIVATE_CLASSES:
        params["private_to"] = params.get("player", 1)
    return cls(**params)


def busy() -> BMState:
    """A game in its combat step with cities, heroes, a quest, hands, decks, an artifact, an occupation and an
    event waiting for the Council."""
    state = position(("DAQ", "ORC", "ELF"), phase=Phase.COMBAT, round=4,
                     troops={"N05": {1: {"infantry": 3, "archers": 1, "cavalry": 2}, 2: {"infantry": 2, "giant": 1}},
                             "N06": {2: {"infantry": 4}}, "H-ELF": {1: {"cavalry": 1}},
                             "H-DAQ": {1: {"infantry": 2}}},
                     stock={1: {"grain": 5, "wood": 3, "iron": 2}, 2: {"grain": 1}, 3: {"wood": 7}})
    state.cities = {"N06": CityMark(kind="large_city", since=2), "N05": CityMark(kind="city", since=1)}
    state.heroes = [HeroToken(owner=1, number=1, region="N05", life=3), HeroToken(owner=2, number=2, region="N06",
                                                                                 life=4)]
    state.occupied = {"H-ELF": 1}
    state.stars = {1: Stars(owned=3, spent=1), 2: Stars(owned=1), 3: Stars(owned=0)}
    state.hands = {1: ["AC04", "AC15"], 2: ["AC10"], 3: []}
    state.quests = {2: "QA01"}
    state.artifacts = {1: ["AR4"]}
    state.quest_deck = ["QA02", "STAR"]
    state.deck = ["AC07"]
    state.events = ["EV2"]
    return state


# ---------------------------------------------------------------------------------------------------- narration


def test_every_event_class_has_words() -> None:
    """An event class without a line fails here: each one narrates publicly, or privately when it is private."""
    s = busy()
    classes = event_classes()
    assert len(classes) > 80
    assert {c.__name__ for c in PRIVATE_CLASSES} == private_in_source() and set(T.PRIVATE) == PRIVATE_CLASSES
    for cls in classes:
        event = build(cls)
        if cls in PRIVATE_CLASSES:
            assert T.narrate(event, s) is None, cls.__name__
            text = T.private(event, s)
        else:
            text = T.narrate(event, s)
            assert T.private(event, s) is None
        assert text, f"{cls.__name__} has no words"
        assert "{" not in text and "}" not in text and "bm.text." not in text, f"{cls.__name__}: {text}"
        assert len(text) < 400, f"{cls.__name__} is too long for a phone: {text}"


def test_regions_players_and_plurals() -> None:
    s = busy()
    moved = T.narrate(MV.UnitsMoved(player=1, n=1, unit="cavalry", path=["N05", "N06"]), s)
    assert moved == "P1 moves 1 cavalry: N05 Three Princes → N06 Greywood."
    two = T.narrate(BT.Overrun(player=2, region="N05", killed={"archers": 2, "giant": 1}), s)
    assert two == "💥 P2 is overrun in N05 Three Princes: 2 archers and 1 giant destroyed."
    one = T.narrate(EC.Recruited(player=3, region="H-ELF", unit="archers", n=1, cost={"wood": 2}), s)
    assert one == "P3 recruits 1 archer in H-ELF Homeland: Lotharia Elves (2 wood)."
    assert T.narrate(SE.RacePicked(player=2, race="ORC"), s) == "P2 takes the Zul Orcs."


DICE_FIELDS = ("dice", "results", "rolls", "result", "old", "new")


def told_dice(event: Event, s: BMState) -> list[str]:
    """How each die of `event` must show in its line: `7·3` for a list of faces, `P1 4` for a roll-off's."""
    fragments: list[str] = []
    for name in DICE_FIELDS:
        value = getattr(event, name, None)
        if isinstance(value, int):
            fragments.append(str(value))
        for item in value if isinstance(value, list) else []:
            if isinstance(item, dict):
                fragments += [f"{s.name(p)} {r}" for p, r in item.items()]
            elif isinstance(item, list):
                fragments.append(T.faces(item))
        if isinstance(value, list) and value and isinstance(value[0], int):
            fragments.append(T.faces(value))
    return fragments


@pytest.mark.rule("BM-DIE-4")
def test_every_roll_is_told_with_its_purpose() -> None:
    """Every event that carries dice tells each face publicly, and what it was rolled for."""
    s = busy()
    rolled = [cls for cls in event_classes() if any(f.name in DICE_FIELDS for f in fields(cls))]
    assert {BT.BattleDice, BT.Rerolled, BT.RallyRolled, QE.FoesStrike, QE.HeroStrikes, QE.DuelStrike,
            EC.GuildRollOff} <= set(rolled)
    for cls in rolled:
        event = build(cls)
        text = T.narrate(event, s)
        assert text is not None, cls.__name__
        # the initiative order repeats the rolls already told one by one, each with its purpose
        assert text.startswith("🎲") or cls is InitiativeSet, f"{cls.__name__}: {text}"
        for fragment in told_dice(event, s):
            assert fragment in text, f"{cls.__name__} hides {fragment}: {text}"
    purposes = {"initiative": "initiative", "vote_order": "vote order", "tremors": "Tremors",
                "build_order": "first tile", "initiative_tie": "tie"}
    for purpose, words in purposes.items():
        text = T.narrate(Rolled(purpose=purpose, player=1, dice=[8], region="N05" if purpose == "tremors" else None), s)
        assert text is not None and words in text and "8" in text
    assert "N05 Three Princes" in (T.narrate(Rolled(purpose="tremors", dice=[8], region="N05"), s) or "")
    dice = T.narrate(build(BT.BattleDice), s)
    assert dice == "🎲 N05 Three Princes, archery: P1 7·3 → 1 kill, no rout"
    rally = T.narrate(BT.RallyRolled(player=2, region="N05", sides=10, result=4, modifier=2, total=6, back=2), s)
    assert rally == "🎲 N05 Three Princes, rally: P2 4+2 = 6 → 2 units return"


def test_dice_of_one_battle_round_share_a_line() -> None:
    s = busy()
    first = BT.BattleDice(player=1, region="N05", step="archery", sides=10, units=["archers"], results=[9],
                          outcomes=["kill"], modifier=-1)
    second = BT.BattleDice(player=2, region="N05", step="archery", sides=10, units=["infantry"], results=[2],
                           outcomes=["miss"])
    reroll = BT.Rerolled(player=2, region="N05", step="archery", die=1, old=2, new=8)
    elsewhere = BT.BattleDice(player=2, region="N06", step="melee", sides=10, units=["infantry"], results=[2],
                              outcomes=["miss"])
    assert T.sequel(second, first, s) == "P2 2 → no kill, no rout"
    cavalry = BT.BattleDice(player=1, region="N05", step="cavalry", sides=10, units=["cavalry"], results=[6],
                            outcomes=["rout"])
    assert T.sequel(cavalry, second, s) == "cavalry: P1 6 → no kill, 1 rout"
    assert T.sequel(reroll, second, s) == "P2's hero re-rolls die 1: 2 → 8"
    assert T.sequel(elsewhere, first, s) is None
    assert T.sequel(first, BT.CombatRound(region="N05", round=2), s) is None
    rally = BT.RallyRolled(player=2, region="N05", sides=10, result=4, modifier=0, total=4, back=1)
    assert T.sequel(rally, first, s) is None
    assert T.sequel(rally, BT.RallyRolled(player=1, region="N05", sides=10, result=3, modifier=1, total=4, back=1),
                    s) == "rally: P2 4 = 4 → 1 unit returns"
    assert "(−1)" in (T.narrate(first, s) or "")
    hits = BT.HitsScored(victim=2, region="N05", step="archery", kills=1, routs=0)
    taken = BT.CasualtiesTaken(player=2, region="N05", step="archery", kills={"giant": 1}, routs={}, auto=True)
    assert T.narrate(hits, s) == "N05 Three Princes: P2 takes 1 kill (archery)"
    assert T.sequel(taken, hits, s) == "1 giant killed (auto)"
    assert T.sequel(taken, BT.HitsScored(victim=1, region="N05", step="archery", kills=1, routs=0), s) is None
    assert T.narrate(taken, s) == "P2: 1 giant killed (auto)."
    vote = [Rolled(purpose="vote_order", player=p, dice=[d]) for p, d in ((1, 5), (2, 4))]
    assert T.sequel(vote[1], vote[0], s) == "P2 4"
    assert T.sequel(Rolled(purpose="initiative", player=2, dice=[4]), vote[0], s) is None
    tremor = [Rolled(purpose="tremors", dice=[d], region=r) for r, d in (("N05", 8), ("N06", 2))]
    assert T.sequel(tremor[1], tremor[0], s) == "2 in N06 Greywood"


def shared_events() -> list[Event]:
    return [PlayerLeft(player=2), PlayerLeft(player=3, removed_by=1), RU.RoundBegun(round=5),
            RU.TurnBegun(player=2, round=5), RU.RoundEnded(round=5), RU.GameAbandoned(winners=[1]),
            RU.GameAbandoned(winners=[])]


def test_the_shared_events_are_told() -> None:
    """A departure, a round's and a turn's start, the round's end and an abandoned game."""
    s = busy()
    assert [T.narrate(e, s) for e in shared_events()] == [
        "🚪 P2 leaves the game.", "🚪 P1 removes P3 from the game.", "🌅 Round 5 begins.", "▶️ Round 5: P2's turn.",
        "Round 5 is over.", "🏁 Too few players are left: P1 wins.",
        "🏁 Too few players are left: the game ends without a winner."]


# ---------------------------------------------------------------------------------------------------- secrets


@pytest.mark.rule("BM-DIG-5")
def test_private_events_are_told_only_to_their_seat() -> None:
    s = busy()
    drawn = CO.CardDrawn(player=1, card="AC15", private_to=1)
    assert T.narrate(drawn, s) is None
    assert T.private(drawn, s) == "You draw Spy: Secretly see one player's hand and current quest card."
    draft = EC.Drafted(player=2, step="orders", private_to=2)
    assert T.narrate(draft, s) is None and "economy orders" in (T.private(draft, s) or "")
    quest = QE.QuestDrawn(player=2, adventure="QA01", returned=["AR1"], private_to=2)
    assert T.narrate(quest, s) is None
    assert T.private(quest, s) == ("Your new quest QA01: reach N01 Godstone Mountains, where Young Dragon awaits you. "
                                   "Shuffled back into the quest deck: Blade of Dawn.")
    assert T.narrate(EC.PlaysLocked(player=2, step="orders"), s) == "✅ P2 has locked their economy orders."
    assert T.narrate(CO.CardDrawn(player=1, card="AC15"), s) is None  # no public words for a drawn card


@pytest.mark.rule("BM-DIG-5")
def test_a_quest_target_stays_secret_until_completed() -> None:
    s = busy()
    s.quests = {}
    s.quest_deck = ["AR1", "QA01", "QA02"]
    s.heroes = [HeroToken(owner=1, number=1, region="H-DAQ", life=3)]
    rng = Rng(s.rng)
    events = QC.draw_adventure(s, 1, rng)
    target = DATA.quests.adventure["QA01"].target
    name = DATA.map.by_id[target].name
    public = [T.narrate(e, s) for e in events]
    assert any(public) and "QA01" not in str(public) and target not in str(public) and name not in str(public)
    board = T.text_board(s)
    player_line = next(line for line in board.splitlines() if line.startswith("**P1**"))
    assert "on a quest" in player_line and "QA01" not in board and target not in player_line
    done = T.narrate(QE.QuestCompleted(player=1, adventure="QA01", target=target), s)
    assert done is not None and "QA01" in done and name in done


@pytest.mark.rule("BM-DIG-5")
def test_prompts_never_tell_a_hand() -> None:
    """A window's decision lists the cards the seat could play (for its buttons); the public prompt does not."""
    s = busy()
    window = Decision(player=1, kind="window_battlestart",
                      detail={"region": "N05", "round": 0, "cards": ["AC04"], "spells": ["SP05"]})
    text = T.prompt(window, s)
    assert "Ambush" not in text and "AC04" not in text and "N05 Three Princes" in text and "/bm pass" in text
    discard = T.narrate(WI.CardDiscarded(player=1), s)
    assert discard == "P1 discards an action card."


# ---------------------------------------------------------------------------------------------------- summary


def test_an_ai_turn_in_one_line() -> None:
    s = busy()
    events: list[Event] = [
        MV.UnitsMoved(player=2, n=3, unit="infantry", path=["N06", "N05"]),
        MV.UnitsMoved(player=2, n=2, unit="cavalry", path=["N06", "N07"]),
        MV.MoveUndone(player=2, n=2, unit="cavalry", path=["N06", "N07"]),
        BT.BattleBegun(region="N05", attacker=2, defender=1, siege=1),
        BT.BattleEnded(region="N05", winner=2, destroyed={1: {"infantry": 3}}),
        BT.BattleBegun(region="N08", attacker=2, defender=3, siege=0),
        BT.BattleEnded(region="N08", winner=3, destroyed={2: {"infantry": 1}}),
        CB.HomelandOccupied(player=2, homeland="H-DAQ", owner=1, stars=1),
        QE.QuestDrawn(player=2, adventure="QA01", private_to=2),
    ]
    line = T.summary(2, events, s)
    assert line == ("🤖 P2: moved 3 units, gained 1 Star, won 1 of 2 battles and occupied "
                    "H-DAQ Homeland: Knights of Daqan.")
    assert "QA01" not in line
    assert T.summary(3, [], s) == "🤖 P3: passed."


# ---------------------------------------------------------------------------------------------------- prompts


SAMPLE_DECISIONS: dict[str, dict[str, Any]] = {
    "pick_race": {"races": ["ORC", "DRK"]},
    "place_tile": {"tiles": ["N07", "H-ORC"], "homeland": True},
    "vote": {"card": "EV2", "votes": 2, "needed": 4, "committed": 1},
    "plague_losses": {"card": "EV2", "regions": ["N05"]},
    "uprising_payment": {"card": "EV5", "regions": ["N05", "N06"]},
    "econstart": {}, "econ_orders": {}, "upkeep": {},
    "trade_offer": {"offer": 3, "source": 2, "give": {"wood": 2}, "get": {"iron": 1}},
    "initiative": {"roll": 6, "k": 1},
    "move": {"window": "movestart", "orders": 0, "over_limit": {"N05": 2}},
    "bm_prequest": {}, "bm_hero_moves": {"heroes": [1, 2]},
    "bm_duels": {"duels": [{"hero": 1, "defender": 2, "target": 2}]},
    "bm_duel_window": {"attacker": [1, 1], "defender": [2, 2]},
    "bm_encounter_hero": {"heroes": [1]}, "bm_encounter_window": {"hero": 1},
    "bm_encounter_target": {"hero": 1, "foes": [{"foe": 0, "name": "Young Dragon", "life": 4}]},
    "battle_order": {"regions": ["N05", "N06"]},
    "casualties": {"region": "N05", "step": "archery", "kills": 1, "routs": 1, "active": {"infantry": 2, "cavalry": 1}},
    "reroll": {"region": "N05", "step": "melee", "units": ["infantry", "infantry"], "dice": [2, 5]},
    "rally_pick": {"region": "N05", "n": 2, "routed": {"infantry": 1, "archers": 2}},
    "window_battlestart": {"region": "N05", "round": 0, "cards": ["AC04"], "spells": ["SP05"]},
    "window_rally": {"region": "N05", "round": 2, "cards": ["AC05"], "spells": []},
    "plunder": {"region": "N06", "city": "large_city"},
}


def decision_kinds() -> set[str]:
    """Every decision kind the modules' pending functions produce, read from their source."""
    kinds: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        kinds |= set(re.findall(r'Decision\([^)]*?kind="([a-z_]+)"', source, re.S))
        kinds |= {f"window_{stage}" for stage in ("battlestart", "rally")} if 'kind=f"window_' in source else set()
        if "kind = " in source and "plague_losses" in source:
            kinds |= {"plague_losses", "uprising_payment"}
    kinds |= set(EC.DECISIONS.values())
    return kinds


def test_every_decision_kind_has_a_prompt() -> None:
    s = busy()
    kinds = decision_kinds()
    assert kinds <= set(SAMPLE_DECISIONS), f"no sample for {kinds - set(SAMPLE_DECISIONS)}"
    for kind, detail in SAMPLE_DECISIONS.items():
        text = T.prompt(Decision(player=1, kind=kind, detail=detail), s)
        assert "{" not in text and "bm.text" not in text and "`/bm " in text, f"{kind}: {text}"
    assert T.prompt(Decision(player=1, kind="battle_order", detail=SAMPLE_DECISIONS["battle_order"]), s) == \
        "choose your next battle (`/bm battle choose <region>`): N05 Three Princes and N06 Greywood"
    casualties = T.prompt(Decision(player=1, kind="casualties", detail=SAMPLE_DECISIONS["casualties"]), s)
    assert "1 kill, 1 rout" in casualties and "2 infantry and 1 cavalry" in casualties


def test_prompts_of_live_positions() -> None:
    """The decisions the combat step and the Council really produce read as sentences."""
    s = position(("DAQ", "ORC"), phase=Phase.COMBAT,
                 troops={"N05": {1: {"infantry": 3}, 2: {"infantry": 1}},
                         "N06": {1: {"archers": 2}, 2: {"cavalry": 1}}})
    decisions = CB.pending(s)
    assert [d.kind for d in decisions] == ["battle_order"]
    assert "N05 Three Princes and N06 Greywood" in T.prompt(decisions[0], s)


# ---------------------------------------------------------------------------------------------------- the text board


def seats(n: int) -> list[Seat]:
    return [Seat(id=k, name=f"P{k}") for k in range(1, n + 1)]


@pytest.mark.rule("BM-DIG-2")
def test_text_board_of_a_start_position() -> None:
    """The public view of a new game at round 1's Council: every region in play, every seat, no card, no quest."""
    state, events = RS.new_game(seats(3), BMOptions(), 5)
    board = T.text_board(RS.view(state, None))
    assert board == T.text_board(state)
    for rid in state.regions:
        assert T.region(rid) + " — " in board
    for p in state.players:
        assert f"**{p.name}** ({DATA.rules.race[p.race].name})" in board  # type: ignore[index]
        hand = len(state.hands.get(p.id, []))
        assert f"· {hand} card" in next(line for line in board.splitlines() if line.startswith(f"**{p.name}**"))
    assert board.startswith("**Battlemist** · round 1 · Wizards' Council")
    secrets = [c for hand in state.hands.values() for c in hand] + list(state.quests.values())
    names = {DATA.cards.card[c].name for c in secrets if c in DATA.cards.card} | set(secrets)
    public = [T.narrate(e, state) for e in events]
    assert all(line or T.private(e, state) for e, line in zip(events, public, strict=True))
    for name in names:
        assert name not in board and name not in str(public), name


@pytest.mark.rule("BM-DIG-2")
def test_text_board_while_races_are_drafted() -> None:
    state, _ = SE.new_game(DATA, seats(2), BMOptions(races="draft"), 5)
    board = T.text_board(state)
    assert board.splitlines()[0] == "**Battlemist** · setup · race draft"
    assert "**P1** (race still to choose): nothing · ★ 1 · 1 vote · 0 cards" in board.splitlines()


@pytest.mark.rule("BM-DIG-2", "BM-DIG-5")
def test_text_board_of_a_busy_position() -> None:
    s = busy()
    before = snapshot(s)
    board = T.text_board(s)
    assert snapshot(s) == before
    lines = board.splitlines()
    assert lines[0] == "**Battlemist** · round 4 · combat step · P1's turn"
    for rid in s.regions:
        assert any(line.startswith(T.region(rid) + " — ") for line in lines), rid
    assert "N05 Three Princes — P1 I3 A1 C2, P2 I2 M1 · city" in lines
    assert "N06 Greywood — P2* I4 · large city" in lines
    assert "H-ELF Homeland: Lotharia Elves — P1 C1 · occupied by P1" in lines
    assert "N07 Abou Xar — empty" in lines
    p1 = next(line for line in lines if line.startswith("**P1**"))
    assert p1 == "**P1** (Knights of Daqan): 5 grain, 3 wood, 2 iron · ★ 3 (1 spent) · 1 vote · 2 cards"
    assert "heroes: 1 in N05 Three Princes (3 life)" in board and "artifacts: War Horn" in board
    assert "Events this round: Plague" in board and f"Grey Guild: {s.star_pool} Stars left" in lines
    assert "2 votes" in next(line for line in lines if line.startswith("**P2**"))
    for secret in ("Ambush", "AC04", "Spy", "AC15", "Inspired", "QA01", "QA02", "Young Dragon", "AC07", "Bountiful"):
        assert secret not in board, secret


# ---------------------------------------------------------------------------------------------------- the catalogue


def test_every_catalogue_key_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendering every event, private line, prompt, summary and board uses each key of battlemist_text.json."""
    used: set[str] = set()
    real = i18n.translate

    def spy(key: str, locale: str = "en", **params: Any) -> str:
        used.add(key)
        return real(key, locale, **params)

    monkeypatch.setattr(i18n, "translate", spy)
    monkeypatch.setattr(T, "translate", spy)
    for _ in _everything():
        pass
    keys = set(json.loads(CATALOGUE.read_text(encoding="utf-8")))
    assert not keys - used, f"unused: {sorted(keys - used)}"


def _everything() -> Iterator[str | None]:
    """Every line the module can write, over the variants of each message."""
    s = busy()
    for cls in event_classes():
        yield T.narrate(build(cls), s) or T.private(build(cls), s)
    for purpose in ("build_order", "vote_order", "initiative", "initiative_tie", "tremors", "other_thing"):
        yield T.narrate(Rolled(purpose=purpose, dice=[3]), s)
    yield T.sequel(Rolled(purpose="tremors", dice=[3], region="N05"), Rolled(purpose="tremors", dice=[9]), s)
    yield T.narrate(UP.UpkeepPaid(player=1, paid={}), s)
    yield T.private(QE.QuestDrawn(player=1, adventure="QA05", returned=["STAR"], private_to=1), s)
    for kind, detail in SAMPLE_DECISIONS.items():
        yield T.prompt(Decision(player=1, kind=kind, detail=detail), s)
    for effect in ("failed_harvest", "mana_storm", "blizzard"):
        yield T.narrate(CO.EffectSet(card="EV3", effect=effect, value="half"), s)  # type: ignore[arg-type]
    for book in ("econstart", "orders", "upkeep"):
        yield T.narrate(EC.PlaysLocked(player=1, step=book), s)
    for source in ("archery", "cavalry", "melee", "fireball", "terror"):
        yield T.narrate(BT.HitsScored(victim=1, region="N05", step=source, kills=1, routs=0), s)
    for window in ("econstart", "prequest", "quest", "encounter", "movestart", "battlestart", "rally"):
        yield T.narrate(QE.WindowPassed(player=1, window=window), s)
    for kind in ("city", "large_city"):
        yield T.narrate(EC.CityDestroyed(region="N05", city=kind, reason="upkeep"), s)
    for unit in ("infantry", "archers", "cavalry", "giant", "firebreather", "dragon"):
        yield T.narrate(CB.SpellEffect(player=1, region="N05", source="SP12", detail=unit), s)
        yield T.narrate(EC.Recruited(player=1, region="N05", unit=unit, n=2, cost={}), s)
    yield T.narrate(BT.CasualtiesTaken(player=1, region="N05", step="melee", kills={}, routs={}), s)
    yield T.narrate(BT.CasualtiesTaken(player=1, region="N05", step="melee", kills={"infantry": 1},
                                       routs={"cavalry": 1}), s)
    yield T.narrate(CB.CombatStepBegun(player=1, battles=[]), s)
    yield T.narrate(CO.CitiesStruck(), s)
    yield T.narrate(BT.BattleEnded(region="N05", winner=None, destroyed={}), s)
    yield T.prompt(Decision(player=1, kind="bm_duels", detail={"duels": []}), s)
    yield T.prompt(Decision(player=1, kind="place_tile", detail={"tiles": [], "homeland": False}), s)
    yield T.summary(1, [build(cls) for cls in event_classes()], s)
    yield T.summary(3, [], s)
    yield from (T.narrate(e, s) for e in shared_events())
    yield T.text_board(SE.new_game(DATA, seats(2), BMOptions(races="draft"), 5)[0])
    yield T.summary(1, [MV.UnitsMoved(player=1, n=2, unit="archers", path=["N05", "N06"])], s)
    for phase in Phase:
        s.phase = phase
        yield T.text_board(s)
    s.combat = BT.Combat(battle=BT.Battle(region="N05", attacker=BT.Side(player=1, active=s.units("N05", 1)),
                                          defender=BT.Side(player=2, active=s.units("N05", 2)), round=2))
    s.players = [*s.players, BMPlayer(id=4, name="P4", colour="grey", race="DRK", status="resigned")]
    s.winners = [1]
    s.effects = Effects(failed_harvest="half", halvings=2, mana_storm="costly", surcharge=1, blizzard="no_mountains")
    yield T.text_board(s)
    s.effects = Effects(failed_harvest="none", mana_storm="none", blizzard="slow")
    yield T.text_board(s)
    yield T.sequel(build(BT.BattleDice), build(BT.BattleDice), s)
    yield T.sequel(build(QE.HeroStrikes), build(QE.FoesStrike), s)
    yield T.sequel(build(QE.DuelStrike), build(QE.DuelStrike), s)
    yield T.sequel(BT.CasualtiesTaken(player=2, region="N05", step="melee", kills={}, routs={"infantry": 1}),
                   BT.HitsScored(victim=2, region="N05", step="melee", kills=0, routs=1), s)


# ---------------------------------------------------------------------------------------------------- whole games


def played(players: int, seed: int, actions: int = 400) -> Iterator[tuple[BMState, list[Event], list[Decision]]]:
    """A game the stand-ins play: after each action, the state, its events and the decisions then pending."""
    state, events = RS.new_game(seats(players), BMOptions(), seed)
    yield state, events, RS.pending(state)
    for _ in range(actions):
        if state.phase is Phase.GAME_OVER:
            return
        state, events = apply(state, RS.timeout_action(state, RS.pending(state)[0].player))
        yield state, events, RS.pending(state)


@pytest.mark.rule("BM-DIE-4", "BM-DIG-5")
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_whole_games_told_without_a_secret(players: int, seed: int) -> None:
    """Every event of stand-in games has its line, every roll shows its dice, every decision its prompt; no
    public line or board names a card in a hand or a current quest, and the board is the same from the public
    view."""
    for state, events, decisions in played(players, seed):
        secrets = {c for hand in state.hands.values() for c in hand} | set(state.quests.values())
        hidden = secrets | {DATA.cards.card[c].name for c in secrets if c in DATA.cards.card}
        public = [T.narrate(e, state) for e in events]
        for event, line in zip(events, public, strict=True):
            assert line or (event.private_to is not None and T.private(event, state)), event
            if isinstance(event, Rolled):
                assert line is not None and all(str(d) in line for d in event.dice)
        for decision in decisions:
            text = T.prompt(decision, state)
            assert "{" not in text and "`/bm " in text, text
        board = T.text_board(state)
        assert board == T.text_board(RS.view(state, None))
        told = " ".join(line for line in public if line) + board
        assert not [h for h in hidden if h in told]


# ---------------------------------------------------------------------------------------------------- stories


class Words:
    """The two functions `engine.service.news.narrate` asks a ruleset for."""

    narrate = staticmethod(T.narrate)
    sequel = staticmethod(T.sequel)


@pytest.mark.rule("BM-DIE-4")
def test_an_encounter_told_one_exchange_a_line() -> None:
    state = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA30"}, quest_deck=["AR4"], dice=[6, 4, 2, 5, 1, 9])
    state, moved = run(state, QU.HeroMove(player=1, hero=1, path=["N31"]))
    state, fought = run(state, QU.QuestPass(player=1))
    assert news.narrate(Words(), state, moved + fought) == [
        "P1's hero 1 moves: N31 Mistwood.",
        "🗺️ P1 completes quest QA30 in N31 Mistwood!",
        "👹 P1's hero 1 faces Ghoul.",
        "P1 passes (W-ENCOUNTER).",
        "🎲 The monsters strike P1's hero 1: 6 → 1 damage, 4 life left · strikes back: 4 (hits on 5+) → monster 1 "
        "has 2 life left",
        "🎲 The monsters strike P1's hero 1: 2 → 0 damage, 4 life left · strikes back: 5 (hits on 5+) → monster 1 "
        "has 1 life left",
        "🎲 The monsters strike P1's hero 1: 1 → 0 damage, 4 life left · strikes back: 9 (hits on 5+) → monster 1 "
        "has 0 life left",
        "🏅 P1's hero 1 wins the encounter.",
        "✨ P1 finds War Horn: +1 on your rally rolls."]


@pytest.mark.rule("BM-DIE-4")
def test_a_duel_told_in_one_line_of_blows() -> None:
    heroes = [hero(1, 1, "N11", life=2), hero(2, 1, "N11", life=2)]
    state = step(heroes=heroes, quests={1: "QA01", 2: "QA05"}, dice=[5, 6, 2, 7])
    state, events = run(state, QU.EndHeroes(player=1), QU.DuelHero(player=1, hero=1, defender=2, target=1),
                        QU.QuestPass(player=1), QU.QuestPass(player=2))
    lines = news.narrate(Words(), state, events)
    assert "⚔️ P1's hero 1 challenges P2's hero 1 to a duel." in lines
    blows = next(line for line in lines if line.startswith("🎲"))
    assert blows == ("🎲 P2's hero 1 strikes: 5 (hits on 5+) → 1 life left · P1's hero 1: 6 (hits on 5+) → 1 life "
                     "left · P2's hero 1: 2 (hits on 5+) → 1 life left · P1's hero 1: 7 (hits on 5+) → 0 life left")
    assert "QA05" not in " ".join(lines)  # the loser's quest is discarded unrevealed


@pytest.mark.rule("BM-DIE-4")
def test_a_battle_told_step_by_step() -> None:
    """A whole battle the stand-ins fight: each step's dice on one line, with every face; a victim's losses on
    the line of his hits; the end and the plunder choice."""
    state = position(("DAQ", "ORC"), phase=Phase.COMBAT, seed=11,
                     troops={"N05": {1: {"infantry": 4, "archers": 2, "cavalry": 2},
                                     2: {"infantry": 5, "archers": 1, "giant": 1}}})
    state.cities = {"N05": CityMark(kind="city", since=0)}
    rng = Rng(state.rng)
    events = CB.begin_combat(state, rng)
    while decisions := CB.pending(state):
        action = CB.timeout_combat(state, decisions[0].player)
        state = copier(BMState)(state)
        events += CB.HANDLERS[action.type](state, action, rng)  # type: ignore[operator]
    lines = news.narrate(Words(), state, events)
    assert len(lines) < len(events)
    assert lines[:2] == ["⚔️ P1's combat step: a battle in N05 Three Princes.",
                         "⚔️ Battle in N05 Three Princes: P1 attacks P2 (siege: −1 to the attacker's dice)."]
    dice = [e for e in events if isinstance(e, BT.BattleDice)]
    rolled = [line for line in lines if line.startswith("🎲 N05 Three Princes, ")]
    assert sum(line.count("→") for line in rolled if "rally" not in line) == len(dice)
    for e in dice:
        assert any(f"{state.name(e.player)} {T.faces(e.results)}" in line for line in rolled)
    assert any("killed" in line and "takes" in line for line in lines)
    assert lines[-3:] == ["🏳️ P1 wins the battle in N05 Three Princes. Lost: P2 4 infantry and 1 archer.",
                          "P1 spares the city in N05 Three Princes.", "P1's combat step is over."]
