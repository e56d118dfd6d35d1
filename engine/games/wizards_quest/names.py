"""Forgiving location names: ids (`3.6`, `c7`), castle names (in any language the bot speaks), `3-6` or `3 6`,
unambiguous prefixes."""

from __future__ import annotations

import re

from engine.core.datanames import name_of
from engine.core.errors import RuleError
from engine.core.i18n import Msg, in_every_language, inert, msg
from engine.core.names import normalise
from engine.games.wizards_quest.data import WQData, standard

_KEYS: dict[int, dict[str, str]] = {}


def _keys(data: WQData) -> dict[str, str]:
    """Every normalised spelling → location id: the id itself, `r t`, `rNtM`, castle names (the data's, then
    those of the other languages); built once per map."""
    cached = _KEYS.get(id(data.map))
    if cached is not None:
        return cached
    keys: dict[str, str] = {}
    for loc in data.map.territories:
        r, t = loc.split(".")
        for spelling in (loc, f"r{r}t{t}", f"{r}{t}"):
            keys[normalise(spelling)] = loc
    for castle, name in data.map.castle_name.items():
        keys[normalise(castle)] = castle
        keys[normalise(name)] = castle
    for castle in data.map.castles:
        for name in in_every_language(name_of("wq", "castle", castle)):
            keys.setdefault(normalise(name), castle)
    _KEYS[id(data.map)] = keys
    return keys


def matches(text: str, data: WQData | None = None) -> list[str]:
    """Location ids `text` could mean, in location order; exactly one when it is unambiguous."""
    d = data or standard()
    keys = _keys(d)
    key = normalise(text)
    if not key:
        return []
    if key in keys:
        return [keys[key]]
    found = {loc for spelling, loc in keys.items() if spelling.startswith(key) or
             any(w.startswith(key) for w in spelling.split()[1:] if not w.isdigit())}
    return sorted(found, key=d.map.order.__getitem__)


def resolve(text: str, data: WQData | None = None) -> str:
    """The location id for `text`, or RuleError WQ_VAL_4 (unknown) / WQ_AMBIGUOUS."""
    d = data or standard()
    if text in d.map.order:
        return text
    found = matches(text, d)
    if len(found) == 1:
        return found[0]
    if found:
        raise RuleError("WQ_AMBIGUOUS", text=inert(text), matches=[label(f, d) for f in found[:6]])
    raise RuleError("WQ_VAL_4", x=inert(text))


def label(loc: str, data: WQData | None = None) -> Msg | str:
    """How a location is shown to players: `3.6`, or `C7 West Bridge Keep` with the castle's name in the reader's
    language."""
    d = data or standard()
    return msg("wq.location.castle", id=loc, name=name_of("wq", "castle", loc)) if loc in d.map.castle_name else loc


_PLACEMENT = re.compile(r"\s*([^\s,:=]+)\s*[:=]\s*(\d+)\s*,?")


def parse_placements(text: str) -> dict[str, int]:
    """Placements written `3.2:4 C7:3` (or `3.2=4, c7:3`) → {"3.2": 4, "C7": 3}; RuleError E_PLACEMENTS."""
    found: dict[str, int] = {}
    at = 0
    while at < len(text.rstrip()):
        match = _PLACEMENT.match(text, at)
        if match is None:
            raise RuleError("E_PLACEMENTS", text=inert(text.strip()))
        found[match[1]] = found.get(match[1], 0) + int(match[2])
        at = match.end()
    if not found:
        raise RuleError("E_PLACEMENTS", text=inert(text.strip()))
    return found
