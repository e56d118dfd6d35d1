"""One Battlemist battle as a sub-machine (BM-CMB-4): W-BATTLESTART, then combat rounds of rally, overrun check,
archery, cavalry and melee, each with simultaneous rolls, hero re-rolls and the victims' casualty assignments,
until one side or neither is left; then plunder and Raise the Dead.

The battle's record (`Battle`) lives in `BMState.combat.battle`. `advance` runs the automatic transitions
(`Battle.next`) until someone must decide (`waiting`) or the battle is over and gone. The handlers that answer
the decisions are in `combat.py`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from engine.core.errors import RuleError
from engine.core.events import BoardChanged
from engine.core.models import Event
from engine.core.rng import Rng
from engine.games.battlemist.data import ARMY, MONSTERS, ArmyType, load
from engine.games.battlemist.pieces import EMPTY, UNIT_KINDS, Stock, Troops

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

Stage = Literal["battlestart", "rally", "archery", "cavalry", "melee", "plunder"]
Step = Literal["archery", "cavalry", "melee", "fireball", "terror"]
"""What a set of hits comes from: a combat step (BM-CMB-13 … 15) or a battle-start spell (SP05, SP06)."""
Next = Literal["", "round", "rally", "overrun", "roll", "hits", "step", "end_round", "end", "close"]
STEPS: tuple[Stage, ...] = ("archery", "cavalry", "melee")
R = TypeVar("R")
CHEAPEST: tuple[str, ...] = UNIT_KINDS
"""The §7.5 casualty default: infantry < archers < cavalry < monsters (giant < firebreather < dragon)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Side:
    """One participant's army in the battle: his active units and routed pile (BM-CMB-24) and what this battle's
    cards and spells did to him."""

    player: int
    active: Troops
    routed: Troops = EMPTY
    killed: int = 0
    """His units killed in this combat round (overrun counts the previous round's, BM-OVR-1)."""
    killed_before: int = 0
    lost: int = 0
    """His units that died in this battle in any way (Raise the Dead counts the loser's, BM-RACE-3)."""
    rerolled: bool = False
    """The hero re-roll is used in this combat round (BM-HER-6)."""
    ambush: int = 0
    """Added to his combat dice in combat round 1 (AC04)."""
    ward: int = 0
    """Added to his opponent's combat dice this battle (SP07: −1)."""
    cursed: tuple[ArmyType, ...] = ()
    """His unit types whose rout and kill values are raised by `curse` this battle (SP12 cast on him)."""
    curse: int = 0
    rally_bonus: int = 0
    """W-RALLY plays for this round's rally roll (AC05, SP04)."""

    def units(self) -> Troops:
        """Everything of his still in the battle, active and routed."""
        return _sum(self.active, self.routed)


