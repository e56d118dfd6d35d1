"""The active player's quest step (BM-QST-13): W-PREQUEST, healing at home, the new quest, hero moves with
W-QUEST cards and spells, each completion resolved at once with its encounter and the next card, then duels.

`begin_quest_step` opens it; the handlers below run it; it is over when `state.quest_step` is None again (the
phase stays QUEST: the round's sequencing moves on to the movement step). `pending_quest` lists who must decide,
`timeout_quest` what an absent player's stand-in plays.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from engine.core.errors import RuleError
from engine.core.models import Action, Decision, Event
from engine.core.rng import Rng
from engine.games.battlemist import heroes as H
from engine.games.battlemist import names, windows
from engine.games.battlemist.data import Window, load
from engine.games.battlemist.phases import wrong_phase
from engine.games.battlemist.pieces import HeroToken
from engine.games.battlemist.quest_cards import draw_adventure, next_card
from engine.games.battlemist.quest_events import (
    DuelDeclared,
    DuelStrike,
    EncounterStarted,
    EncounterWon,
    FoesStrike,
    HeroHasted,
    HeroMoved,
    HeroStrikes,
    QuestCompleted,
    QuestStepEnded,
    WindowPassed,
)
from engine.games.battlemist.quest_state import Duel, Encounter, Foe, QuestStep, Stage
from engine.games.battlemist.state import Phase

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

HEALING_HERBS = "AC11"
HEALING_LIGHT = "SP01"
BLINK = "SP09"


# --- actions -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class QuestPass(Action):
    """Pass the open window: W-PREQUEST, or W-ENCOUNTER of an encounter or duel."""

    type: Literal["quest_pass"] = "quest_pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class GreatHaste(Action):
    """AC01 in W-PREQUEST: `hero` may move 1 extra region this step."""

    type: Literal["great_haste"] = "great_haste"
    hero: int


@dataclass(frozen=True, slots=True, kw_only=True)
class QuestNew(Action):
    """`/bm quest new`: the BM-QST-1 draw made explicit (it otherwise happens when W-PREQUEST closes)."""

    type: Literal["quest_new"] = "quest_new"


@dataclass(frozen=True, slots=True, kw_only=True)
class HeroMove(Action):
    """One hero's move order: the regions he enters, in order."""

    type: Literal["hero_move"] = "hero_move"
    hero: int
    path: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class HealingHerbs(Action):
    """AC11 in W-QUEST."""

    type: Literal["healing_herbs"] = "healing_herbs"
    hero: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HealingLight(Action):
    """SP01 in W-QUEST."""

    type: Literal["healing_light"] = "healing_light"
    hero: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Blink(Action):
    """SP09 in W-QUEST: `hero` is placed in `region` instead of moving."""

    type: Literal["blink"] = "blink"
    hero: int
    region: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EndHeroes(Action):
    """End hero movement: a hero standing in the target completes the quest (BM-QST-6), then duels follow."""

    type: Literal["end_heroes"] = "end_heroes"


@dataclass(frozen=True, slots=True, kw_only=True)
class EncounterHero(Action):
    """Which of the player's heroes in the target region fights the encounter."""

    type: Literal["encounter_hero"] = "encounter_hero"
    hero: int


@dataclass(frozen=True, slots=True, kw_only=True)
class InspiredHero(Action):
    """AC10 in W-ENCOUNTER: the player's hero hits on 4+ in this encounter or duel."""

    type: Literal["inspired_hero"] = "inspired_hero"


@dataclass(frozen=True, slots=True, kw_only=True)
class EncounterTarget(Action):
    """`/bm target`: the monster (its index in the encounter, from 0; players type and read it from 1) the hero
    strikes."""

    type: Literal["encounter_target"] = "encounter_target"
    foe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DuelHero(Action):
    """`/bm duel`: the active player's `hero` attacks hero `target` of player `defender` (BM-HER-12)."""

    type: Literal["duel"] = "duel"
    hero: int
    defender: int
    target: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EndQuest(Action):
    """End the quest step: no more duels."""

    type: Literal["end_quest"] = "end_quest"


QuestAction = (QuestPass | GreatHaste | QuestNew | HeroMove | HealingHerbs | HealingLight | Blink | EndHeroes
               | EncounterHero | InspiredHero | EncounterTarget | DuelHero | EndQuest)


