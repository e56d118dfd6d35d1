"""Battlemist setup (BM-SET-1 … 7, SET-9 … 11, BM-BRD-1): seats and races (random, or the draft [OPT] BM-SET-5),
the decks, the Stars, the starting stock and units, then round 1's Council; build mode [OPT] comes between the
races and the deployment (build.py). The first quests (BM-SET-8) are drawn by the quest rules, not here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from engine.core.errors import RuleError, player_count_error
from engine.core.events import BoardChanged
from engine.core.i18n import msg
from engine.core.models import Action, Decision, Event, Seat
from engine.core.rng import Rng, RngState
from engine.games.battlemist import build as B
from engine.games.battlemist.data import BattlemistData, RaceId, load
from engine.games.battlemist.phases import wrong_phase
from engine.games.battlemist.pieces import HeroToken, Stars, Stock, Troops
from engine.games.battlemist.quest_cards import new_quest_deck
from engine.games.battlemist.state import BMOptions, BMPlayer, BMState, Phase

PLAYERS = (2, 6)
"""BM-SET-3."""
UNDECIDED = "white"
"""A seat's colour until the draft gives it a race (its race's colour, BM-RACE-1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PickRace(Action):
    """The race draft (BM-SET-5): the seat whose turn it is takes a race its column of BM-SET-1 allows."""

    type: Literal["pick_race"] = "pick_race"
    race: RaceId


@dataclass(slots=True, kw_only=True)
class RacePicked(Event):
    type: Literal["race_picked"] = "race_picked"
    player: int
    race: RaceId


@dataclass(slots=True, kw_only=True)
class RaceCard(Event):
    """One seat's race as the bot reads it out (BM-SET-4): the race and its abilities' ids."""

    type: Literal["race_card"] = "race_card"
    player: int
    race: RaceId
    abilities: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class RacesAnnounced(Event):
    """Every race in play with its abilities, for the bot to post at the start (BM-SET-4)."""

    type: Literal["races_announced"] = "races_announced"
    races: list[RaceCard]


@dataclass(slots=True, kw_only=True)
class SetupFinished(BoardChanged):
    """The board is set and the first round begins at its Council phase (BM-SET-11)."""

    type: Literal["setup_finished"] = "setup_finished"
    regions: list[str]


def allowed(data: BattlemistData, players: int, seat: int) -> list[RaceId]:
    """The races seat `seat` (0 = the first to join) may take with `players` players (BM-SET-1)."""
    return list(data.rules.seating[str(players)][seat])


def assign_random(data: BattlemistData, players: int, rng: Rng) -> list[RaceId]:
    """The `random` assignment (BM-SET-2): the seats are dealt the columns of BM-SET-1 in random order, and each
    takes a random race its column allows that nobody has yet."""
    columns = list(range(players))
    rng.shuffle(columns)
    races: list[RaceId | None] = [None] * players
    for seat, column in enumerate(columns):
        free = [r for r in allowed(data, players, column) if r not in races]
        races[seat] = free[rng.below(len(free))]
    return [r for r in races if r is not None]


def action_deck(data: BattlemistData, players: int) -> list[str]:
    """The 81 action cards by their counts (BM-ACT-8), without the events with 2 players (BM-SET-7, BM-A-23)."""
    cards = [c for c in data.cards.actions for _ in range(c.count)]
    if players > 2:
        cards += [c for c in data.cards.events for _ in range(c.count)]
    return [c.id for c in cards]


def new_game(data: BattlemistData, seats: Sequence[Seat], options: BMOptions,
             seed: int) -> tuple[BMState, list[Event]]:
    """A new game: in the draft (phase DRAFT), in construction (phase BUILD) or at round 1's Council."""
    if not PLAYERS[0] <= len(seats) <= PLAYERS[1]:
        raise player_count_error(msg("title.battlemist"), *PLAYERS, len(seats))
    if len({s.id for s in seats}) != len(seats):
        raise RuleError("E_ALREADY_JOINED")
    rng = Rng(RngState.from_seed(seed))
    races: list[RaceId | None] = [None] * len(seats)
    if options.races == "random":
        races = list(assign_random(data, len(seats), rng))
    colour = {r.id: r.colour for r in data.rules.races}
    players = [BMPlayer(id=s.id, name=s.name, ai=s.ai, race=race, colour=colour[race] if race else UNDECIDED)
               for s, race in zip(seats, races, strict=True)]
    deck = action_deck(data, len(seats))
    rng.shuffle(deck)
    quests = new_quest_deck(rng)
    start = data.rules.start_stars
    state = BMState(rng=rng.export(), options=options, players=players, phase=Phase.DRAFT, regions=[],
                    deck=deck, quest_deck=quests, hands={s.id: [] for s in seats},
                    stars={s.id: Stars(owned=start) for s in seats},
                    star_pool=data.rules.star_pool - start * len(seats))
    if options.races == "draft":
        return state, []
    events = after_races(state, rng)
    state.rng = rng.export()
    return state, events