@dataclass(frozen=True, slots=True, kw_only=True)
class Roll:
    """One side's dice of a combat step (BM-CMB-5): which unit rolled each die and its face."""

    player: int
    units: tuple[str, ...]
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Hits:
    """Hits a victim must assign to his active units (BM-CMB-6): `kills` and `routs` as rolled."""

    player: int
    step: Step
    kills: int = 0
    routs: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Battle:
    """The battle in progress in `region` (BM-CMB-1): the attacker is the active player."""

    region: str
    attacker: Side
    defender: Side
    siege: int = 0
    """The attacker's combat-dice penalty (BM-CMB-3, BM-A-2, Master Masons)."""
    city: bool = False
    """The defender's city or large city stands here (plunder, BM-PLU-1)."""
    round: int = 0
    """Combat round; 0 during W-BATTLESTART."""
    stage: Stage = "battlestart"
    next: Next = ""
    """The automatic transition to run once nobody has to decide anything."""
    window: int | None = None
    """Whose W-BATTLESTART or W-RALLY window is open (play, cast or pass)."""
    rallied: tuple[int, ...] = ()
    """The sides that rolled their rally this round."""
    pick: int = 0
    """Routed units the `window` player rallied and must choose (BM-RAL-2)."""
    rolls: tuple[Roll, ...] = ()
    undecided: tuple[int, ...] = ()
    """Players who may still use their hero re-roll on this step's dice (BM-HER-6)."""
    hits: tuple[Hits, ...] = ()
    """Casualty assignments awaited."""
    winner: int | None = None
    plunder: bool = False
    """The winner may still plunder the city (BM-PLU-1)."""

    def side(self, pid: int) -> Side:
        return self.attacker if pid == self.attacker.player else self.defender

    def other(self, pid: int) -> Side:
        return self.defender if pid == self.attacker.player else self.attacker

    def sides(self) -> tuple[Side, Side]:
        return self.attacker, self.defender

    def players(self) -> tuple[int, int]:
        return self.attacker.player, self.defender.player

    def with_side(self, side: Side) -> Battle:
        if side.player == self.attacker.player:
            return evolve(self, attacker=side)
        return evolve(self, defender=side)

    def hits_of(self, pid: int) -> Hits | None:
        return next((h for h in self.hits if h.player == pid), None)

    def roll_of(self, pid: int) -> Roll | None:
        return next((r for r in self.rolls if r.player == pid), None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Combat:
    """The combat step's record (`BMState.combat`): the battle in progress, whether the active player's combat
    step is over, and the players' auto-casualty standing orders (BM-DIG-24)."""

    battle: Battle | None = None
    done: bool = False
    """The combat step has ended and occupation was checked (BM-HOM-1)."""
    standing: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Player → unit kinds in the order he gives them up as casualties (first = lost first)."""


@cache
def _evolver(kind: type[Any]) -> Any:
    """`dataclasses.replace` for one frozen record type, written out (a battle replaces records at every step,
    and `replace` goes through `fields()` and `__init__`, several times as slow)."""
    names = [f.name for f in fields(kind)]
    body = "".join(f"    put(n, {name!r}, get({name!r}, o.{name}))\n" for name in names)
    code = (f"def evolve(o, changes):\n    assert changes.keys() <= known, changes.keys() - known\n"
            f"    n = new(kind)\n    get = changes.get\n{body}    return n\n")
    space: dict[str, Any] = {"new": object.__new__, "kind": kind, "put": object.__setattr__, "known": set(names)}
    exec(code, space)  # the source is built above from the field names alone
    return space["evolve"]


def evolve(record: R, **changes: Any) -> R:
    """`record` with `changes` (a frozen dataclass of this module)."""
    return _evolver(type(record))(record, changes)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------------- events


@dataclass(slots=True, kw_only=True)
class BattleBegun(Event):
    type: Literal["battle_begun"] = "battle_begun"
    region: str
    attacker: int
    defender: int
    siege: int


@dataclass(slots=True, kw_only=True)
class CombatRound(Event):
    type: Literal["combat_round"] = "combat_round"
    region: str
    round: int


@dataclass(slots=True, kw_only=True)
class BattleDice(Event):
    """Dice of a battle with their purpose (BM-DIE-4): who rolled, in which step, with which units, the faces,
    the modifier added to each (BM-CMB-16) and what each scored."""

    type: Literal["battle_dice"] = "battle_dice"
    player: int
    region: str
    step: str
    sides: int
    units: list[str]
    results: list[int]
    modifier: int = 0
    outcomes: list[str] = field(default_factory=list)


@dataclass(slots=True, kw_only=True)
class Rerolled(Event):
    type: Literal["rerolled"] = "rerolled"
    player: int
    region: str
    step: str
    die: int
    old: int
    new: int


@dataclass(slots=True, kw_only=True)
class HitsScored(Event):
    type: Literal["hits_scored"] = "hits_scored"
    victim: int
    region: str
    step: str
    kills: int
    routs: int


@dataclass(slots=True, kw_only=True)
class CasualtiesTaken(Event):
    type: Literal["casualties_taken"] = "casualties_taken"
    player: int
    region: str
    step: str
    kills: dict[str, int]
    routs: dict[str, int]
    auto: bool = False


@dataclass(slots=True, kw_only=True)
class RallyRolled(Event):
    """A rally roll (BM-RAL-1): the die, the modifier, the clamped result and how many units return."""

    type: Literal["rally_rolled"] = "rally_rolled"
    player: int
    region: str
    sides: int
    result: int
    modifier: int
    total: int
    back: int


@dataclass(slots=True, kw_only=True)
class Rallied(Event):
    type: Literal["rallied"] = "rallied"
    player: int
    region: str
    units: dict[str, int]


@dataclass(slots=True, kw_only=True)
class Overrun(Event):
    type: Literal["overrun"] = "overrun"
    player: int
    region: str
    killed: dict[str, int]


@dataclass(slots=True, kw_only=True)
class BattleEnded(BoardChanged):
    """The battle's outcome: the winner (None: both armies destroyed, BM-A-4) and what the loser lost."""

    type: Literal["battle_ended"] = "battle_ended"
    region: str
    winner: int | None
    destroyed: dict[int, dict[str, int]]


@dataclass(slots=True, kw_only=True)
class DeadRaised(Event):
    type: Literal["dead_raised"] = "dead_raised"
    player: int
    region: str


@dataclass(slots=True, kw_only=True)
class Plundered(BoardChanged):
    type: Literal["plundered"] = "plundered"
    player: int
    region: str
    city: str
    gain: dict[str, int]


@dataclass(slots=True, kw_only=True)
class PlunderDeclined(Event):
    type: Literal["plunder_declined"] = "plunder_declined"
    player: int
    region: str


# ---------------------------------------------------------------------------------------------------- helpers


def _sum(a: Troops, b: Troops) -> Troops:
    return Troops(infantry=a.infantry + b.infantry, archers=a.archers + b.archers, cavalry=a.cavalry + b.cavalry,
                  giant=a.giant + b.giant, firebreather=a.firebreather + b.firebreather, dragon=a.dragon + b.dragon)


def _add(a: Troops, counts: dict[str, int], sign: int = 1) -> Troops:
    if not counts:
        return a
    g = counts.get
    return Troops(infantry=a.infantry + sign * g("infantry", 0), archers=a.archers + sign * g("archers", 0),
                  cavalry=a.cavalry + sign * g("cavalry", 0), giant=a.giant + sign * g("giant", 0),
                  firebreather=a.firebreather + sign * g("firebreather", 0), dragon=a.dragon + sign * g("dragon", 0))


def _minus(a: Troops, counts: dict[str, int]) -> Troops:
    return _add(a, counts, -1)


def put(state: BMState, battle: Battle | None, *, board: bool = False) -> None:
    """Store `battle` as the battle in progress; with `board`, also write its survivors to the board."""
    state.combat = Combat(battle=battle, done=state.combat.done, standing=state.combat.standing)
    if battle is not None and board:
        _sync(state, battle)


def _sync(state: BMState, b: Battle) -> None:
    """The board shows each side's units still in the battle (active and routed)."""
    here = dict(state.troops.get(b.region, {}))
    for side in b.sides():
        units = side.units()
        if units.total():
            here[side.player] = units
        else:
            here.pop(side.player, None)
    state.troops = {**state.troops, b.region: here}
    if not here:
        state.troops = {r: t for r, t in state.troops.items() if r != b.region}


def hero_present(state: BMState, pid: int, region: str) -> bool:
    """A hero of `pid` stands in `region`: the hero battle bonus (BM-HER-5, 6; one bonus however many, HER-7)."""
    return any(h.owner == pid and h.region == region for h in state.heroes)


def siege_penalty(state: BMState, region: str, defender: int) -> int:
    """The attacker's combat-dice penalty (BM-CMB-3, BM-A-2): −homeland/large city/city siege value, one more
    against Dwarves (Master Masons). A city counts from the round after it was built (BM-CITY-4); a large city
    built this round still defends as the city it was."""
    rules = load().rules
    if region == state.homeland(defender):
        base = rules.homeland.siege
    elif region.startswith("H-") or not state.units(region, defender).army():
        return 0
    else:
        city = state.cities.get(region)
        if city is None or (city.kind == "city" and city.since >= state.round):
            return 0
        kind = "large_city" if city.kind == "large_city" and city.since < state.round else "city"
        base = rules.cities[kind].siege
    extra = rules.ability(state.race(defender), "siege")
    return base + (int(extra) if isinstance(extra, int) else 0)


def start(state: BMState, region: str) -> list[Event]:
    """Declare the battle in `region`: the active player attacks the other player there (BM-CMB-1); W-BATTLESTART
    opens for the attacker (BM-WIN-1)."""
    attacker = state.active
    assert attacker is not None
    defender = next(p for p in state.present(region) if p != attacker)
    b = Battle(region=region, attacker=Side(player=attacker, active=state.units(region, attacker)),
               defender=Side(player=defender, active=state.units(region, defender)),
               siege=siege_penalty(state, region, defender),
               city=region in state.cities and not region.startswith("H-") and state.units(region, defender).army() > 0,
               window=attacker)
    put(state, b)
    return [BattleBegun(region=region, attacker=attacker, defender=defender, siege=b.siege)]


def waiting(b: Battle) -> bool:
    """Someone must decide before the battle goes on."""
    return b.window is not None or bool(b.undecided or b.hits or b.pick or b.plunder)


def advance(state: BMState, rng: Rng) -> list[Event]:
    """Run the battle's automatic transitions until a decision is awaited or the battle is closed."""
    events: list[Event] = []
    while (b := state.combat.battle) is not None and not waiting(b) and b.next:
        events += TRANSITIONS[b.next](state, b, rng)
    return events


# ---------------------------------------------------------------------------------------------------- rounds


def _round(state: BMState, b: Battle, rng: Rng) -> list[Event]:
    """A new combat round: last round's kills become the overrun count; round 1 skips rally and overrun."""
    sides = [evolve(s, killed=0, killed_before=s.killed, rerolled=False, rally_bonus=0) for s in b.sides()]
    n = b.round + 1
    b = evolve(b, attacker=sides[0], defender=sides[1], round=n, rallied=(),
               next="roll" if n == 1 else "rally", stage="archery" if n == 1 else "rally")
    put(state, b)
    return [CombatRound(region=b.region, round=n)]


def _rally(state: BMState, b: Battle, rng: Rng) -> list[Event]:
    """Open W-RALLY for the next side with routed units (attacker first); the overrun check once all rolled."""
    for side in b.sides():
        if side.player not in b.rallied and side.routed.total():
            put(state, evolve(b, window=side.player, stage="rally"))
            return []
    put(state, evolve(b, next="overrun"))
    return []


HERO_RALLY = 1
"""BM-HER-5 [K]: a hero of his in the battle region adds 1 to his rally rolls."""


def rally_modifier(state: BMState, b: Battle, pid: int) -> int:
    """Hero present (BM-HER-5, once, HER-7), Daqan Disciplined, War Horn (AR4) and this round's W-RALLY plays."""
    rules = load().rules
    mod = HERO_RALLY if hero_present(state, pid, b.region) else 0
    extra = rules.ability(state.race(pid), "rally")
    mod += int(extra) if isinstance(extra, int) else 0
    artifacts = load().cards.artifact
    mod += sum(artifacts[a].rally or 0 for a in state.artifacts.get(pid, []) if a in artifacts)
    return mod + b.side(pid).rally_bonus


def roll_rally(state: BMState, rng: Rng) -> list[Event]:
    """The `window` player's rally roll (BM-RAL-1, 2): 1 d10 + modifiers clamped to 1–10, looked up in the rally
    table. He chooses the returning units only when there is a choice."""
    b = state.combat.battle
    assert b is not None and b.window is not None
    pid = b.window
    rules = load().rules
    face = rng.die(rules.die_sides)
    mod = rally_modifier(state, b, pid)
    total = max(1, min(rules.die_sides, face + mod))
    side = b.side(pid)
    back = min(rules.rally_table[total - 1], side.routed.total())
    events: list[Event] = [RallyRolled(player=pid, region=b.region, sides=rules.die_sides, result=face,
                                       modifier=mod, total=total, back=back)]
    b = evolve(b, window=None, rallied=(*b.rallied, pid))
    kinds = [k for k in ARMY if side.routed.get(k)]
    if back and len(kinds) > 1 and back < side.routed.total():
        put(state, evolve(b, window=pid, pick=back))
        return events
    put(state, b)
    return events + rally_units(state, pid, default_rally(side.routed, back))


def default_rally(routed: Troops, n: int) -> dict[str, int]:
    """The rally timeout default: infantry first, then archers, then cavalry (§7.5)."""
    picked: dict[str, int] = {}
    for kind in ARMY:
        take = min(n, routed.get(kind))
        if take:
            picked[kind] = take
            n -= take
    return picked


def rally_units(state: BMState, pid: int, units: dict[str, int]) -> list[Event]:
    """Return the chosen routed units to the fight."""
    b = state.combat.battle
    assert b is not None
    side = b.side(pid)
    side = evolve(side, routed=_minus(side.routed, units), active=_add(side.active, units))
    put(state, evolve(b.with_side(side), window=None, pick=0))
    return [Rallied(player=pid, region=b.region, units={k: v for k, v in units.items() if v})] if units else []


def _overrun(state: BMState, b: Battle, rng: Rng) -> list[Event]:
    """BM-OVR-1, 2: a side that lost ≥ 2 killed units last round and has no active infantry loses at once, all its
    units killed; both overrun: both destroyed. Kills of battle-start spells never count (BM-OVR-3)."""
    need = load().rules.overrun_kills
    events: list[Event] = []
    for side in b.sides():
        if side.killed_before >= need and not side.active.infantry:
            lost = side.units()
            side = evolve(side, active=EMPTY, routed=EMPTY, lost=side.lost + lost.total())
            b = b.with_side(side)
            events.append(Overrun(player=side.player, region=b.region, killed=lost.counts()))
    put(state, evolve(b, next="end" if events else "roll", stage="archery"), board=bool(events))
    return events


# ---------------------------------------------------------------------------------------------------- steps


def caps(race: str) -> dict[str, int]:
    """Attackers per step for `race` (BM-CMB-13 … 15 with BM-RACE-3's larger caps)."""
    rules = load().rules
    out = {}
    for step, name in (("archery", "archer_cap"), ("cavalry", "cavalry_cap"), ("melee", "melee_cap")):
        own = rules.ability(race, name)
        out[step] = int(own) if isinstance(own, int) else getattr(rules.caps, step)
    return out


def attackers(active: Troops, step: str, cap: int) -> tuple[str, ...]:
    """Who attacks in `step` (BM-CMB-19, BM-MON-1): min(available, cap); in melee monsters take the slots first
    (Dragon, Firebreather, Giant, BM-A-38), then infantry."""
    if step == "archery":
        return ("archers",) * min(cap, active.archers)
    if step == "cavalry":
        return ("cavalry",) * min(cap, active.cavalry)
    monsters = load().rules.monsters
    order = sorted(MONSTERS, key=lambda m: monsters[m].rank)
    slots: list[str] = []
    for kind in (*order, "infantry"):
        slots += [kind] * min(cap - len(slots), active.get(kind))
    return tuple(slots)


def dice_modifier(b: Battle, pid: int) -> int:
    """Summed combat-dice modifiers (BM-CMB-16): siege for the attacker (BM-CMB-3), the opponent's Ward (SP07),
    Ambush in round 1 (AC04)."""
    side, other = b.side(pid), b.other(pid)
    mod = -b.siege if pid == b.attacker.player else 0
    mod += other.ward
    mod += side.ambush if b.round == 1 else 0
    return mod


def values(state: BMState, side: Side, unit: str) -> tuple[int, int]:
    """Rout and kill values of `unit` of this side (race card or monster table; +1 each if cursed, SP12)."""
    rules = load().rules
    v = rules.monsters[unit] if unit in MONSTERS else rules.race[state.race(side.player)].units[unit]  # type: ignore[index]
    curse = side.curse if unit in side.cursed else 0
    return v.rout + curse, v.kill + curse


def outcome(state: BMState, b: Battle, pid: int, unit: str, face: int) -> str:
    """A die's result (BM-CMB-17): modified ≥ K kills, ≥ R routs, else a miss; no automatic success."""
    rout, kill = values(state, b.side(pid), unit)
    total = face + dice_modifier(b, pid)
    return "kill" if total >= kill else "rout" if total >= rout else "miss"


def _roll(state: BMState, b: Battle, rng: Rng) -> list[Event]:
    """Both sides roll at once, one die per attacking unit (BM-CMB-5); a side with a hero present may then
    re-roll one die, once per combat round (BM-HER-6). Once a side has no active unit left, nobody rolls again:
    the round is over (BM-CMB-7)."""
    if not (b.attacker.active.total() and b.defender.active.total()):
        put(state, evolve(b, next="end_round"))
        return []
    sides = load().rules.die_sides
    rolls: list[Roll] = []
    events: list[Event] = []
    for side in b.sides():
        units = attackers(side.active, b.stage, caps(state.race(side.player))[b.stage])
        if not units:
            continue
        faces = tuple(rng.dice(len(units), sides))
        rolls.append(Roll(player=side.player, units=units, faces=faces))
        events.append(BattleDice(player=side.player, region=b.region, step=b.stage, sides=sides, units=list(units),
                                 results=list(faces), modifier=dice_modifier(b, side.player),
                                 outcomes=[outcome(state, b, side.player, u, f) for u, f in zip(units, faces,
                                                                                                strict=True)]))
    undecided = tuple(r.player for r in rolls if may_reroll(state, b, r))
    put(state, evolve(b, rolls=tuple(rolls), undecided=undecided, next="hits" if rolls else "step"))
    return events


def may_reroll(state: BMState, b: Battle, roll: Roll) -> bool:
    """Offer the hero re-roll when it can change something: a hero of his present, unused this round, a die that
    did not kill, and fewer kills than the enemy has active units."""
    if not hero_present(state, roll.player, b.region) or b.side(roll.player).rerolled:
        return False
    kills = sum(outcome(state, b, roll.player, u, f) == "kill" for u, f in zip(roll.units, roll.faces, strict=True))
    return kills < min(len(roll.faces), b.other(roll.player).active.total())


def reroll(state: BMState, rng: Rng, pid: int, die: int | None) -> list[Event]:
    """Use (die index from 1) or decline the hero re-roll on this step's dice; the second result stands."""
    b = state.combat.battle
    assert b is not None
    events: list[Event] = []
    b = evolve(b, undecided=tuple(p for p in b.undecided if p != pid))
    if die is not None:
        roll = b.roll_of(pid)
        assert roll is not None
        sides = load().rules.die_sides
        new = rng.die(sides)
        faces = list(roll.faces)
        events.append(Rerolled(player=pid, region=b.region, step=b.stage, die=die, old=faces[die - 1], new=new))
        faces[die - 1] = new
        b = evolve(b, rolls=tuple(evolve(r, faces=tuple(faces)) if r.player == pid else r for r in b.rolls))
        b = b.with_side(evolve(b.side(pid), rerolled=True))
    put(state, b)
    return events


def _hits(state: BMState, b: Battle, rng: Rng) -> list[Event]:
    """Count each side's kills and routs against the other (BM-CMB-17); casualties follow (BM-CMB-18)."""
    scored = []
    for roll in b.rolls:
        results = [outcome(state, b, roll.player, u, f) for u, f in zip(roll.units, roll.faces, strict=True)]
        victim = b.other(roll.player).player
        scored.append(Hits(player=victim, step=b.stage, kills=results.count("kill"),  # type: ignore[arg-type]
                           routs=results.count("rout")))
    put(state, evolve(b, rolls=(), next="step"))
    return demand(state, scored)


def demand(state: BMState, scored: Sequence[Hits]) -> list[Event]:
    """Ask each victim to assign his hits, unless nothing can be assigned, there is no choice, or his standing
    order decides (BM-DIG-24)."""
    events: list[Event] = []
    for hits in scored:
        b = state.combat.battle
        assert b is not None
        if not hits.kills and not hits.routs:
            continue
        events.append(HitsScored(victim=hits.player, region=b.region, step=hits.step, kills=hits.kills,
                                 routs=hits.routs))
        active = b.side(hits.player).active
        if required(active, hits) == (0, 0):
            continue  # nothing of his can take them: the hits are lost (BM-CMB-23)
        order = state.combat.standing.get(hits.player) if state.options.auto_casualties else None
        options = assignments(active, hits, order or CHEAPEST)
        first = next(options)
        if order or next(options, None) is None:
            events += take(state, hits, *first, auto=True)
        else:
            put(state, evolve(b, hits=(*b.hits, hits)))
    return events


def _step(state: BMState, b: Battle, rng: Rng) -> list[Event]:
    at = STEPS.index(b.stage) if b.stage in STEPS else len(STEPS) - 1
    if at + 1 < len(STEPS):
        put(state, evolve(b, stage=STEPS[at + 1], next="roll"))
    else:
        put(state, evolve(b, next="end_round"))
    return []


def _end_round(state: BMState, b: Battle, rng: Rng) -> list[Event]:
    """BM-CMB-7: both sides with active units fight on; otherwise the battle ends."""
    both = b.attacker.active.total() and b.defender.active.total()
    put(state, evolve(b, next="round" if both else "end"))
    return []


# ---------------------------------------------------------------------------------------------------- casualties


def required(active: Troops, hits: Hits) -> tuple[int, int]:
    """The kills and routs the victim must assign (BM-CMB-23, BM-A-6): as many hits as possible, then as many
    kills as possible, each to a different active unit; routs only to army units (BM-MON-2)."""
    routable = min(hits.routs, active.army())
    total = min(routable + hits.kills, active.total())
    kills = min(hits.kills, total)
    return kills, total - kills


def check(active: Troops, hits: Hits, kills: dict[str, int], routs: dict[str, int]) -> None:
    """Raise the first thing wrong with assigning `kills` and `routs` (unit kind → count) for `hits`: units not
    there, a routed monster, the step's order (BM-CMB-20, 21; BM-MON-2), then the wrong totals (reference
    ruling 2)."""
    code = problem(active, hits, kills, routs)
    if code is not None:
        k, r = required(active, hits)
        raise RuleError(code, k=k, r=r)


def problem(active: Troops, hits: Hits, kills: dict[str, int], routs: dict[str, int]) -> str | None:
    """The error code of an illegal assignment, None for a legal one (see `check`)."""
    for kind in UNIT_KINDS:
        k, r = kills.get(kind, 0), routs.get(kind, 0)
        if k + r > active.get(kind) or k < 0 or r < 0:
            return "BM_E_CASUALTY_COUNT"
    if any(routs.get(m, 0) for m in MONSTERS):
        return "BM_E_MONSTER_ROUT"
    if hits.step in ("archery", "cavalry"):
        first = FIRST[hits.step]
        unhit = [kind for kind in first if kills.get(kind, 0) + routs.get(kind, 0) < active.get(kind)]
        later = [kind for kind in UNIT_KINDS if kind not in first]
        killed_later = any(kills.get(kind, 0) for kind in later)
        routed_later = any(routs.get(kind, 0) for kind in later)
        if unhit and (killed_later or (routed_later and any(kind in ARMY for kind in unhit))):
            return "BM_E_ARCHER_CASUALTY" if hits.step == "archery" else "BM_E_CAVALRY_CASUALTY"
    if (sum(kills.values()), sum(routs.values())) != required(active, hits):
        return "BM_E_CASUALTY_COUNT"
    return None


FIRST = {"archery": ("infantry", "cavalry", *MONSTERS), "cavalry": ("cavalry",)}
"""The units that must all be hit before any other may be (BM-CMB-20, 21)."""


def _spread(n: int, kinds: Sequence[str], room: dict[str, int]) -> Iterator[dict[str, int]]:
    """Every way to give `n` hits to `kinds` within `room`, the most to the earliest kinds first."""
    if n == 0:
        yield {}
        return
    if not kinds:
        return
    first, rest = kinds[0], kinds[1:]
    for take in range(min(n, room.get(first, 0)), -1, -1):
        for tail in _spread(n - take, rest, room):
            yield {first: take, **tail} if take else tail


def assignments(active: Troops, hits: Hits, order: Sequence[str]) -> Iterator[tuple[dict[str, int], dict[str, int]]]:
    """The legal assignments, kills first and then routs to the earliest kinds of `order` (the greedy default of
    §7.5 for CHEAPEST, a standing order otherwise)."""
    k, r = required(active, hits)
    kinds = [kind for kind in (*order, *(u for u in UNIT_KINDS if u not in order)) if active.get(kind)]
    room = {kind: active.get(kind) for kind in kinds}
    for kills in _spread(k, kinds, room):
        left = {kind: room[kind] - kills.get(kind, 0) for kind in kinds}
        for routs in _spread(r, [kind for kind in kinds if kind in ARMY], left):
            if problem(active, hits, kills, routs) is None:
                yield kills, routs


def take(state: BMState, hits: Hits, kills: dict[str, int], routs: dict[str, int], *,
         auto: bool = False) -> list[Event]:
    """Apply an assignment (BM-CMB-24): kills to the supply, routs to the routed pile. Combat-step kills count for
    overrun, battle-start spell kills do not (BM-OVR-3)."""
    b = state.combat.battle
    assert b is not None
    side = b.side(hits.player)
    n = sum(kills.values())
    counted = n if hits.step in STEPS else 0
    side = evolve(side, active=_minus(_minus(side.active, kills), routs), routed=_add(side.routed, routs),
                  killed=side.killed + counted, lost=side.lost + n)
    b = evolve(b.with_side(side), hits=tuple(h for h in b.hits if h.player != hits.player))
    if hits.step not in STEPS and not side.units().total():
        b = evolve(b, window=None, next="end")  # a battle-start spell left him nothing: the battle is over
    put(state, b, board=True)
    return [CasualtiesTaken(player=hits.player, region=b.region, step=hits.step,
                            kills={k: v for k, v in kills.items() if v}, routs={k: v for k, v in routs.items() if v},
                            auto=auto)]


def default_casualties(state: BMState, pid: int) -> tuple[dict[str, int], dict[str, int]]:
    """The timeout default (§7.5): the greedy legal assignment, kills first then routs, cheapest unit first."""
    b = state.combat.battle
    assert b is not None
    hits = b.hits_of(pid)
    assert hits is not None
    return next(assignments(b.side(pid).active, hits, CHEAPEST))


# ---------------------------------------------------------------------------------------------------- the end


def _end(state: BMState, b: Battle, rng: Rng) -> list[Event]:
    """BM-CMB-7, 8, 25; BM-A-3, 4: the side with active units wins and his routed units rejoin; the loser's
    routed units are destroyed; neither: both armies are destroyed. Then Raise the Dead (BM-CMB-10) and the
    plunder choice (BM-PLU-1)."""
    winner = next((s.player for s in b.sides() if s.active.total()), None)
    destroyed: dict[int, dict[str, int]] = {}
    for side in b.sides():
        if side.player == winner:
            b = b.with_side(evolve(side, active=side.units(), routed=EMPTY))
        else:
            gone = side.units()
            if gone.total():
                destroyed[side.player] = gone.counts()
            b = b.with_side(evolve(side, active=EMPTY, routed=EMPTY, lost=side.lost + gone.total()))
    b = evolve(b, winner=winner, stage="plunder", next="close")
    events: list[Event] = [BattleEnded(region=b.region, winner=winner, destroyed=destroyed)]
    if winner is not None:
        b, raised = _raise_dead(state, b, winner)
        events += raised
        b = evolve(b, plunder=b.city and winner == b.attacker.player and b.region in state.cities)
    put(state, b, board=True)
    return events


def _raise_dead(state: BMState, b: Battle, winner: int) -> tuple[Battle, list[Event]]:
    """Raise the Dead (BM-RACE-3, BM-CMB-10): a winner with it, after ≥ 2 enemy units died in the battle, gains 1
    free infantry there if the stacking limit allows."""
    rules = load().rules
    need = rules.ability(state.race(winner), "raise_after_kills")
    side = b.side(winner)
    if not isinstance(need, int) or b.other(winner).lost < need or side.active.army() >= rules.stack_limit:
        return b, []
    b = b.with_side(evolve(side, active=side.active.plus("infantry", 1)))
    return b, [DeadRaised(player=winner, region=b.region)]


def plunder(state: BMState, pid: int, yes: bool) -> list[Event]:
    """BM-PLU-1, 2: destroy the city at once for 2/2/2 (city) or 4/4/4 (large city), doubled for K'har; or keep
    it, and with an army unit there it passes to the winner (BM-CMB-9)."""
    b = state.combat.battle
    assert b is not None
    put(state, evolve(b, plunder=False))
    if not yes:
        return [PlunderDeclined(player=pid, region=b.region)]
    rules = load().rules
    city = state.cities[b.region]
    factor = rules.ability(state.race(pid), "plunder")
    times = int(factor) if isinstance(factor, int) else 1
    gain = {res: n * times for res, n in rules.cities[city.kind].plunder.items()}
    state.cities = {r: c for r, c in state.cities.items() if r != b.region}
    state.stock = {**state.stock, pid: state.stock.get(pid, Stock()).plus(gain)}
    return [Plundered(player=pid, region=b.region, city=city.kind, gain=gain)]


def _close(state: BMState, b: Battle, rng: Rng) -> list[Event]:
    """The battle is over: its record goes."""
    put(state, None)
    return []


TRANSITIONS = {
    "round": _round, "rally": _rally, "overrun": _overrun, "roll": _roll, "hits": _hits, "step": _step,
    "end_round": _end_round, "end": _end, "close": _close,
}