# --- the step's frame ----------------------------------------------------------------------------------------------

def begin_quest_step(state: BMState, rng: Rng) -> list[Event]:
    """Open the active player's quest step with W-PREQUEST. Expects phase QUEST and `state.active` set."""
    state.quest_step = QuestStep(home=_hero_at_home(state, _active(state)))
    return []


def _hero_at_home(state: BMState, pid: int) -> bool:
    return any(h.region == state.homeland(pid) for h in state.heroes_of(pid))


def _home(state: BMState, qs: QuestStep, pid: int) -> bool:
    """A hero of his stood in his homeland when the step began (BM-QST-1). No hero moves during W-PREQUEST, so
    there the heroes' places tell, also in a position written by hand without `home`."""
    return _hero_at_home(state, pid) if qs.stage == "prequest" else qs.home


def _active(state: BMState) -> int:
    if state.active is None:
        raise ValueError("the quest step needs an active player")
    return state.active


def _step(state: BMState, pid: int, *stages: Stage) -> QuestStep:
    """The running quest step, checked first (BM-VAL-0 step 1): phase, turn, then the stage the command needs."""
    qs = state.quest_step
    if state.phase is not Phase.QUEST or qs is None:
        raise wrong_phase(state.phase, "-")
    if pid != state.active:
        raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(state.active))
    if stages and qs.stage not in stages:
        raise wrong_phase(state.phase, qs.stage)
    return qs


def _set(state: BMState, **changes: object) -> QuestStep:
    assert state.quest_step is not None
    state.quest_step = replace(state.quest_step, **changes)  # type: ignore[arg-type]
    return state.quest_step


def _close_prequest(state: BMState, rng: Rng) -> list[Event]:
    """W-PREQUEST closes: heroes at home heal (BM-HER-11), then the mandatory new quest (BM-QST-1, 14, BM-A-14).
    An occupied homeland changes neither (BM-HOM-6, BM-A-45)."""
    pid = _active(state)
    qs = _set(state, stage="heroes", home=_hero_at_home(state, pid))  # nobody moved yet: still the step's start
    home = state.homeland(pid)
    events: list[Event] = []
    for hero in state.heroes_of(pid):
        if hero.region == home:
            events += H.heal(state, hero, load().rules.hero.heal, "home")
    if qs.home and pid not in state.quests:
        events += draw_adventure(state, pid, rng)
    return events


def _heroes_stage(state: BMState, pid: int, rng: Rng, events: list[Event], *stages: Stage) -> QuestStep:
    """The step at hero movement (or `stages`); a command of it given in W-PREQUEST passes that window first."""
    qs = _step(state, pid, "prequest", *(stages or ("heroes",)))
    if qs.stage == "prequest":
        events += _close_prequest(state, rng)
    assert state.quest_step is not None
    return state.quest_step


def _window(qs: QuestStep, pid: int) -> Window | None:
    """The window `pid` is in: the one the stage opens; in an encounter or duel, which is resolved at once
    (BM-QST-6), only W-ENCOUNTER while the fight waits for his play, else none."""
    fight = qs.fight
    if isinstance(fight, Encounter):
        return "encounter" if fight.window and fight.hero is not None else None
    if isinstance(fight, Duel):
        return "encounter" if fight.waiting and fight.waiting[0] == pid else None
    return "prequest" if qs.stage == "prequest" else "quest"


def _finish(state: BMState) -> list[Event]:
    pid = _active(state)
    state.quest_step = None
    return [QuestStepEnded(player=pid)]


# --- W-PREQUEST, the new quest, W-QUEST ----------------------------------------------------------------------------

def quest_pass(state: BMState, action: QuestPass, rng: Rng) -> list[Event]:
    """Pass W-PREQUEST (the active player) or W-ENCOUNTER (the fighter; in a duel each owner in turn)."""
    qs = state.quest_step
    fight = None if qs is None else qs.fight
    if isinstance(fight, Duel):
        return _duel_window(state, action.player, rng, inspired=False)
    qs = _step(state, action.player, "prequest", "fight")
    if qs.stage == "prequest":
        return [WindowPassed(player=action.player, window="prequest"), *_close_prequest(state, rng)]
    return _encounter_window(state, rng, inspired=False)


