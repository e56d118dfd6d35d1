"""Forgiving territory-name matching: case-insensitive, by id, name (in any language the bot speaks), alias or
prefix (RISK-DIG-1)."""

from __future__ import annotations

import difflib

from engine.core.datanames import name_of
from engine.core.errors import RuleError
from engine.core.i18n import Msg, in_every_language, inert
from engine.core.names import normalise
from engine.games.risk.mapdata import RiskMap, classic

_KEYS: dict[int, dict[str, str]] = {}
_NAMES: dict[int, dict[str, tuple[str, ...]]] = {}


def territory_name(tid: str) -> Msg:
    """A territory as the reader's language names it."""
    return name_of("risk", "territory", tid)


def names(board: RiskMap) -> dict[str, tuple[str, ...]]:
    """Each territory's names in every language the bot speaks (the data's English first), built once per board."""
    found = _NAMES.get(id(board))
    if found is None:
        found = {t.id: tuple(dict.fromkeys([t.name, *in_every_language(territory_name(t.id))]))
                 for t in board.territories}
        _NAMES[id(board)] = found
    return found


def _keys(board: RiskMap) -> dict[str, str]:
    """Every normalised spelling (id, name, alias, then the names in the other languages) → territory id, built
    once per board; a spelling of the data's wins over another language's."""
    keys = _KEYS.get(id(board))
    if keys is None:
        keys = {normalise(s): t.id for t in board.territories for s in (t.id, t.name, *t.aliases)}
        for tid, spellings in names(board).items():
            for spelling in spellings:
                keys.setdefault(normalise(spelling), tid)
        _KEYS[id(board)] = keys
    return keys


def matches(text: str, board: RiskMap | None = None) -> list[str]:
    """Territory ids that `text` could mean, best first; exactly one when it is unambiguous."""
    keys = _keys(board or classic())
    key = normalise(text)
    if not key:
        return []
    if key in keys:
        return [keys[key]]
    found: list[str] = []
    for spelling, tid in keys.items():
        if (spelling.startswith(key) or any(w.startswith(key) for w in spelling.split())) and tid not in found:
            found.append(tid)
    return found


def resolve(text: str, board: RiskMap | None = None) -> str:
    """The territory id for `text`, or RuleError E_UNKNOWN_TERRITORY / E_AMBIGUOUS_TERRITORY."""
    board = board or classic()
    found = matches(text, board)
    if len(found) == 1:
        return found[0]
    if found:
        raise RuleError("E_AMBIGUOUS_TERRITORY", text=inert(text), matches=[territory_name(t) for t in found[:6]])
    close = difflib.get_close_matches(normalise(text), list(_keys(board)), n=3, cutoff=0.5)
    suggestions = [territory_name(t) for t in dict.fromkeys(_keys(board)[c] for c in close)]
    raise RuleError("E_UNKNOWN_TERRITORY", text=inert(text), suggestions=suggestions, n=len(suggestions))
