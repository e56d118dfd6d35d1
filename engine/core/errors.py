"""The one error type the rules raise."""

from __future__ import annotations

from typing import Any

from engine.core.i18n import translate


class RuleError(Exception):
    """An illegal action: `code` is stable for programs, `message` is written for the player."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(f"{code}: {self.message}")

    @property
    def message(self) -> str:
        return translate(self.code, **self.params)

    def localized(self, locale: str) -> str:
        return translate(self.code, locale=locale, **self.params)


def player_count_error(mode: str, low: int, high: int, joined: int) -> RuleError:
    """E_PLAYER_COUNT: a game started with too few or too many seats."""
    return RuleError("E_PLAYER_COUNT", mode=mode, low=low, high=high, exact="yes" if low == high else "no", n=joined)