def great_haste(state: BMState, action: GreatHaste, rng: Rng) -> list[Event]:
    """AC01 (W-PREQUEST): the hero may move 1 extra region this step; several plays add up. The card is checked
    before the hero it names (the reference's check order)."""
    qs = _step(state, action.player)
    _, events = windows.play(state, action.player, H.HASTE, _window(qs, action.player))
    H.find(state, action.player, action.hero)
    _set(state, haste=(*qs.haste, action.hero))
    return [*events, HeroHasted(player=action.player, hero=action.hero)]


def quest_new(state: BMState, action: QuestNew, rng: Rng) -> list[Event]:
    """The explicit draw (BM-QST-1): no current quest, then a hero at home when the step began (the reference's
    check order); it happens once, when W-PREQUEST closes."""
    qs = _step(state, action.player)
    if action.player in state.quests:
        raise RuleError("BM_E_QUEST_ACTIVE")
    if not _home(state, qs, action.player):
        raise RuleError("BM_E_NO_HERO_AT_HOME")
    if qs.stage != "prequest":
        raise RuleError("BM_E_QUEST_DRAW_PASSED")
    return _close_prequest(state, rng)


def _heal_with(state: BMState, pid: int, hero_number: int, amount: int | None, by: str) -> list[Event]:
    return H.heal(state, H.find(state, pid, hero_number), amount or 0, by)


def healing_herbs(state: BMState, action: HealingHerbs, rng: Rng) -> list[Event]:
    """AC11 (W-QUEST): the hero regains 2 life, up to his current maximum (BM-A-36)."""
    events: list[Event] = []
    qs = _heroes_stage(state, action.player, rng, events, "heroes", "fight", "duels")
    card, played = windows.play(state, action.player, HEALING_HERBS, _window(qs, action.player))
    return [*events, *played, *_heal_with(state, action.player, action.hero, card.heal, HEALING_HERBS)]


def healing_light(state: BMState, action: HealingLight, rng: Rng) -> list[Event]:
    """SP01 (W-QUEST): as AC11."""
    events: list[Event] = []
    qs = _heroes_stage(state, action.player, rng, events, "heroes", "fight", "duels")
    spell, cast = windows.cast(state, action.player, HEALING_LIGHT, _window(qs, action.player), _scope(state))
    return [*events, *cast, *_heal_with(state, action.player, action.hero, spell.heal, HEALING_LIGHT)]


def _scope(state: BMState) -> str:
    return f"r{state.round}:quest:{state.active}"


# --- hero moves and completion -------------------------------------------------------------------------------------

def hero_move(state: BMState, action: HeroMove, rng: Rng) -> list[Event]:
    """One move order (BM-QST-5): up to 3 regions (AR3 4, Great Haste +1), stopping in forests and mountains
    (BM-QST-15, BM-A-26) but never for other players' units (BM-QST-16, BM-HER-4, BM-A-17); heroes without a
    quest move too (BM-QST-17). Ending in the target completes the quest at once (BM-QST-6, BM-A-15, A-40)."""
    events: list[Event] = []
    qs = _heroes_stage(state, action.player, rng, events)
    hero = H.find(state, action.player, action.hero)
    H.check_known(action.path)
    if action.hero in qs.moved:
        raise RuleError("BM_E_HERO_ALREADY_MOVED", hero=names.hero(state, action.player, action.hero))
    H.check_path(state, hero, action.path, H.allowance(state, action.player, qs.haste.count(action.hero)))
    return [*events, *_arrive(state, rng, hero, action.path, blink=False)]


def blink(state: BMState, action: Blink, rng: Rng) -> list[Event]:
    """SP09 (W-QUEST): the hero is placed in any region of the game; that is his movement this step."""
    events: list[Event] = []
    qs = _heroes_stage(state, action.player, rng, events, "heroes", "fight")
    hero = H.find(state, action.player, action.hero)
    H.check_known([action.region])
    if action.hero in qs.moved:
        raise RuleError("BM_E_HERO_ALREADY_MOVED", hero=names.hero(state, action.player, action.hero))
    _, cast = windows.cast(state, action.player, BLINK, _window(qs, action.player), _scope(state))
    H.enterable(state, hero, action.region)
    return [*events, *cast, *_arrive(state, rng, hero, [action.region], blink=True)]


