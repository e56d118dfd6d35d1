"""Battlemist's legal choices: what autocomplete offers for an action's field, the buttons of every in-flow
decision, and the candidate actions the AI picks from.

Everything here is held to the rules by trying it: a value or a button is offered only when `rules.apply`
accepts the action it stands for (BM-DIG-13), so an offered choice is never refused. The candidates are built
from the areas' own helpers (movement's `next_hops`, combat's `assignments`, the economy's `evaluate` …), so
only a handful of actions are ever tried.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from engine.core.controls import Choice, Control, Style
from engine.core.errors import RuleError
from engine.core.i18n import Msg, msg
from engine.core.models import Action, Decision, Event, to_json
from engine.games.battlemist import battle as B
from engine.games.battlemist import (
    build,
    combat,
    council,
    economy,
    heroes,
    movement,
    names,
    quest,
    rules,
    ruleset,
    setup,
    upkeep,
    windows,
)
from engine.games.battlemist.data import ARMY, RACES, RESOURCES, ActionCard, Spell, load
from engine.games.battlemist.economy import EconOrders, EconPlay, EconStart, Line
from engine.games.battlemist.initiative import InitiativeMod
from engine.games.battlemist.phases import TURN
from engine.games.battlemist.pieces import UNIT_KINDS, Stars
from engine.games.battlemist.state import BMState, Phase

MENU_MAX = 25
"""A Discord select menu holds at most 25 options."""


# ---------------------------------------------------------------------------------------------------- the oracle


def accepted(state: BMState, action: Action) -> bool:
    """Whether `apply` takes `action` in `state` (the one source of legality)."""
    try:
        rules.apply(state, action)
    except RuleError:
        return False
    return True


def parse(data: dict[str, Any]) -> Action | None:
    """The action a dict spells, or None if it spells none."""
    try:
        return ruleset.ACTION_ADAPTER.validate_python(data)  # type: ignore[no-any-return]
    except ValueError:
        return None


def decisions_of(state: BMState, player: int) -> list[Decision]:
    return [d for d in ruleset.pending(state) if d.player == player]


# ---------------------------------------------------------------------------------------------------- helpers


def region_ids(state: BMState) -> list[str]:
    """The regions of this game in map order (the order every region choice is offered in)."""
    present = set(state.regions)
    return [r.id for r in load().map.regions if r.id in present]


def own_heroes(state: BMState, pid: int) -> list[int]:
    return sorted(h.number for h in state.heroes_of(pid))


def hand(state: BMState, pid: int, window: str | None = None) -> list[str]:
    """The distinct action cards in `pid`'s hand (of `window`, if given), in hand order."""
    cards = load().cards.actions_by_id
    return list(dict.fromkeys(c for c in state.hands.get(pid, [])
                              if window is None or (c in cards and cards[c].window == window)))


def spells(state: BMState, pid: int, window: str) -> list[str]:
    """The spells of `window` that `pid`'s Star power could pay for now."""
    power = state.stars.get(pid, Stars()).power
    return [s.id for s in load().cards.spells if s.window == window and s.cost <= power]


def hero_hops(state: BMState, pid: int, number: int, path: Sequence[str] = ()) -> list[str]:
    """The regions that may follow the partial hero `path` (BM-DIG-13): adjacent and legal by `check_path`."""
    hero = state.hero(pid, number)
    qs = state.quest_step
    if hero is None or qs is None:
        return []
    limit = heroes.allowance(state, pid, qs.haste.count(number))
    try:
        if path:
            heroes.check_path(state, hero, path, limit)
    except RuleError:
        return []
    last = path[-1] if path else hero.region
    hops = []
    for region in heroes.neighbours(state, last):
        try:
            heroes.check_path(state, hero, [*path, region], limit)
        except RuleError:
            continue
        hops.append(region)
    return hops


def shortest_paths(hops: Callable[[tuple[str, ...]], list[str]], origin: str) -> dict[str, tuple[str, ...]]:
    """A shortest legal path to every region `hops` reaches from `origin` (breadth first, map order)."""
    found: dict[str, tuple[str, ...]] = {}
    frontier: list[tuple[str, ...]] = [()]
    while frontier:
        nxt: list[tuple[str, ...]] = []
        for path in frontier:
            for region in hops(path):
                if region != origin and region not in found:
                    found[region] = (*path, region)
                    nxt.append(found[region])
        frontier = nxt
    return found


