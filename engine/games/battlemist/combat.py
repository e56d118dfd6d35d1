"""The active player's combat step (BM-CMB-1, 11, 12; BM-A-44): his battles in the order he chooses, each a
`battle.Battle` sub-machine, the decisions they wait for and the handlers answering them, the auto-casualty
standing orders (BM-DIG-24), and homeland occupation at the end of the step (BM-HOM-1, 2, 4, 5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from engine.core.errors import RuleError
from engine.core.events import BoardChanged, Headline
from engine.core.models import Action, Decision, Event
from engine.core.rng import Rng
from engine.games.battlemist import battle as B
from engine.games.battlemist import names, windows
from engine.games.battlemist.data import ARMY, ArmyType, Window, load
from engine.games.battlemist.phases import wrong_phase
from engine.games.battlemist.pieces import UNIT_KINDS, Stars, UnitKind
from engine.games.battlemist.state import Phase

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState


# ---------------------------------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseBattle(Action):
    """`/bm battle <region>`: fight the battle there next (BM-CMB-12)."""

    type: Literal["battle"] = "battle"
    region: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BattlePlay(Action):
    """Play an action card in the open W-BATTLESTART or W-RALLY window (AC04, AC05)."""

    type: Literal["battle_play"] = "battle_play"
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BattleCast(Action):
    """Cast a spell in the open W-BATTLESTART or W-RALLY window (SP04 … 07, SP12; `unit`: SP12's target type)."""

    type: Literal["battle_cast"] = "battle_cast"
    spell: str
    unit: ArmyType | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BattlePass(Action):
    """Close one's turn in the open window (W-BATTLESTART: one pass each; W-RALLY: roll the rally)."""

    type: Literal["battle_pass"] = "battle_pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class AssignCasualties(Action):
    """`/bm casualties`: unit kind → number killed and number routed (BM-CMB-6)."""

    type: Literal["casualties"] = "casualties"
    kills: dict[UnitKind, int] = field(default_factory=dict)
    routs: dict[UnitKind, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class RallyPick(Action):
    """`/bm rally`: which routed units return (BM-RAL-2)."""

    type: Literal["rally"] = "rally"
    units: dict[ArmyType, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Reroll(Action):
    """`/bm reroll <die#>`: re-roll one own die of this step (from 1), or None to keep them (BM-HER-6)."""

    type: Literal["reroll"] = "reroll"
    die: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Plunder(Action):
    """`/bm plunder yes|no` (BM-PLU-1)."""

    type: Literal["plunder"] = "plunder"
    yes: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CasualtyOrder(Action):
    """An auto-casualty standing order (BM-DIG-24): unit kinds in the order to give them up (first = lost first;
    kinds left out follow in the default order); empty: clear it."""

    type: Literal["casualty_order"] = "casualty_order"
    order: list[UnitKind] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------------- events


@dataclass(slots=True, kw_only=True)
class CombatStepBegun(Event):
    type: Literal["combat_step_begun"] = "combat_step_begun"
    player: int
    battles: list[str]


@dataclass(slots=True, kw_only=True)
class CombatStepEnded(Event):
    type: Literal["combat_step_ended"] = "combat_step_ended"
    player: int


@dataclass(slots=True, kw_only=True)
class WindowPassed(Event):
    type: Literal["window_passed"] = "window_passed"
    player: int
    region: str
    window: str


@dataclass(slots=True, kw_only=True)
class SpellEffect(Event):
    """What a battle spell or card did (Ward, Curse, Ambush, +2 rally), for the battle log."""

    type: Literal["battle_effect"] = "battle_effect"
    player: int
    region: str
    source: str
    detail: str = ""


@dataclass(slots=True, kw_only=True)
class HomelandOccupied(BoardChanged, Headline):
    type: Literal["homeland_occupied"] = "homeland_occupied"
    player: int
    homeland: str
    owner: int
    stars: int


@dataclass(slots=True, kw_only=True)
class OccupationEnded(BoardChanged):
    type: Literal["occupation_ended"] = "occupation_ended"
    player: int
    homeland: str


@dataclass(slots=True, kw_only=True)
class StandingOrderSet(Event):
    type: Literal["casualty_order_set"] = "casualty_order_set"
    player: int
    order: list[str]


# ---------------------------------------------------------------------------------------------------- the step


def battles(state: BMState) -> list[str]:
    """The regions holding the active player's units and another player's (BM-CMB-1), in region-id order."""
    pid = state.active
    return sorted(r for r, here in state.troops.items() if pid in here and len(here) > 1)


def begin_combat(state: BMState, rng: Rng) -> list[Event]:
    """Open the active player's combat step (phase COMBAT): with one battle it starts at once, with several he
    chooses (BM-CMB-12); with none the step ends at once, with its occupation check."""
    assert state.active is not None
    state.phase = Phase.COMBAT
    state.combat = B.Combat(standing=state.combat.standing)
    return [CombatStepBegun(player=state.active, battles=battles(state)), *drive(state, rng)]


def finished(state: BMState) -> bool:
    """The combat step is over (BM-CMB-11): the lead moves on to the next player's turn."""
    return state.combat.done


def drive(state: BMState, rng: Rng) -> list[Event]:
    """Run the battle in progress, then the next one when it is the only one left, until a decision is awaited;
    end the step when no battle remains (BM-CMB-11, BM-A-44)."""
    events: list[Event] = []
    while not state.combat.done:
        if state.combat.battle is not None:
            events += B.advance(state, rng)
            if state.combat.battle is not None:
                return events
            events += end_occupations(state)
        left = battles(state)
        if len(left) > 1:
            return events
        if left:
            events += B.start(state, left[0])
        else:
            events += end_combat(state)
    return events


def end_combat(state: BMState) -> list[Event]:
    """End the combat step: the active player occupies the homelands where he alone has army units (BM-HOM-1)."""
    assert state.active is not None
    events = [*end_occupations(state), *occupy(state, state.active)]
    state.combat = B.evolve(state.combat, done=True)
    return [*events, CombatStepEnded(player=state.active)]


def occupy(state: BMState, pid: int) -> list[Event]:
    """BM-HOM-1, 2, 5, BM-MON-9, BM-A-1: each other homeland where `pid` has army units and its owner none is
    occupied; a new occupation captures ⌈S/2⌉ of the owner's S Stars, spent ones first, arriving spent."""
    events: list[Event] = []
    for region in sorted(state.troops):
        if not region.startswith("H-") or region == state.homeland(pid):
            continue
        owner = state.seat_of_race(region[2:])
        if owner is None or not state.units(region, pid).army() or state.units(region, owner).total():
            continue
        if state.occupied.get(region) == pid:
            continue
        state.occupied = {**state.occupied, region: pid}
        theirs = state.stars.get(owner, Stars())
        n = (theirs.owned + 1) // 2
        mine = state.stars.get(pid, Stars())
        state.stars = {**state.stars,
                       owner: Stars(owned=theirs.owned - n, spent=max(0, theirs.spent - n)),
                       pid: Stars(owned=mine.owned + n, spent=mine.spent + n)}
        events.append(HomelandOccupied(player=pid, homeland=region, owner=owner, stars=n))
    return events


def lapsed_occupations(state: BMState) -> list[Event]:
    """BM-HOM-4 after any step (an upkeep disband, an event, another player's battle): the occupations whose
    occupier has no army units left in the homeland end. The active player's own are settled at the end of his
    combat step, so moving his army out and back in keeps the occupation he held when his turn began (BM-HOM-2:
    nothing more is captured)."""
    own = state.active if state.phase in (Phase.QUEST, Phase.MOVEMENT, Phase.COMBAT) else None
    return end_occupations(state, but=own)


def end_occupations(state: BMState, but: int | None = None) -> list[Event]:
    """BM-HOM-4: an occupation ends as soon as the occupier (other than `but`) has no army units in the
    homeland."""
    ended = [(h, p) for h, p in state.occupied.items() if p != but and not state.units(h, p).army()]
    if not ended:
        return []
    state.occupied = {h: p for h, p in state.occupied.items() if (h, p) not in ended}
    return [OccupationEnded(player=p, homeland=h) for h, p in ended]


# ---------------------------------------------------------------------------------------------------- checks


def _now(state: BMState, pid: int) -> B.Battle:
    """The battle in progress, checked in the BM-VAL-0 order: a seated player, then a battle being fought."""
    if state.player(pid) is None:
        raise RuleError("BM_E_NOT_IN_GAME")
    b = state.combat.battle
    if state.phase is not Phase.COMBAT or b is None:
        raise wrong_phase(state.phase, "battle")
    return b


def _participant(state: BMState, b: B.Battle, pid: int) -> None:
    if pid not in b.players():
        raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(state.active))


def _not_now(state: BMState, b: B.Battle) -> RuleError:
    return wrong_phase(state.phase, b.stage)


def _scope(state: BMState, b: B.Battle) -> str:
    """The window's opening, for once-per-window spells (BM-SPL-1): in the battle windows, the battle (a region
    may see one in each player's combat step), its W-RALLY windows of every round included."""
    return f"r{state.round}:battle:{b.region}:{b.attacker.player}"


def _window(state: BMState, action: Action) -> B.Battle:
    """A pass: the caller's window must be open, with no choice of the opponent awaited first."""
    b = _now(state, action.player)
    _participant(state, b, action.player)
    if _open(b, action.player) is None:
        raise _not_now(state, b)
    if b.hits:
        raise RuleError("BM_E_BATTLE_WAITING", player=state.name(b.hits[0].player))
    return b


def _open(b: B.Battle, pid: int) -> Window | None:
    """The battle window open for `pid` now: his turn in W-BATTLESTART or his W-RALLY before the roll."""
    if b.window != pid or b.pick or b.stage not in ("battlestart", "rally"):
        return None
    return b.stage  # type: ignore[return-value]


def _playing(state: BMState, action: Action) -> tuple[B.Battle | None, Window | None]:
    """A card played or a spell cast in the combat step: the battle and the window open for the caller, None
    when none is (the card's or spell's own window check then refuses it, BM-VAL-0 group 3). Between battles only
    the active player may try; in a battle, its participants."""
    if state.player(action.player) is None:
        raise RuleError("BM_E_NOT_IN_GAME")
    b = state.combat.battle
    if state.phase is not Phase.COMBAT or state.combat.done:
        raise wrong_phase(state.phase, "combat")
    if b is None:
        if action.player != state.active:
            raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(state.active))
        return None, None
    _participant(state, b, action.player)
    window = _open(b, action.player)
    if window is not None and b.hits:
        raise RuleError("BM_E_BATTLE_WAITING", player=state.name(b.hits[0].player))
    return b, window


# ---------------------------------------------------------------------------------------------------- handlers


def choose_battle(state: BMState, action: ChooseBattle, rng: Rng) -> list[Event]:
    """BM-CMB-12: the active player picks his next battle. Naming the battle that began by itself (the only one
    left) while W-BATTLESTART is still his changes nothing."""
    if state.player(action.player) is None:
        raise RuleError("BM_E_NOT_IN_GAME")
    b = state.combat.battle
    if state.phase is not Phase.COMBAT or state.combat.done:
        raise wrong_phase(state.phase, b.stage if b else "combat")
    if action.player != state.active:
        raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(state.active))
    if b is not None:
        if b.region == action.region and b.stage == "battlestart" and b.window == b.attacker.player:
            return []
        raise wrong_phase(state.phase, b.stage)
    if action.region not in state.regions:
        raise RuleError("BM_E_UNKNOWN_REGION", x=action.region)
    if action.region not in battles(state):
        raise RuleError("BM_E_BATTLE_ORDER", region=action.region)
    return [*B.start(state, action.region), *drive(state, rng)]