def _arrive(state: BMState, rng: Rng, hero: HeroToken, path: list[str], *, blink: bool) -> list[Event]:
    qs = _set(state, moved=(*state.quest_step.moved, hero.number))  # type: ignore[union-attr]
    H.put(state, replace(hero, region=path[-1]))
    events: list[Event] = [HeroMoved(player=hero.owner, hero=hero.number, path=list(path), blink=blink)]
    if not qs.completed and _target(state, hero.owner) == path[-1]:
        events += _complete(state, rng, resume="heroes")
    return events


def _target(state: BMState, pid: int) -> str | None:
    quest = state.quests.get(pid)
    return None if quest is None else load().quests.adventure[quest].target


def end_heroes(state: BMState, action: EndHeroes, rng: Rng) -> list[Event]:
    """End hero movement: a hero of his already in the target completes the quest now (BM-QST-6); then duels."""
    events: list[Event] = []
    qs = _heroes_stage(state, action.player, rng, events)
    target = _target(state, action.player)
    if not qs.completed and any(h.region == target for h in state.heroes_of(action.player)):
        events += _complete(state, rng, resume="duels")
        if state.quest_step is not None and state.quest_step.stage == "fight":
            return events
    return [*events, *_duels(state)]


def _complete(state: BMState, rng: Rng, resume: Stage) -> list[Event]:
    """Completion, resolved at once (BM-QST-6, 4, BM-A-40): the card is revealed, then the encounter, or the next
    card straight away. One completion per step: a quest drawn now waits for the next round (BM-QST-8)."""
    pid = _active(state)
    adventure = load().quests.adventure[state.quests[pid]]
    _set(state, completed=True)
    events: list[Event] = [QuestCompleted(player=pid, adventure=adventure.id, target=adventure.target)]
    if not adventure.encounter:
        return [*events, *_reward(state, rng)]
    candidates = tuple(sorted(h.number for h in state.heroes_of(pid) if h.region == adventure.target))
    foes = tuple(Foe(name=f.name, life=f.life, attacks=f.attacks, hit=f.hit, damage=f.damage)
                 for f in adventure.encounter for _ in range(f.count))
    fight = Encounter(adventure=adventure.id, candidates=candidates, foes=foes)
    _set(state, stage="fight", resume=resume, fight=fight)
    if len(candidates) == 1:
        events += _fighter(state, candidates[0])
    return events


def _reward(state: BMState, rng: Rng) -> list[Event]:
    """The completed adventure goes to the quest discards and the next card is drawn (BM-QST-8, 9)."""
    pid = _active(state)
    state.quest_discard = [*state.quest_discard, state.quests[pid]]
    state.quests = {p: q for p, q in state.quests.items() if p != pid}
    return next_card(state, pid, rng)


# --- the encounter -------------------------------------------------------------------------------------------------

def _encounter(state: BMState) -> Encounter:
    qs = state.quest_step
    if qs is None or not isinstance(qs.fight, Encounter):
        raise wrong_phase(state.phase, "-" if qs is None else qs.stage)
    return qs.fight


def _fighter(state: BMState, number: int) -> list[Event]:
    """The hero who fights; he completed the quest and may not move further (BM-QST-18)."""
    enc = _encounter(state)
    qs = _set(state, fight=replace(enc, hero=number))
    if number not in qs.moved:
        _set(state, moved=(*qs.moved, number))
    return [EncounterStarted(player=_active(state), hero=number, foes=[f.name for f in enc.foes])]


def encounter_hero(state: BMState, action: EncounterHero, rng: Rng) -> list[Event]:
    """With several of his heroes in the target, the player picks the one who fights (BM-QST-7)."""
    _step(state, action.player, "fight")
    enc = _encounter(state)
    if enc.hero is not None:
        raise wrong_phase(state.phase, "encounter")
    H.find(state, action.player, action.hero)
    if action.hero not in enc.candidates:
        raise RuleError("BM_E_ENCOUNTER_HERO", hero=names.hero(state, action.player, action.hero))
    return _fighter(state, action.hero)


def inspired_hero(state: BMState, action: InspiredHero, rng: Rng) -> list[Event]:
    """AC10 (W-ENCOUNTER): his hero hits on 4+ in this encounter or duel (BM-A-37 for duels)."""
    qs = state.quest_step
    if qs is not None and isinstance(qs.fight, Duel):
        _duel_turn(state, action.player)
        _, events = windows.play(state, action.player, H.INSPIRED, "encounter")
        return [*events, *_duel_window(state, action.player, rng, inspired=True)]
    qs = _step(state, action.player)
    _, events = windows.play(state, action.player, H.INSPIRED, _window(qs, action.player))
    return [*events, *_encounter_window(state, rng, inspired=True)]