def unit_paths(state: BMState, pid: int, unit: str, origin: str) -> dict[str, tuple[str, ...]]:
    return shortest_paths(lambda p: movement.next_hops(state, pid, unit, origin, p), origin)


def hero_paths(state: BMState, pid: int, number: int) -> dict[str, tuple[str, ...]]:
    hero = state.hero(pid, number)
    origin = hero.region if hero is not None else ""
    return shortest_paths(lambda p: hero_hops(state, pid, number, p), origin)


def mixes(total: int, kinds: Sequence[str], room: dict[str, int]) -> Iterator[dict[str, int]]:
    """Every way to take `total` units of `kinds` within `room`."""
    if total == 0:
        yield {}
        return
    if not kinds:
        return
    first, rest = kinds[0], kinds[1:]
    for take in range(min(total, room.get(first, 0)), -1, -1):
        for tail in mixes(total - take, rest, room):
            yield {first: take, **tail} if take else tail


def add_line(state: BMState, pid: int, lines: tuple[Line, ...], line: Line) -> tuple[Line, ...] | None:
    """`lines` with `line` appended, if the whole set still has no error (BM-VAL-3)."""
    more = (*lines, line)
    return more if not economy.evaluate(state, pid, more).errors else None


def draft_lines(state: BMState, pid: int) -> tuple[Line, ...]:
    """`pid`'s unlocked order draft, or none."""
    book = state.economy.orders if state.economy is not None else None
    return book.drafts.get(pid, ()) if book is not None else ()


def placement_regions(state: BMState, pid: int) -> list[str]:
    """Where `pid` could place new units at all: regions with a placement site of his."""
    return [r for r in region_ids(state) if economy.placement_limit(state, pid, r) is not None]


def line_options(state: BMState, pid: int) -> list[Line]:
    """Every single order line worth trying for `pid` (recruits by 1, builds, hero, Guild, cards, spells, trades)."""
    lines: list[Line] = [economy.Guild(), economy.NewHero()]
    for region in placement_regions(state, pid):
        lines += [economy.Recruit(unit=unit, region=region) for unit in ARMY]
    for region in state.controlled(pid):
        lines += [economy.Build(region=region, city="large_city"), economy.Build(region=region)]
    lines += [economy.PlayCard(card=c) for c in hand(state, pid, "econorders")]
    lines += [economy.CastSpell(spell=s) for s in spells(state, pid, "econorders")]
    rate = economy.merchant_rate(state, pid)
    lines += [economy.Merchant(give=g, amount=rate, get=r) for g in RESOURCES for r in RESOURCES if g != r]
    return lines


# ---------------------------------------------------------------------------------------------------- candidates


def _setup(state: BMState, pid: int, d: Decision) -> list[Action]:
    if d.kind == "pick_race":
        return [setup.PickRace(player=pid, race=r) for r in d.detail["races"]]
    b = state.build
    assert b is not None
    return [build.PlaceTile(player=pid, tile=tile, q=q, r=r)
            for tile, (q, r) in build.legal(b, pid, state.homeland(pid))]


def _council(state: BMState, pid: int, d: Decision) -> list[Action]:
    if d.kind == "vote":
        return [council.Vote(player=pid, commit=True), council.Vote(player=pid, commit=False)]
    regions = list(d.detail["regions"])
    if d.kind == "plague_losses":
        n = council._card("EV2").remove or 0
        own = {r: council.default_removal(state.units(r, pid), n) for r in regions}
        return [council.PlagueLosses(player=pid), council.PlagueLosses(player=pid, removals=own)]
    pays = [regions, *([r] for r in regions)] if regions else []
    return [council.UprisingPayment(player=pid), *(council.UprisingPayment(player=pid, pay=p) for p in pays)]


def _econstart(state: BMState, pid: int) -> list[Action]:
    plays = [EconPlay(card=c, region=r) for c in [*hand(state, pid, "econstart"), *spells(state, pid, "econstart")]
             for r in region_ids(state)]
    return [EconStart(player=pid, lock=True), *(EconStart(player=pid, plays=(p,), lock=True) for p in plays)]