def battle_play(state: BMState, action: BattlePlay, rng: Rng) -> list[Event]:
    """AC04 Ambush (W-BATTLESTART, defender only): +1 to his combat dice in round 1; AC05 Rally the Troops
    (W-RALLY): +2 on this rally roll."""
    b, window = _playing(state, action)
    card, events = windows.play(state, action.player, action.card, window)
    assert b is not None  # a card of a battle window was played in it
    if card.defender_only and action.player != b.defender.player:
        raise RuleError("BM_E_DEFENDER_ONLY", card=names.card_named(card.id))
    side = b.side(action.player)
    if b.stage == "battlestart":
        side = B.evolve(side, ambush=side.ambush + (card.modifier or 0))
    else:
        side = B.evolve(side, rally_bonus=side.rally_bonus + (card.modifier or 0))
    B.put(state, b.with_side(side))
    return [*events, SpellEffect(player=action.player, region=b.region, source=card.id)]


def battle_cast(state: BMState, action: BattleCast, rng: Rng) -> list[Event]:
    """SP05 Fireball, SP06 Terror, SP07 Ward, SP12 Curse of Frailty (W-BATTLESTART); SP04 Courage (W-RALLY)."""
    b, window = _playing(state, action)
    pid = action.player
    spell, events = windows.cast(state, pid, action.spell, window, _scope(state, b) if b is not None else "")
    assert b is not None  # a spell of a battle window was cast in it
    if spell.id == "SP12" and action.unit is None:
        raise RuleError("BM_E_SPELL_TARGET", spell=names.card(spell.id))  # its target last (reference ruling 2)
    enemy = b.other(pid)
    effect = SpellEffect(player=pid, region=b.region, source=spell.id)
    if spell.id == "SP05":
        sides = load().rules.die_sides
        faces = rng.dice(spell.dice or 0, sides)
        kill_on = spell.kill_on or sides
        events.append(B.BattleDice(player=pid, region=b.region, step="fireball", sides=sides, units=[],
                                   results=faces, outcomes=["kill" if f >= kill_on else "miss" for f in faces]))
        events += B.demand(state, [B.Hits(player=enemy.player, step="fireball",
                                          kills=sum(f >= kill_on for f in faces))])
        return events + drive(state, rng)
    if spell.id == "SP06":
        return events + B.demand(state, [B.Hits(player=enemy.player, step="terror", routs=spell.routs or 0)])
    if spell.id == "SP07":
        b = b.with_side(B.evolve(b.side(pid), ward=spell.modifier or 0))
    elif spell.id == "SP12":
        assert action.unit is not None
        b = b.with_side(B.evolve(enemy, cursed=(*enemy.cursed, action.unit), curse=spell.modifier or 0))
        effect.detail = action.unit
    else:
        side = b.side(pid)
        b = b.with_side(B.evolve(side, rally_bonus=side.rally_bonus + (spell.modifier or 0)))
    B.put(state, b)
    return [*events, effect]