def _encounter_window(state: BMState, rng: Rng, *, inspired: bool) -> list[Event]:
    enc = _encounter(state)
    if enc.hero is None or not enc.window:
        raise wrong_phase(state.phase, "encounter")
    _set(state, fight=replace(enc, window=False, inspired=inspired))
    passed: list[Event] = [] if inspired else [WindowPassed(player=_active(state), window="encounter")]
    return [*passed, *_fight_on(state, rng)]


def encounter_target(state: BMState, action: EncounterTarget, rng: Rng) -> list[Event]:
    """The monster his hero strikes this round (BM-QST-7 step 3)."""
    _step(state, action.player, "fight")
    enc = _encounter(state)
    if not enc.striking:
        raise wrong_phase(state.phase, "encounter")
    if not 0 <= action.foe < len(enc.foes) or enc.foes[action.foe].life == 0:
        raise RuleError("BM_E_ENCOUNTER_TARGET", n=action.foe + 1)  # counted from 1, as typed
    _set(state, fight=replace(enc, striking=False))
    events = _hero_strikes(state, rng, action.foe)
    if state.quest_step is not None and isinstance(state.quest_step.fight, Encounter):
        events += _fight_on(state, rng)
    return events


def _rolls(rng: Rng, n: int) -> list[int]:
    return rng.dice(n, load().rules.die_sides)


def _fight_on(state: BMState, rng: Rng) -> list[Event]:
    """Encounter rounds (BM-QST-7), dice by the engine (BM-DIE-2): the living monsters strike, then the hero,
    until he or every monster is dead; stops when the player must pick which monster his hero strikes."""
    events: list[Event] = []
    pid = _active(state)
    while True:
        enc = _encounter(state)
        assert enc.hero is not None
        hero = H.find(state, pid, enc.hero)
        living = [f for f in enc.foes if f.life > 0]
        rolls = [_rolls(rng, f.attacks) for f in living]
        damage = sum(f.damage for f, dice in zip(living, rolls, strict=True) for d in dice if d >= f.hit)
        life = max(0, hero.life - damage)
        events.append(FoesStrike(player=pid, hero=hero.number, rolls=rolls, damage=damage, life=life))
        if life == 0:
            return [*events, *_kill(state, hero), *_end_fight(state)]
        H.put(state, replace(hero, life=life))
        alive = [k for k, f in enumerate(enc.foes) if f.life > 0]
        if len(alive) > 1:
            _set(state, fight=replace(enc, striking=True))
            return events
        events += _hero_strikes(state, rng, alive[0])
        if state.quest_step is None or not isinstance(state.quest_step.fight, Encounter):
            return events


def _hero_strikes(state: BMState, rng: Rng, index: int) -> list[Event]:
    """The hero's blow against monster `index`; the last monster slain wins the encounter and draws the next card."""
    pid = _active(state)
    enc = _encounter(state)
    assert enc.hero is not None
    profile = load().rules.hero
    need = H.hit_number(state, pid, enc.inspired)
    rolls = _rolls(rng, profile.attacks)
    foe = enc.foes[index]
    life = max(0, foe.life - profile.damage * sum(1 for d in rolls if d >= need))
    foes = tuple(replace(f, life=life) if k == index else f for k, f in enumerate(enc.foes))
    _set(state, fight=replace(enc, foes=foes))
    events: list[Event] = [HeroStrikes(player=pid, hero=enc.hero, foe=index, rolls=rolls, need=need, foe_life=life)]
    if any(f.life > 0 for f in foes):
        return events
    return [*events, EncounterWon(player=pid, hero=enc.hero), *_reward(state, rng), *_end_fight(state)]


def _kill(state: BMState, hero: HeroToken) -> list[Event]:
    """A hero dies in an encounter or duel (BM-HER-15, 16); the step's lists keep only living heroes."""
    events = H.kill(state, hero)
    qs = state.quest_step
    if qs is not None and hero.owner == state.active:
        _set(state, moved=tuple(n for n in qs.moved if n != hero.number),
             haste=tuple(n for n in qs.haste if n != hero.number))
    return events


