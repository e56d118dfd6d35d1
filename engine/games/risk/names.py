"""Forgiving territory-name matching: case-insensitive, by id, name, alias or prefix (RISK-DIG-1)."""

from __future__ import annotations

import difflib

from engine.core.errors import RuleError
from engine.core.i18n import inert
from engine.core.names import normalise
from engine.games.risk.mapdata import RiskMap, classic

_KEYS: dict[int, dict[str, str]] = {}


def _keys(board: RiskMap) -> dict[str, str]:
    """Every normalised spelling (id, name, alias) → territory id, built once per board."""
    keys = _KEYS.get(id(board))
    if keys is None:
        keys = {normalise(s): t.id for t in board.territories for s in (t.id, t.name, *t.aliases)}
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
        names = ", ".join(board.territory[t].name for t in found[:6])
        raise RuleError("E_AMBIGUOUS_TERRITORY", text=inert(text), matches=names)
    close = difflib.get_close_matches(normalise(text), list(_keys(board)), n=3, cutoff=0.5)
    suggestions = list(dict.fromkeys(board.territory[_keys(board)[c]].name for c in close))
    raise RuleError("E_UNKNOWN_TERRITORY", text=inert(text), suggestions=suggestions, n=len(suggestions))