def battle_pass(state: BMState, action: BattlePass, rng: Rng) -> list[Event]:
    """W-BATTLESTART: the attacker passes to the defender, whose pass starts round 1; W-RALLY: roll the rally."""
    b = _window(state, action)
    pid = action.player
    events: list[Event] = [WindowPassed(player=pid, region=b.region, window=b.stage)]
    if b.stage == "rally":
        events += B.roll_rally(state, rng)
    elif pid == b.attacker.player:
        B.put(state, B.evolve(b, window=b.defender.player))
    else:
        B.put(state, B.evolve(b, window=None, next="round"))
    return events + drive(state, rng)


def assign_casualties(state: BMState, action: AssignCasualties, rng: Rng) -> list[Event]:
    """BM-CMB-6, 20 … 24, BM-MON-2, BM-A-6: the victim's assignment, checked, then applied."""
    b = _now(state, action.player)
    _participant(state, b, action.player)
    hits = b.hits_of(action.player)
    if hits is None:
        raise _not_now(state, b)
    kills = {k: v for k, v in action.kills.items() if v}
    routs = {k: v for k, v in action.routs.items() if v}
    B.check(b.side(action.player).active, hits, kills, routs)
    return [*B.take(state, hits, kills, routs), *drive(state, rng)]


def rally_pick(state: BMState, action: RallyPick, rng: Rng) -> list[Event]:
    """BM-RAL-2: the owner picks exactly the rallied number from his routed units."""
    b = _now(state, action.player)
    _participant(state, b, action.player)
    if not b.pick or b.window != action.player:
        raise _not_now(state, b)
    routed = b.side(action.player).routed
    units = {k: v for k, v in action.units.items() if v}
    if sum(units.values()) != b.pick or any(k not in ARMY or v < 0 or v > routed.get(k) for k, v in units.items()):
        raise RuleError("BM_E_RALLY_CHOICE", n=b.pick)
    return [*B.rally_units(state, action.player, units), *drive(state, rng)]