def _orders(state: BMState, pid: int) -> list[Action]:
    draft = draft_lines(state, pid)
    found: list[Action] = [EconOrders(player=pid, lock=True)]
    if draft:
        found.append(EconOrders(player=pid, lines=draft, lock=True))
    for line in line_options(state, pid):
        more = add_line(state, pid, draft, line)
        if more is not None:
            found.append(EconOrders(player=pid, lines=more))
    if state.options.player_trades:
        found += [economy.TradeOffer(player=pid, to=other, give={give: 1}, get={get: 1})
                  for other in state.active_ids() if other != pid
                  for give, get in itertools.pairwise(RESOURCES)]
    return found


def _upkeep(state: BMState, pid: int) -> list[Action]:
    return [upkeep.timeout_upkeep(state, pid), upkeep.SubmitUpkeep(player=pid, lock=True)]


def _quest(state: BMState, pid: int, d: Decision) -> list[Action]:
    mine = own_heroes(state, pid)
    if d.kind in ("bm_encounter_window", "bm_duel_window"):
        return [quest.QuestPass(player=pid), quest.InspiredHero(player=pid)]
    if d.kind == "bm_encounter_hero":
        return [quest.EncounterHero(player=pid, hero=h) for h in d.detail["heroes"]]
    if d.kind == "bm_encounter_target":
        return [quest.EncounterTarget(player=pid, foe=f["foe"]) for f in d.detail["foes"]]
    heal: list[Action] = [a for h in mine for a in (quest.HealingHerbs(player=pid, hero=h),
                                                    quest.HealingLight(player=pid, hero=h))]
    if d.kind == "bm_duels":
        duels = [quest.DuelHero(player=pid, hero=o["hero"], defender=o["defender"], target=o["target"])
                 for o in d.detail["duels"]]
        return [quest.EndQuest(player=pid), *duels, *heal]
    moves: list[Action] = [quest.HeroMove(player=pid, hero=h, path=list(p))
                           for h in mine for p in hero_paths(state, pid, h).values()]
    blinks: list[Action] = [quest.Blink(player=pid, hero=h, region=r) for h in mine for r in region_ids(state)
                            if "SP09" in spells(state, pid, "quest")]
    found: list[Action] = [quest.EndHeroes(player=pid), *moves, *heal, *blinks]
    if d.kind == "bm_prequest":
        found = [quest.QuestPass(player=pid), quest.QuestNew(player=pid),
                 *(quest.GreatHaste(player=pid, hero=h) for h in mine), *found]
    return found


def move_candidates(state: BMState, pid: int) -> list[movement.Move]:
    """One move order per (origin, unit, destination): all the unmoved units of that kind, by a shortest path,
    and a single unit when there are several."""
    found: list[movement.Move] = []
    for origin in movement.origins(state, pid):
        for unit in UNIT_KINDS:
            n = movement.unmoved(state, pid, origin, unit)
            if not n:
                continue
            for path in unit_paths(state, pid, unit, origin).values():
                found += [movement.Move(player=pid, n=k, unit=unit, origin=origin, path=path)  # type: ignore[arg-type]
                          for k in dict.fromkeys((n, 1))]
    return found


def _movement(state: BMState, pid: int) -> list[Action]:
    cards = [movement.MovePlay(player=pid, card=c, region=r)
             for c in hand(state, pid, "movestart") for r in [None, *region_ids(state)]]
    casts = [movement.MoveCast(player=pid, spell=s, region=r)
             for s in spells(state, pid, "movestart") for r in [None, *region_ids(state)]]
    return [movement.EndMove(player=pid), movement.Undo(player=pid), *move_candidates(state, pid), *cards, *casts]


def movestart_plays(state: BMState, pid: int) -> list[Action]:
    """The W-MOVESTART plays of the panel: each card and spell aimed at a region his units may start from (or at
    none, Pathfinders)."""
    cards = load().cards

    def aims(effect: ActionCard | Spell) -> list[str | None]:
        return [*movement.origins(state, pid)] if movement.aimed(effect) else [None]

    plays: list[Action] = [movement.MovePlay(player=pid, card=c, region=r)
                           for c in hand(state, pid, "movestart") for r in aims(cards.actions_by_id[c])]
    return plays + [movement.MoveCast(player=pid, spell=sp, region=r)
                    for sp in spells(state, pid, "movestart") for r in aims(cards.spell[sp])]


