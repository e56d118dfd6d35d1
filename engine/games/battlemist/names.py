"""Battlemist's things as the messages name them, and as a player may type them, in every language of the bot.

A region, race, card, ability or monster is shown by its catalogue name (`bm.name.…`, engine/core/datanames.py),
never by the data's English: each helper here gives the `Msg` a message quotes, in the shape the messages use
(`N05 Three Princes`, `Great Haste (AC01)`); an id the data does not know is shown as it is. The words the code
puts into messages (terrains, phases, steps, resources) are the `bm.term.…` messages of battlemist_terms.json.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.core.datanames import name_of, slug
from engine.core.i18n import DEFAULT_LOCALE, LANGUAGES, Msg, catalogue, in_every_language, msg, translate
from engine.core.names import normalise
from engine.games.battlemist.data import RACES, RESOURCES, load
from engine.games.battlemist.pieces import UNIT_KINDS, UnitKind

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

PREFIX = "bm"
TERMS = "bm.term."


# ---------------------------------------------------------------------------------------------------- shown


def region(rid: str) -> Msg | str:
    """`N05 Three Princes` (an unknown id as it is)."""
    if rid not in load().map.by_id:
        return rid
    return msg(f"{TERMS}id_name", id=rid, name=name_of(PREFIX, "region", rid))


def region_name(rid: str) -> Msg | str:
    """A region's name alone, `Three Princes` (an unknown id as it is)."""
    return name_of(PREFIX, "region", rid) if rid in load().map.by_id else rid


def region_named(rid: str) -> Msg | str:
    """`Three Princes (N05)` (an unknown id as it is)."""
    if rid not in load().map.by_id:
        return rid
    return msg(f"{TERMS}name_id", id=rid, name=name_of(PREFIX, "region", rid))


def race(rid: str) -> Msg | str:
    """A race by its name, `Zul Orcs` (an unknown id as it is)."""
    return name_of(PREFIX, "race", rid) if rid in load().rules.race else rid


def ability(key: str) -> Msg | str:
    return name_of(PREFIX, "ability", key) if key in load().rules.abilities else key


def card_kind(cid: str) -> str | None:
    """The catalogue's kind of a card id (action, event, spell, artifact), or None for an unknown id."""
    cards = load().cards
    for kind, known in (("action", cards.actions_by_id), ("event", cards.card), ("spell", cards.spell),
                        ("artifact", cards.artifact)):
        if cid in known:
            return kind
    return None


def card(cid: str) -> Msg | str:
    """An action card, event, spell or artifact by its name, `Great Haste` (an unknown id as it is)."""
    kind = card_kind(cid)
    return cid if kind is None else name_of(PREFIX, kind, cid)


def card_named(cid: str) -> Msg | str:
    """`Great Haste (AC01)` (an unknown id as it is)."""
    kind = card_kind(cid)
    return cid if kind is None else msg(f"{TERMS}name_id", id=cid, name=name_of(PREFIX, kind, cid))


def card_text(cid: str) -> Msg | str:
    """What an action card, spell or artifact does (its printed text); nothing for an event or an unknown id."""
    kind = card_kind(cid)
    return "" if kind in (None, "event") else msg(f"{PREFIX}.name.{kind}.{cid}.text")


def outcome(cid: str, choice: str) -> Msg | str:
    """An event's outcome `a` or `b` as its card words it; nothing for another card."""
    return msg(f"{TERMS}outcome.{cid}.{choice}") if card_kind(cid) == "event" and choice in ("a", "b") else ""


def monster(name: str) -> Msg | str:
    """A monster of an encounter, by the name the quest data gives it (the catalogue's id is made of it)."""
    key = f"{PREFIX}.name.monster.{slug(name)}"
    return msg(key) if key in catalogue(DEFAULT_LOCALE) else name


def monsters(name: str, count: int) -> Msg | str:
    """`2× Wolf`, or one monster's name alone."""
    return msg(f"{TERMS}count", n=count, name=monster(name)) if count > 1 else monster(name)


def terrain(kind: str) -> Msg:
    return msg(f"{TERMS}terrain.{kind}")


def resource(kind: str) -> Msg:
    return msg(f"{TERMS}resource.{kind}")


def units(kind: str, n: int) -> Msg:
    """`3 infantry`, `1 archer`: a count of one unit type (or monster)."""
    return msg(f"bm.text.unit.{kind}", n=n)


def hero(state: BMState, owner: int, number: int) -> Msg:
    """`P2's hero 1`."""
    return msg("bm.text.hero", player=state.name(owner), n=number)


# ---------------------------------------------------------------------------------------------------- typed


def _spellings(key: str) -> tuple[str, ...]:
    """The normalised text of message `key` in every language of the bot (each once)."""
    return tuple(dict.fromkeys(normalise(text) for text in in_every_language(msg(key))))


COUNTS = (1, 2, 5)
"""Counts that between them take every plural form of the bot's languages (Russian: one, few, many)."""


def _counted_spellings(key: str) -> tuple[str, ...]:
    """The words of counted message `key` (`{n, plural, …}`) without the count, in each of its plural forms in
    every language: `лучник`, `лучника`, `лучников`."""
    return tuple(dict.fromkeys(normalise(re.sub(r"\d+", " ", translate(key, language, n=n)))
                               for language in LANGUAGES for n in COUNTS))


def region_spellings(rid: str) -> tuple[str, ...]:
    """A region's name in every language, as a player may type it."""
    return _spellings(f"{PREFIX}.name.region.{rid}")


def region_by_name(text: str) -> str | None:
    """The region whose name, in any of the bot's languages, is `text`; None if none is."""
    wanted = normalise(text)
    return next((r.id for r in load().map.regions if wanted in region_spellings(r.id)), None)


def race_spellings(rid: str) -> tuple[str, ...]:
    return _spellings(f"{PREFIX}.name.race.{rid}")


def race_by_name(text: str) -> str | None:
    """The race whose id (any case) or name, in any language, is `text`; None if none is."""
    wanted = normalise(text)
    return next((r for r in RACES if wanted == r.lower() or wanted in race_spellings(r)), None)


def unit_by_name(text: str) -> UnitKind | None:
    """The unit type whose name, in any language, is `text` (`Reiterei`, `лучники`, `лучника` as in `2 лучника`):
    the catalogue's words for it, in each form a count gives it; None if none is."""
    wanted = normalise(text)
    for kind in UNIT_KINDS:
        keys = (f"bm.text.kind.{kind}", f"bm.movement.unit.{kind}", f"{TERMS}unit.{kind}")
        if any(wanted in _spellings(key) for key in keys) or wanted in _counted_spellings(f"bm.text.unit.{kind}"):
            return kind
    return None


def resource_by_name(text: str) -> str | None:
    """The resource whose name, in any language, is `text`; None if none is."""
    wanted = normalise(text)
    return next((r for r in RESOURCES if wanted in _spellings(f"{TERMS}resource.{r}")), None)