def reroll(state: BMState, action: Reroll, rng: Rng) -> list[Event]:
    """BM-HER-6, 7: one own combat die of this step once per combat round, with a hero of his in the region.
    Without a hero, once used, or with no dice of his awaiting it: BM_E_REROLL_USED; then the die's number."""
    b = _now(state, action.player)
    _participant(state, b, action.player)
    if action.player not in b.undecided:
        raise RuleError("BM_E_REROLL_USED")
    roll = b.roll_of(action.player)
    assert roll is not None
    if action.die is not None and not 1 <= action.die <= len(roll.faces):
        raise RuleError("BM_E_REROLL_DIE", n=len(roll.faces))
    return [*B.reroll(state, rng, action.player, action.die), *drive(state, rng)]


def plunder(state: BMState, action: Plunder, rng: Rng) -> list[Event]:
    """BM-PLU-1: the winning attacker decides whether to plunder the defender's city. In the combat step between
    battles there is nothing to plunder: BM_E_PLUNDER_INVALID (BM_E_NOT_YOUR_TURN for another player)."""
    if state.player(action.player) is not None and state.phase is Phase.COMBAT and state.combat.battle is None:
        if action.player != state.active:
            raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(state.active))
        raise RuleError("BM_E_PLUNDER_INVALID")
    b = _now(state, action.player)
    _participant(state, b, action.player)
    if not b.plunder or action.player != b.winner:
        raise RuleError("BM_E_PLUNDER_INVALID")
    return [*B.plunder(state, action.player, action.yes), *drive(state, rng)]