def individual_candidates(state: BMState, pid: int) -> list[Action]:
    """The W-INDIVIDUAL plays (Spy, Far Sight) on each other player, while the window is open for `pid`: all
    through his own turn (BM-WIN-1)."""
    if state.phase not in TURN or state.active != pid:
        return []
    others = [p for p in state.active_ids() if p != pid]
    plays: list[Action] = [windows.IndividualPlay(player=pid, card=c, target=t)
                           for c in hand(state, pid, "individual") for t in others]
    return plays + [windows.IndividualCast(player=pid, spell=sp, target=t)
                    for sp in spells(state, pid, "individual") for t in others]


def casualty_options(state: BMState, pid: int) -> list[tuple[dict[str, int], dict[str, int]]]:
    """The legal casualty assignments of `pid` (combat's `assignments`), at most a menu's worth."""
    b = state.combat.battle
    hits = b.hits_of(pid) if b is not None else None
    if b is None or hits is None:
        return []
    return list(itertools.islice(B.assignments(b.side(pid).active, hits, B.CHEAPEST), MENU_MAX))


def _combat(state: BMState, pid: int, d: Decision) -> list[Action]:
    b = state.combat.battle
    if d.kind == "battle_order":
        return [combat.ChooseBattle(player=pid, region=r) for r in d.detail["regions"]]
    assert b is not None
    if d.kind == "casualties":
        return [combat.AssignCasualties(player=pid, kills=k, routs=r)  # type: ignore[arg-type]
                for k, r in casualty_options(state, pid)]
    if d.kind == "reroll":
        dice = range(len(d.detail["dice"]) + 1)
        return [combat.Reroll(player=pid), *(combat.Reroll(player=pid, die=i) for i in dice)]
    if d.kind == "rally_pick":
        routed = b.side(pid).routed
        kinds = [k for k in ARMY if routed.get(k)]
        return [combat.RallyPick(player=pid, units=m)  # type: ignore[arg-type]
                for m in mixes(int(d.detail["n"]), kinds, {k: routed.get(k) for k in kinds})]
    if d.kind == "plunder":
        return [combat.Plunder(player=pid, yes=True), combat.Plunder(player=pid, yes=False)]
    plays = [combat.BattlePlay(player=pid, card=c) for c in d.detail["cards"]]
    casts = [combat.BattleCast(player=pid, spell=s, unit=u)  # type: ignore[arg-type]
             for s in d.detail["spells"] for u in (None, *ARMY)]
    return [combat.BattlePass(player=pid), *plays, *casts]


def decision_candidates(state: BMState, pid: int, d: Decision) -> list[Action]:
    """The actions worth trying for decision `d` of `pid`; some may be refused (see `legal_actions`)."""
    if d.kind == "trade_offer":
        offer = int(d.detail["offer"])
        return [economy.TradeAnswer(player=pid, offer=offer, accept=True),
                economy.TradeAnswer(player=pid, offer=offer, accept=False)]
    phase = state.phase
    if phase in (Phase.DRAFT, Phase.BUILD):
        return _setup(state, pid, d)
    if phase is Phase.COUNCIL:
        return _council(state, pid, d)
    if phase is Phase.ECONSTART:
        return _econstart(state, pid)
    if phase is Phase.ORDERS:
        return _orders(state, pid)
    if phase is Phase.UPKEEP:
        return _upkeep(state, pid)
    if phase is Phase.INITIATIVE:
        k = int(d.detail["k"])
        return [InitiativeMod(player=pid, change=c) for c in dict.fromkeys((0, k, -k))]
    if phase is Phase.QUEST:
        found = _quest(state, pid, d)
    elif phase is Phase.MOVEMENT:
        found = _movement(state, pid)
    else:
        found = _combat(state, pid, d)
    return found + individual_candidates(state, pid)


def candidates(state: BMState, pid: int) -> list[Action]:
    """The actions worth trying for every decision `pid` has pending."""
    return [a for d in decisions_of(state, pid) for a in decision_candidates(state, pid, d)]


def legal_actions(state: BMState, pid: int) -> list[Action]:
    """The candidates `apply` accepts."""
    return [a for a in candidates(state, pid) if accepted(state, a)]


def distinct(actions: Iterable[Action]) -> list[Action]:
    """`actions` without repeats (actions with dict fields are not hashable: compared as JSON)."""
    seen: set[str] = set()
    found = []
    for a in actions:
        key = repr(to_json(a))
        if key not in seen:
            seen.add(key)
            found.append(a)
    return found