def after_races(state: BMState, rng: Rng) -> list[Event]:
    """Once every seat has a race: construction in build mode, else the deployment."""
    return B.begin_build(state, rng) if state.options.board == "build" else deploy(state)


def deploy(state: BMState) -> list[Event]:
    """The regions in play (BM-BRD-1: the homelands of absent races are void), the starting stock (BM-SET-10),
    2 infantry and Hero no. 1 in each homeland (BM-SET-11); round 1 then begins with the first quests (the rules'
    `begin_round`)."""
    data = load()
    rules = data.rules
    if state.build is None:
        state.regions = [r for r in data.map.ids if not r.startswith("H-") or state.seat_of_race(r[2:]) is not None]
    ids = [p.id for p in state.players]
    state.stock = {pid: Stock(**rules.race[state.race(pid)].start) for pid in ids}
    state.troops = {state.homeland(pid): {pid: Troops(**rules.start_units)} for pid in ids}
    state.heroes = [HeroToken(owner=pid, number=1, region=state.homeland(pid), life=rules.hero.life) for pid in ids]
    state.phase = Phase.COUNCIL
    state.round = 0
    cards = [RaceCard(player=pid, race=state.race(pid), abilities=list(rules.race[state.race(pid)].abilities))
             for pid in ids]
    return [RacesAnnounced(races=cards), SetupFinished(regions=list(state.regions))]


def drafting(state: BMState) -> int | None:
    """The seat whose pick it is: the first in join order without a race (BM-SET-5)."""
    return next((p.id for p in state.players if p.race is None), None)


def free_races(state: BMState, pid: int) -> list[RaceId]:
    """The races `pid` may still pick: his column of BM-SET-1, less those taken."""
    seat = state.seat_order().index(pid)
    taken = {p.race for p in state.players}
    return [r for r in allowed(load(), len(state.players), seat) if r not in taken]


def pick_race(state: BMState, action: PickRace, rng: Rng) -> list[Event]:
    """BM-SET-5: checks phase, turn, then the race (BM_E_RACE_NOT_ALLOWED); the last pick starts the board."""
    picker = drafting(state)
    if state.phase is not Phase.DRAFT or picker is None:
        raise wrong_phase(state.phase, "pick_race")
    if action.player != picker:
        raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(picker))
    if action.race not in free_races(state, picker):
        raise RuleError("BM_E_RACE_NOT_ALLOWED", race=action.race, n=state.seat_order().index(picker) + 1,
                        N=len(state.players))
    colour = load().rules.race[action.race].colour
    state.players = [replace(p, race=action.race, colour=colour) if p.id == picker else p for p in state.players]
    events: list[Event] = [RacePicked(player=picker, race=action.race)]
    if drafting(state) is None:
        events += after_races(state, rng)
    return events


def place_tile(state: BMState, action: B.PlaceTile, rng: Rng) -> list[Event]:
    """Build mode (BM-BLD-10): one tile; after the last one (BLD-11) the deployment."""
    B.check_place(state, action)
    events = B.lay(state, action)
    assert state.build is not None
    if state.build.turn is None:
        events += deploy(state)
    return events


HANDLERS = {PickRace: pick_race, B.PlaceTile: place_tile}
"""This module's actions and their handlers, for the game's dispatcher."""


def setup_decisions(state: BMState) -> list[Decision]:
    """Who must act during setup: the drafting seat, or the tile placer."""
    if state.phase is Phase.DRAFT:
        picker = drafting(state)
        return [] if picker is None else [Decision(player=picker, kind="pick_race",
                                                   detail={"races": free_races(state, picker)})]
    if state.phase is Phase.BUILD and state.build is not None and state.build.turn is not None:
        pid = state.build.turn
        return [Decision(player=pid, kind="place_tile",
                         detail={"tiles": list(state.build.tiles.get(pid, [])),
                                 "homeland": pid in state.build.homes})]
    return []


def timeout_draft(state: BMState, pid: int) -> PickRace:
    """The stand-in's pick (BM-DIG-19): a random race still allowed, from the game's Rng read without advancing
    it (the same position always gives the same race)."""
    free = free_races(state, pid)
    return PickRace(player=pid, race=free[Rng(state.rng).below(len(free))])


def timeout_setup(state: BMState, pid: int) -> Action:
    """The stand-in's setup action: a draft pick or a tile."""
    if state.phase is Phase.DRAFT:
        return timeout_draft(state, pid)
    return B.timeout_build(state, pid)