def casualty_order(state: BMState, action: CasualtyOrder, rng: Rng) -> list[Event]:
    """BM-DIG-24: set (or clear) a standing order; pending assignments of his are made from it at once."""
    if state.player(action.player) is None:
        raise RuleError("BM_E_NOT_IN_GAME")
    if not state.options.auto_casualties:
        raise RuleError("BM_E_AUTO_CASUALTIES_OFF")
    unknown = [k for k in action.order if k not in UNIT_KINDS]
    if unknown or len(set(action.order)) != len(action.order):
        raise RuleError("BM_E_CASUALTY_ORDER")
    standing = {p: o for p, o in state.combat.standing.items() if p != action.player}
    if action.order:
        standing[action.player] = tuple(action.order)
    state.combat = B.evolve(state.combat, standing=standing)
    events: list[Event] = [StandingOrderSet(player=action.player, order=list(action.order))]
    b = state.combat.battle
    hits = b.hits_of(action.player) if b is not None and action.order else None
    if b is not None and hits is not None:
        B.put(state, B.evolve(b, hits=tuple(h for h in b.hits if h.player != action.player)))
        events += B.demand(state, [hits])
        events += drive(state, rng)
    return events


ACTIONS = (ChooseBattle, BattlePlay, BattleCast, BattlePass, AssignCasualties, RallyPick, Reroll, Plunder,
           CasualtyOrder)