def first_legal(state: BMState, actions: Iterable[Action]) -> Action | None:
    return next((a for a in actions if accepted(state, a)), None)


# ---------------------------------------------------------------------------------------------------- choices


def _values(state: BMState, pid: int, field: str, context: dict[str, Any]) -> list[Any]:
    """The values worth trying in `field` (before `apply` judges them)."""
    regions = region_ids(state)
    mine = own_heroes(state, pid)
    if field in ("move.origin", "battle.region", "blink.region", "move_play.region", "move_cast.region"):
        return regions
    if field == "move.unit":
        return list(UNIT_KINDS)
    if field == "move.n":
        return list(range(1, 1 + max((t.total() for here in state.troops.values()
                                      if (t := here.get(pid)) is not None), default=0)))
    if field in ("hero_move.hero", "great_haste.hero", "healing_herbs.hero", "healing_light.hero", "blink.hero",
                 "encounter_hero.hero", "duel.hero"):
        return mine
    if field in ("vote.commit", "plunder.yes", "trade_answer.accept"):
        return [True, False]
    if field in ("battle_play.card", "move_play.card", "discard.card", "individual_play.card"):
        return hand(state, pid)
    if field in ("battle_cast.spell", "move_cast.spell", "individual_cast.spell"):
        return [s.id for s in load().cards.spells]
    if field in ("individual_play.target", "individual_cast.target"):
        return [p for p in state.active_ids() if p != pid]
    if field == "pick_race.race":
        return list(RACES)
    if field == "initiative.change":
        k = state.initiative.large.get(pid, 0) if state.initiative is not None else 0
        return sorted({0, k, -k})
    if field == "encounter_target.foe":
        qs = state.quest_step
        fight = qs.fight if qs is not None else None
        return list(range(len(getattr(fight, "foes", ()))))
    if field == "trade_answer.offer":
        return [o.id for o in state.economy.offers] if state.economy is not None else []
    return []


DEFAULTS: dict[str, dict[str, Any]] = {
    "move": {"n": 1}, "battle_cast": {}, "econ_orders": {}, "trade_answer": {"accept": False},
    "plunder": {"yes": False}, "vote": {"commit": False}, "initiative": {"change": 0},
}
"""What an action takes for a field the player has not typed yet, to judge the others."""


def _label(field: str, value: Any, state: BMState) -> Msg:
    if isinstance(value, bool):
        return msg(f"bm.choice.{'yes' if value else 'no'}")
    if isinstance(value, str) and value in load().map.by_id:
        return msg("choice.name", name=names.region(value))
    if isinstance(value, str) and names.card_kind(value) is not None:
        return msg("choice.name", name=names.card_named(value))
    if field.endswith(".unit"):
        return movement.unit_label(value)
    if field.endswith(".hero") and state.active is not None:
        return msg("bm.choice.hero", n=value)
    return msg("choice.number", n=value) if isinstance(value, int) else msg("choice.name", name=str(value))


def choices(state: BMState, player: int, field: str, **context: Any) -> list[Choice]:
    """The values `player` may give in `field` (`<action type>.<field>`): each one `apply` accepts in the action
    the typed `context` spells, the rest of it being legal. `move.path` and `hero_move.path` offer the next hops
    of the partial path typed so far (movement's `next_hops`, BM-DIG-13)."""
    kind, _, name = field.partition(".")
    if field == "move.path":
        return _hops(state, player, context, lambda path: movement.next_hops(
            state, player, movement.resolve_unit(str(context.get("unit", ""))) or str(context.get("unit", "")),
            _region(context.get("origin")), path))
    if field == "hero_move.path":
        number = context.get("hero")
        return _hops(state, player, context,
                     lambda path: hero_hops(state, player, int(number), path) if isinstance(number, int) else [])
    if field in LINE_FIELDS:
        return [Choice(r, msg("choice.name", name=names.region(r)), names.region_spellings(r))
                for r in line_regions(state, player, field, context)]
    base = {"type": kind, **DEFAULTS.get(kind, {}), **context, "player": player}
    found = []
    for value in _values(state, player, field, context):
        action = parse(base | {name: value})
        if action is not None and accepted(state, action):
            found.append(Choice(value, _label(field, value, state), _aliases(value)))
    return found


