"""The errors the engine raises: RuleError for an illegal action, FormatError for a malformed position or record."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from engine.core.i18n import Msg, translate


class RuleError(Exception):
    """An illegal action: `code` is stable for programs, `message` is written for the player."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)

    def __str__(self) -> str:
        """Formatted only when shown: legal-move probing raises many errors that nobody reads."""
        return f"{self.code}: {self.message}"

    @property
    def message(self) -> str:
        return translate(self.code, **self.params)

    def localized(self, locale: str) -> str:
        return translate(self.code, locale=locale, **self.params)


class FormatError(ValueError):
    """A position or record that breaks its documented format: `field` is the dotted path, as in the JSON."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)

    @classmethod
    def of(cls, err: ValidationError) -> FormatError:
        """The first problem pydantic found, as one line without pydantic's headers and URLs."""
        return cls(*first_problem(err))


_WORDING = {
    "unexpected_keyword_argument": "Extra inputs are not permitted",
    "dataclass_type": "Input should be a valid dictionary or instance of {class_name}",
}
"""Pydantic words these two problems of a dataclass otherwise than of a model: the formats keep one wording."""


def first_problem(err: ValidationError) -> tuple[str, str]:
    """Where (a dotted field path, "" for the whole input) and what pydantic found wrong first."""
    problem = err.errors(include_url=False)[0]
    wording = _WORDING.get(problem["type"])
    message = problem["msg"] if wording is None else wording.format(**problem.get("ctx", {}))
    return ".".join(str(p) for p in problem["loc"]), message


def player_count(low: int, high: int) -> str:
    """A range of player counts as the messages write it: "3–6", or "2" when there is one."""
    return str(low) if low == high else f"{low}–{high}"


def player_count_error(mode: Msg | str, low: int, high: int, joined: int) -> RuleError:
    """E_PLAYER_COUNT: a game started with too few or too many seats."""
    return RuleError("E_PLAYER_COUNT", mode=mode, low=low, high=high, exact="yes" if low == high else "no", n=joined)