"""The combat step's actions, for the lead's action union."""

HANDLERS = {
    "battle": choose_battle, "battle_play": battle_play, "battle_cast": battle_cast, "battle_pass": battle_pass,
    "casualties": assign_casualties, "rally": rally_pick, "reroll": reroll, "plunder": plunder,
    "casualty_order": casualty_order,
}
"""Action type → handler, for the lead's `apply`."""


# ---------------------------------------------------------------------------------------------------- decisions


def pending(state: BMState) -> list[Decision]:
    """Who must decide what in the combat step, so the bot can show the right buttons."""
    if state.phase is not Phase.COMBAT or state.combat.done or state.active is None:
        return []
    b = state.combat.battle
    if b is None:
        return [Decision(player=state.active, kind="battle_order", detail={"regions": battles(state)})]
    region = {"region": b.region}
    out: list[Decision] = []
    for hits in b.hits:
        k, r = B.required(b.side(hits.player).active, hits)
        out.append(Decision(player=hits.player, kind="casualties",
                            detail={**region, "step": hits.step, "kills": k, "routs": r,
                                    "active": b.side(hits.player).active.counts()}))
    if out:
        return out
    for pid in b.undecided:
        roll = b.roll_of(pid)
        assert roll is not None
        out.append(Decision(player=pid, kind="reroll", detail={**region, "step": b.stage, "units": list(roll.units),
                                                               "dice": list(roll.faces)}))
    if b.pick and b.window is not None:
        out.append(Decision(player=b.window, kind="rally_pick",
                            detail={**region, "n": b.pick, "routed": b.side(b.window).routed.counts()}))
    elif b.window is not None:
        out.append(Decision(player=b.window, kind=f"window_{b.stage}",
                            detail={**region, "round": b.round, **playable(state, b, b.window)}))
    if b.plunder and b.winner is not None:
        out.append(Decision(player=b.winner, kind="plunder", detail={**region, "city": state.cities[b.region].kind}))
    return out


def playable(state: BMState, b: B.Battle, pid: int) -> dict[str, list[str]]:
    """The cards and spells `pid` could use in the open window now (for its buttons)."""
    data = load().cards
    cards = [c for c in state.hands.get(pid, []) if (card := data.actions_by_id.get(c)) is not None
             and card.window == b.stage and (not card.defender_only or pid == b.defender.player)]
    power = state.stars.get(pid, Stars()).power
    cast = state.cast.get(pid, [])
    spells = [] if state.effects.mana_storm == "none" else [
        s.id for s in data.spells if s.window == b.stage and f"{_scope(state, b)}:{s.id}" not in cast
        and windows.cost(state, s) <= power]
    return {"cards": sorted(set(cards)), "spells": spells}


def timeout_combat(state: BMState, pid: int) -> Action:
    """The action an absent player's stand-in plays (§7.5, BM-DIG-19): battle order by region id, pass in a
    window, the greedy casualty assignment, infantry first on a rally, no re-roll, no plunder."""
    b = state.combat.battle
    if b is None:
        return ChooseBattle(player=pid, region=battles(state)[0])
    if b.hits_of(pid) is not None:
        kills, routs = B.default_casualties(state, pid)
        return AssignCasualties(player=pid, kills=kills, routs=routs)  # type: ignore[arg-type]
    if pid in b.undecided:
        return Reroll(player=pid, die=None)
    if b.window == pid and b.pick:
        return RallyPick(player=pid, units=B.default_rally(b.side(pid).routed, b.pick))  # type: ignore[arg-type]
    if b.window == pid:
        return BattlePass(player=pid)
    if b.plunder and b.winner == pid:
        return Plunder(player=pid, yes=False)
    raise ValueError(f"seat {pid} has no combat decision pending")

