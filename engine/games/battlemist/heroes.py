"""Heroes: their profile with their owner's artifacts and cards (BM-HER-2, BM-ART-2, BM-A-36, A-37), healing,
the paths of their move orders (BM-QST-5, 15, 16, BM-A-26, BM-VAL-2) and their death (BM-HER-15, 16)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.core.errors import RuleError
from engine.core.models import Event
from engine.games.battlemist import names
from engine.games.battlemist.data import STOPS, load
from engine.games.battlemist.pieces import HeroToken
from engine.games.battlemist.quest_events import HeroDied, HeroHealed, QuestLost

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

HASTE = "AC01"
INSPIRED = "AC10"


def neighbours(state: BMState, region: str) -> list[str]:
    """The regions of this game beside `region` (BM-BRD-7; a void homeland is none, BM-BRD-1)."""
    present = state.regions
    return [n for n in load().map.by_id[region].neighbours if n in present]


def _artifact_value(state: BMState, pid: int, name: str) -> int | None:
    """The value that an artifact `pid` holds sets for hero field `name`, if any."""
    artifacts = load().cards.artifact
    for held in state.artifacts.get(pid, []):
        value = getattr(artifacts[held], name)
        if value is not None:
            return int(value)
    return None


def max_life(state: BMState, pid: int) -> int:
    """5, or 6 while `pid` holds the Amulet of Vigor (AR2, BM-A-36)."""
    held = _artifact_value(state, pid, "hero_life")
    return load().rules.hero.life if held is None else max(held, load().rules.hero.life)


def hit_number(state: BMState, pid: int, inspired: bool) -> int:
    """What `pid`'s hero needs to hit: 5, or 4 with AR1 or AC10 (they do not stack, BM-HER-14, BM-A-37)."""
    needs = [load().rules.hero.hit]
    held = _artifact_value(state, pid, "hero_hit")
    if held is not None:
        needs.append(held)
    card = load().cards.actions_by_id[INSPIRED].hero_hit
    if inspired and card is not None:
        needs.append(card)
    return min(needs)


def allowance(state: BMState, pid: int, hastes: int) -> int:
    """Regions a hero of `pid` may enter in one move order: 3, AR3 4, +1 for each Great Haste on him."""
    held = _artifact_value(state, pid, "hero_move")
    base = load().rules.hero.move if held is None else held
    return base + hastes * (load().cards.actions_by_id[HASTE].extra_move or 0)


def find(state: BMState, pid: int, number: int) -> HeroToken:
    """`pid`'s hero `number`, or BM_E_UNKNOWN_HERO."""
    hero = state.hero(pid, number)
    if hero is None:
        raise RuleError("BM_E_UNKNOWN_HERO", n=number)
    return hero


def put(state: BMState, hero: HeroToken) -> None:
    """Replace the hero of the same owner and number by `hero` (a new list)."""
    state.heroes = [hero if (h.owner, h.number) == (hero.owner, hero.number) else h for h in state.heroes]


def heal(state: BMState, hero: HeroToken, amount: int, by: str) -> list[Event]:
    """`hero` regains `amount` life, up to his current maximum (BM-A-36); no event when he is at it already."""
    life = max(hero.life, min(max_life(state, hero.owner), hero.life + amount))
    if life == hero.life:
        return []
    put(state, replace(hero, life=life))
    return [HeroHealed(player=hero.owner, hero=hero.number, life=life, by=by)]


def kill(state: BMState, hero: HeroToken) -> list[Event]:
    """The hero is removed (BM-HER-16) and his owner's current quest, if any, discarded (BM-HER-15, BM-A-25)."""
    state.heroes = [h for h in state.heroes if (h.owner, h.number) != (hero.owner, hero.number)]
    events: list[Event] = [HeroDied(player=hero.owner, hero=hero.number, region=hero.region)]
    quest = state.quests.get(hero.owner)
    if quest is not None:
        state.quests = {p: q for p, q in state.quests.items() if p != hero.owner}
        state.quest_discard = [*state.quest_discard, quest]
        events.append(QuestLost(player=hero.owner))
    return events


def check_known(path: Sequence[str]) -> None:
    """Every region of the path exists on the map (BM-VAL-0 step 2)."""
    if not path:
        raise RuleError("BM_E_HERO_PATH_EMPTY")
    known = load().map.by_id
    for region in path:
        if region not in known:
            raise RuleError("BM_E_UNKNOWN_REGION", x=region)


def enterable(state: BMState, hero: HeroToken, region: str) -> None:
    """A hero may be put in `region`: it is part of this game, and Blizzard's B outcome closes the mountains."""
    if region not in state.regions:
        raise RuleError("BM_E_VOID_HEX", x=region)
    if state.effects.blizzard == "no_mountains" and load().map.by_id[region].terrain == "mountain":
        raise RuleError("BM_E_HERO_BLIZZARD", hero=names.hero(state, hero.owner, hero.number), region=region)


def stops(state: BMState, pid: int, region: str) -> bool:
    """Entering `region` ends a hero's move: forest or mountain, unless his race ignores it (BM-QST-15, BM-A-26).
    Other players' units never stop him (BM-QST-16, BM-A-17)."""
    terrain = load().map.by_id[region].terrain
    return terrain in STOPS and load().rules.ability(state.race(pid), "ignores") != terrain


def check_path(state: BMState, hero: HeroToken, path: Sequence[str], limit: int) -> None:
    """The move order's geometry, region by region (BM-VAL-2): void hex or adjacency, then the stop he should have
    made in the previous region, then his allowance."""
    here = hero.region
    name = names.hero(state, hero.owner, hero.number)
    for k, region in enumerate(path):
        enterable(state, hero, region)
        if region not in neighbours(state, here):
            raise RuleError("BM_E_NOT_ADJACENT", a=here, b=region)
        if k and stops(state, hero.owner, here):
            raise RuleError("BM_E_HERO_MUST_STOP", hero=name, region=here,
                            terrain=names.terrain(load().map.by_id[here].terrain))
        if k + 1 > limit:
            raise RuleError("BM_E_HERO_MOVE_TOO_FAR", hero=name, n=limit)
        here = region