def _aliases(value: Any) -> tuple[str, ...]:
    """What a player may type for a region or a race besides its label: its name in every language."""
    if value in load().map.by_id:
        return names.region_spellings(value)
    return names.race_spellings(value) if value in RACES else ()


LINE_FIELDS = frozenset({"econ_orders.recruit", "econ_orders.build", "econ_start.region"})
"""Regions for one line of an order set: a recruit (context `unit`, `n`), a build (context `city`), a W-ECONSTART
play (context `card`)."""


def line_regions(state: BMState, pid: int, field: str, context: dict[str, Any]) -> list[str]:
    """The regions where the line `field` names is valid after the player's draft as it stands (BM-VAL-3: the
    set is checked as a whole), or, for a W-ECONSTART play, accepted by `apply`."""
    if field == "econ_start.region":
        card = str(context.get("card", ""))
        return [r for r in region_ids(state)
                if accepted(state, EconStart(player=pid, plays=(EconPlay(card=card, region=r),)))]
    draft = draft_lines(state, pid)
    found = []
    for region in region_ids(state):
        try:
            line: Line = (economy.Recruit(unit=context.get("unit", "infantry"), region=region,
                                          n=int(context.get("n", 1)))
                          if field == "econ_orders.recruit" else
                          economy.Build(region=region, city=context.get("city", "city")))
        except (TypeError, ValueError):
            return []
        if add_line(state, pid, draft, line) is not None:
            found.append(region)
    return found


def _region(text: object) -> str:
    try:
        return movement.resolve_region(str(text or ""))
    except RuleError:
        return ""


def _hops(state: BMState, pid: int, context: dict[str, Any], hops: Callable[[list[str]], list[str]]) -> list[Choice]:
    typed = context.get("path") or []
    try:
        path = [movement.resolve_region(str(r)) for r in (typed.split() if isinstance(typed, str) else typed)]
    except RuleError:
        return []
    return [Choice(r, msg("choice.name", name=names.region(r)), names.region_spellings(r)) for r in hops(path)]


# ---------------------------------------------------------------------------------------------------- controls


BUTTONS: dict[str, tuple[str, Style]] = {
    "vote": ("vote", "primary"), "quest_pass": ("pass", "secondary"), "battle_pass": ("pass", "secondary"),
    "end_heroes": ("end_heroes", "primary"), "end_quest": ("end_quest", "primary"),
    "end_move": ("end_move", "primary"), "undo": ("undo", "secondary"), "plunder": ("plunder", "danger"),
    "trade_answer": ("trade", "success"), "quest_new": ("quest_new", "primary"),
    "inspired_hero": ("inspired", "success"), "reroll": ("reroll", "secondary"),
}
"""Action type → its button's message (`bm.button.<key>`) and style."""
MENUS = frozenset({"pick_race", "place_tile", "casualties", "rally", "battle", "encounter_hero",
                   "encounter_target", "duel", "battle_play", "battle_cast", "great_haste", "initiative",
                   "plague_losses", "uprising_payment", "econ_start", "hero_move", "blink", "healing_herbs",
                   "healing_light", "move_play", "move_cast"})
"""Action types offered as a menu of options (one per legal action)."""


def _in_menu(action: Action) -> bool:
    """Whether an action is one option of its type's menu (locking no W-ECONSTART plays is a button)."""
    return action.type in MENUS and not (isinstance(action, EconStart) and not action.plays)


def describe(state: BMState, action: Action) -> Msg:
    """What an action does, as a button or menu option shows it."""
    told = LABELS.get(type(action))
    return told(state, action) if told is not None else msg(f"bm.action.{action.type}")


def _detailed(action: Action, detail: Msg | list[Msg] | None) -> Msg:
    """`bm.action.<type>` followed by what it is done with (`Take race DAQ`), or alone when that is nothing."""
    if not detail:
        return msg(f"bm.action.{action.type}")
    return msg("bm.button.action", action=msg(f"bm.action.{action.type}"), detail=detail)


def _units(counts: dict[str, int]) -> list[Msg] | str:
    return [names.units(unit, n) for unit, n in counts.items() if n] or "—"


def _foe(state: BMState, action: quest.EncounterTarget) -> Msg:
    qs = state.quest_step
    foes = getattr(qs.fight if qs is not None else None, "foes", ())
    name = names.monster(foes[action.foe].name) if 0 <= action.foe < len(foes) else "?"
    return msg("bm.label.strike", n=action.foe + 1, name=name)