def _end_fight(state: BMState) -> list[Event]:
    """Back to where the fight began: hero movement, or the duels."""
    qs = _set(state, fight=None)
    _set(state, stage=qs.resume)
    return _duels(state) if qs.resume == "duels" else []


# --- duels ---------------------------------------------------------------------------------------------------------

def _duels(state: BMState) -> list[Event]:
    """The duel stage; the step ends at once when no duel is possible (BM-HER-12)."""
    _set(state, stage="duels", fight=None)
    return [] if duel_options(state) else _finish(state)


def _duels_stage(state: BMState, pid: int, rng: Rng, events: list[Event]) -> QuestStep | None:
    """The step at its duels: a duel or the step's end given before ends hero movement first, as `end_heroes`
    (a hero in the target completes the quest then); None once the step is over."""
    qs = _step(state, pid, "prequest", "heroes", "duels")
    if qs.stage != "duels":
        events += end_heroes(state, EndHeroes(player=pid), rng)
    return state.quest_step


def duel_options(state: BMState) -> list[tuple[int, int, int]]:
    """(hero, defender, target) for every duel the active player may declare now (BM-HER-12, BM-A-41)."""
    qs = state.quest_step
    pid = _active(state)
    if qs is None:
        return []
    race = state.race(pid)
    return [(mine.number, other.owner, other.number)
            for mine in state.heroes_of(pid) if (pid, mine.number) not in qs.duelled
            for other in state.heroes
            if other.region == mine.region and state.race(other.owner) != race
            and (other.owner, other.number) not in qs.duelled]


def duel(state: BMState, action: DuelHero, rng: Rng) -> list[Event]:
    """Declare a duel (BM-HER-12): his hero against another race's hero in the same region, each hero once per
    step (BM-A-41); W-ENCOUNTER opens for both owners, attacker first."""
    events: list[Event] = []
    qs = _duels_stage(state, action.player, rng, events)
    if qs is not None and qs.stage == "fight":
        raise wrong_phase(state.phase, qs.stage)
    hero = H.find(state, action.player, action.hero)
    if qs is None or (action.hero, action.defender, action.target) not in duel_options(state):
        raise RuleError("BM_E_DUEL_INVALID", hero=names.hero(state, hero.owner, hero.number),
                        target=names.hero(state, action.defender, action.target))
    fight = Duel(attacker=(action.player, action.hero), defender=(action.defender, action.target),
                 waiting=(action.player, action.defender))
    _set(state, stage="fight", resume="duels", fight=fight,
         duelled=(*qs.duelled, fight.attacker, fight.defender))
    return [*events, DuelDeclared(player=action.player, hero=action.hero, defender=action.defender,
                                  target=action.target)]


def _duel_turn(state: BMState, pid: int) -> Duel:
    """The duel whose W-ENCOUNTER waits for `pid`."""
    qs = state.quest_step
    if state.phase is not Phase.QUEST or qs is None or not isinstance(qs.fight, Duel):
        raise wrong_phase(state.phase, "-" if qs is None else qs.stage)
    if qs.fight.waiting[0] != pid:
        raise RuleError("BM_E_NOT_YOUR_TURN", player=state.name(qs.fight.waiting[0]))
    return qs.fight


def _duel_window(state: BMState, pid: int, rng: Rng, *, inspired: bool) -> list[Event]:
    fight = _duel_turn(state, pid)
    fight = replace(fight, waiting=fight.waiting[1:], inspired=(*fight.inspired, pid) if inspired else fight.inspired)
    _set(state, fight=fight)
    events: list[Event] = [] if inspired else [WindowPassed(player=pid, window="encounter")]
    if fight.waiting:
        return events
    return [*events, *_fight_duel(state, rng, fight)]


