"""What the rules offer a player: the legal values of an action's field, and the buttons a decision shows.

Both are plain data with catalogue messages for labels; the Discord side translates them in the reader's locale
and builds the autocomplete answers, buttons and menus from them, so it never decides what is legal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.core.i18n import Msg

Style = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal value of an action field, as autocomplete offers it."""

    value: str | int
    label: Msg
    aliases: tuple[str, ...] = ()
    """Other spellings a player may type to find it (shown nowhere)."""


@dataclass(frozen=True, slots=True)
class Control:
    """A button (or, with `options`, a menu of them) for a pending decision: pressing it sends `action`."""

    action: dict[str, Any]
    """The action without its `player`: the seat that presses it acts."""
    label: Msg
    style: Style = "secondary"
    options: tuple[Control, ...] = field(default=())
    """A menu: each option is the control it stands for; `label` is then the menu's placeholder."""