def _upkeep_plan(state: BMState, action: upkeep.SubmitUpkeep) -> Msg:
    """The maintenance a stand-in would confirm: its merchant trades, then what it disbands."""
    trades = [msg("bm.term.detail.trade", give=msg(f"bm.res.{t.give}", n=t.amount), get=names.resource(t.get))
              for t in action.trades]
    disband = [msg("bm.term.detail.reduce", n=d.n, region=d.region) if d.what == "city" else
               msg("bm.term.detail.disband", units=names.units(d.what, d.n), region=d.region) for d in action.disband]
    return _detailed(action, [*trades, *disband])


def _hero(state: BMState, action: quest.GreatHaste | quest.HealingHerbs | quest.HealingLight |
          quest.EncounterHero) -> Msg:
    return _detailed(action, msg("bm.choice.hero", n=action.hero))


LABELS: dict[type, Callable[[BMState, Any], Msg]] = {
    quest.EncounterTarget: _foe,
    quest.DuelHero: lambda s, a: msg("bm.label.duel", hero=a.hero, player=s.name(a.defender), target=a.target),
    quest.HeroMove: lambda s, a: msg("bm.label.hero_move", hero=a.hero, path=" → ".join(a.path)),
    combat.ChooseBattle: lambda s, a: msg("bm.label.battle", region=names.region(a.region)),
    combat.AssignCasualties: lambda s, a: msg("bm.label.casualties", kills=_units(a.kills), routs=_units(a.routs)),
    combat.RallyPick: lambda s, a: msg("bm.label.rally", units=_units(a.units)),
    combat.BattleCast: lambda s, a: msg("bm.label.cast", spell=names.card_named(a.spell),
                                        unit=movement.unit_label(a.unit) if a.unit else "none"),
    combat.BattlePlay: lambda s, a: msg("bm.label.play", card=names.card_named(a.card)),
    council.UprisingPayment: lambda s, a: msg("bm.label.uprising", regions=", ".join(a.pay) or "none"),
    movement.MovePlay: lambda s, a: msg("bm.label.move_play", source=names.card_named(a.card),
                                        region=names.region(a.region) if a.region else "none"),
    movement.MoveCast: lambda s, a: msg("bm.label.move_play", source=names.card_named(a.spell),
                                        region=names.region(a.region) if a.region else "none"),
    windows.IndividualPlay: lambda s, a: msg("bm.label.spy", source=names.card_named(a.card),
                                             player=s.name(a.target)),
    windows.IndividualCast: lambda s, a: msg("bm.label.spy", source=names.card_named(a.spell),
                                             player=s.name(a.target)),
    setup.PickRace: lambda s, a: _detailed(a, msg("bm.term.detail.race", race=a.race)),
    build.PlaceTile: lambda s, a: _detailed(a, msg("bm.term.detail.tile", tile=a.tile, q=a.q, r=a.r)),
    council.PlagueLosses: lambda s, a: _detailed(a, [msg("bm.term.detail.removal", units=_units(units), region=r)
                                                     for r, units in a.removals.items()]),
    EconStart: lambda s, a: _detailed(a, [msg("bm.term.detail.play", card=names.card_named(p.card), region=p.region)
                                          for p in a.plays]),
    upkeep.SubmitUpkeep: _upkeep_plan,
    InitiativeMod: lambda s, a: _detailed(a, msg("bm.term.detail.change", change=a.change)),
    quest.GreatHaste: _hero,
    quest.HealingHerbs: _hero,
    quest.HealingLight: _hero,
    quest.EncounterHero: _hero,
    quest.Blink: lambda s, a: _detailed(a, msg("bm.term.detail.blink", hero=a.hero, region=a.region)),
}
"""Each action type's button or menu option as a sentence that names what it is done with (in the reader's
language: never the action's raw fields); a type without one shows its `bm.action.<type>` alone."""


def _show(value: object) -> str:
    if isinstance(value, dict):
        return " ".join(f"{n} {k}" if isinstance(n, int) else f"{k}:{_show(n)}" for k, n in value.items())
    if isinstance(value, list):
        return " ".join(_show(v) for v in value)
    return str(value)