def _fight_duel(state: BMState, rng: Rng, fight: Duel) -> list[Event]:
    """The duel (BM-HER-13, 14, BM-A-16): like an encounter with the defender as the monster, so he strikes
    first; 1 die each at the base profile with the owners' modifiers, until one hero dies."""
    events: list[Event] = []
    profile = load().rules.hero
    striker, struck = fight.defender, fight.attacker
    while True:
        hit = H.hit_number(state, striker[0], striker[0] in fight.inspired)
        victim = H.find(state, *struck)
        rolls = _rolls(rng, profile.attacks)
        life = max(0, victim.life - profile.damage * sum(1 for d in rolls if d >= hit))
        events.append(DuelStrike(player=striker[0], hero=striker[1], rolls=rolls, need=hit, life=life))
        if life == 0:
            return [*events, *_kill(state, victim), *_end_fight(state)]
        H.put(state, replace(victim, life=life))
        striker, struck = struck, striker


def leave_quest(state: BMState, pid: int) -> list[Event]:
    """`pid` left during another player's quest step (his heroes are gone already): a duel against his hero is
    called off unfought, so the attacker may still fight one (BM-A-41), and the step goes on with the duels."""
    qs = state.quest_step
    if qs is None or not isinstance(qs.fight, Duel) or qs.fight.defender[0] != pid:
        return []
    _set(state, duelled=tuple(d for d in qs.duelled if d != qs.fight.attacker))
    return _end_fight(state)


def end_quest(state: BMState, action: EndQuest, rng: Rng) -> list[Event]:
    """End the quest step, declining further duels; an encounter that ending hero movement starts is fought
    first."""
    events: list[Event] = []
    qs = _duels_stage(state, action.player, rng, events)
    if qs is None or qs.stage == "fight":
        return events
    return [*events, *_finish(state)]


# --- decisions and timeouts ----------------------------------------------------------------------------------------

def pending_quest(state: BMState) -> list[Decision]:
    """Who must decide what in the quest step."""
    qs = state.quest_step
    if qs is None or state.active is None:
        return []
    pid = state.active
    fight = qs.fight
    if isinstance(fight, Duel):
        return [Decision(player=fight.waiting[0], kind="bm_duel_window",
                         detail={"attacker": list(fight.attacker), "defender": list(fight.defender)})]
    if isinstance(fight, Encounter):
        if fight.hero is None:
            return [Decision(player=pid, kind="bm_encounter_hero", detail={"heroes": list(fight.candidates)})]
        if fight.window:
            return [Decision(player=pid, kind="bm_encounter_window", detail={"hero": fight.hero})]
        foes = [{"foe": k, "name": f.name, "life": f.life} for k, f in enumerate(fight.foes) if f.life > 0]
        return [Decision(player=pid, kind="bm_encounter_target", detail={"hero": fight.hero, "foes": foes})]
    if qs.stage == "prequest":
        return [Decision(player=pid, kind="bm_prequest")]
    if qs.stage == "heroes":
        free = [h.number for h in state.heroes_of(pid) if h.number not in qs.moved]
        return [Decision(player=pid, kind="bm_hero_moves", detail={"heroes": free})]
    options = [{"hero": h, "defender": d, "target": t} for h, d, t in duel_options(state)]
    return [Decision(player=pid, kind="bm_duels", detail={"duels": options})]


def timeout_quest(state: BMState, pid: int) -> Action:
    """The stand-in's play (BM-DIG-19): no hero moves and no duels; windows pass; the lowest-numbered hero in the
    target fights (ruling 29); he strikes the first living monster listed."""
    qs = state.quest_step
    fight = None if qs is None else qs.fight
    if isinstance(fight, Encounter):
        if fight.hero is None:
            return EncounterHero(player=pid, hero=fight.candidates[0])
        if not fight.window:
            return EncounterTarget(player=pid, foe=next(k for k, f in enumerate(fight.foes) if f.life > 0))
        return QuestPass(player=pid)
    if isinstance(fight, Duel):
        return QuestPass(player=pid)
    if qs is not None and qs.stage == "duels":
        return EndQuest(player=pid)
    return EndHeroes(player=pid)


HANDLERS = {"quest_pass": quest_pass, "great_haste": great_haste, "quest_new": quest_new, "hero_move": hero_move,
            "healing_herbs": healing_herbs, "healing_light": healing_light, "blink": blink,
            "end_heroes": end_heroes, "encounter_hero": encounter_hero, "inspired_hero": inspired_hero,
            "encounter_target": encounter_target, "duel": duel, "end_quest": end_quest}
"""Action type → handler, for the lead's `apply`."""


__all__ = ["HANDLERS", "QuestAction", "begin_quest_step", "duel_options", "leave_quest", "pending_quest",
           "timeout_quest"]