def _control(state: BMState, action: Action) -> Control:
    key, style = BUTTONS.get(action.type, ("action", "secondary"))
    data = _data(action)
    if isinstance(action, EconStart) and not action.plays:
        return Control(data, msg("bm.button.lock_plays"), "success")
    if key == "action":
        return Control(data, describe(state, action), style)
    params = {k: v for k, v in data.items() if k != "type"}
    if isinstance(action, combat.Reroll) and action.die is not None:
        params["die"] = action.die + 1  # dice are counted from 1 where players read them
    label = msg(f"bm.button.{key}", **{k: _show(v) for k, v in params.items()})
    if action.type in ("vote", "plunder", "trade_answer"):
        yes = bool(params.get("commit", params.get("yes", params.get("accept"))))
        label = msg(f"bm.button.{key}.{'yes' if yes else 'no'}")
        style = "success" if yes else "danger"
    return Control(data, label, style)


def _lock_controls(state: BMState, pid: int) -> list[Control]:
    """The order builder (BM-DIG-6, DIG-7): lock the draft as it stands, or lock no orders; drop the last line;
    a menu of the single lines that keep the set valid."""
    draft = draft_lines(state, pid)
    found = [Control(_data(EconOrders(player=pid, lines=draft, lock=True)),
                     msg("bm.button.lock_orders", n=len(draft)), "success")]
    if draft:
        found += [Control(_data(EconOrders(player=pid, lock=True)), msg("bm.button.lock_none"), "danger"),
                  Control(_data(EconOrders(player=pid, lines=draft[:-1])), msg("bm.button.drop_order"), "secondary")]
    lines = [(line, more) for line in line_options(state, pid) if (more := add_line(state, pid, draft, line))]
    options = tuple(Control(_data(EconOrders(player=pid, lines=more)), line_label(line), "secondary")
                    for line, more in lines[:MENU_MAX])
    if options:
        found.append(Control(options[0].action, msg("bm.menu.add_order"), "primary", options=options))
    return found


def line_label(line: Line) -> Msg:
    """One order line as the builder and the player's draft show it."""
    data = {k: v for k, v in to_json(line).items() if k != "kind"}
    if "region" in data:
        data["region"] = names.region(data["region"])
    for key in ("card", "spell"):
        if key in data:
            data[key] = names.card_named(data[key])
    if "unit" in data:
        data["unit"] = movement.unit_label(data["unit"])
    for key in ("give", "get"):
        if key in data:
            data[key] = names.resource(data[key])
    return msg(f"bm.line.{line.kind}", **data)


def _data(action: Action) -> dict[str, Any]:
    """An action as a control carries it: without the player (the one who presses is the player)."""
    return {k: v for k, v in to_json(action).items() if k != "player"}


def controls(state: BMState, player: int, recent: Sequence[Event] = ()) -> list[Control]:
    """The buttons of `player`'s pending decisions, and a menu of his W-INDIVIDUAL plays all through his turn:
    single actions as buttons, choices among many as menus (at most 25 options); each is an action `apply` accepts
    from him. `recent` changes nothing here."""
    found: list[Control] = []
    for d in decisions_of(state, player):
        if d.kind == "econ_orders":
            found += _lock_controls(state, player)
            continue
        if d.kind == "move":
            actions = [movement.EndMove(player=player), movement.Undo(player=player),
                       *movestart_plays(state, player)]
        elif d.kind == "upkeep":
            actions = _upkeep(state, player)[:1]
        elif d.kind == "econstart":
            actions = _econstart(state, player)
        else:
            actions = decision_candidates(state, player, d)
        legal = [a for a in distinct(actions) if accepted(state, a)]
        buttons = [a for a in legal if not _in_menu(a)]
        menus: dict[str, list[Action]] = {}
        for a in legal:
            if _in_menu(a):
                menus.setdefault(a.type, []).append(a)
        found += [_control(state, a) for a in buttons]
        for kind, options in menus.items():
            shown = tuple(_control(state, a) for a in options[:MENU_MAX])
            found.append(Control(shown[0].action, msg(f"bm.menu.{kind}"), "primary", options=shown))
    spying = tuple(_control(state, a) for a in individual_candidates(state, player) if accepted(state, a))
    if spying:
        found.append(Control(spying[0].action, msg("bm.menu.spy"), "secondary", options=spying[:MENU_MAX]))
    return found
