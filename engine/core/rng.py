"""A small seeded random source whose whole state lives in the game state."""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Annotated, TypeVar

from pydantic import Field

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
T = TypeVar("T")
_LIMITS = {n: (1 << 64) - ((1 << 64) % n) for n in range(1, 65)}


@dataclass(slots=True, kw_only=True)
class RngState:
    """SplitMix64 state plus die faces forced by tests or the `apply --dice` tool."""

    state: Annotated[int, Field(ge=0, le=_MASK)]
    forced: list[int] = field(default_factory=list)

    @classmethod
    def from_seed(cls, seed: int) -> RngState:
        return cls(state=seed & _MASK)


class Rng:
    """Mutable working copy of an RngState used inside one `apply` call."""

    __slots__ = ("_forced", "_s")

    def __init__(self, state: RngState) -> None:
        self._s = state.state
        self._forced = list(state.forced)

    @property
    def forced(self) -> bool:
        """Whether die faces forced by a test or the `apply --dice` tool are still waiting."""
        return bool(self._forced)

    def export(self) -> RngState:
        return RngState(state=self._s, forced=self._forced)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection (SplitMix64), so no face is favoured."""
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _LIMITS[n] = (1 << 64) - ((1 << 64) % n)
        s = self._s
        while True:
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                self._s = s
                return z % n

    def die(self, sides: int = 6) -> int:
        if self._forced:
            return self._forced.pop(0)
        return self.below(sides) + 1

    def dice(self, n: int, sides: int = 6) -> list[int]:
        """n rolls; the same draws as n calls of `die`, with `below` inlined (the hottest loop of a game)."""
        if self._forced:
            return [self.die(sides) for _ in range(n)]
        limit = _LIMITS[sides]
        s = self._s
        rolls = []
        for _ in range(n):
            while True:
                s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                z ^= z >> 31
                if z < limit:
                    break
            rolls.append(z % sides + 1)
        self._s = s
        return rolls

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def roll_off(rng: Rng, ids: Sequence[int]) -> tuple[int, list[dict[int, int]]]:
    """Everyone rolls a die in seat order; the tied highest re-roll among themselves until one is left.

    Returns the winner and every round's rolls (for narration).
    """
    rounds: list[dict[int, int]] = []
    contenders = list(ids)
    while True:
        rolls = {pid: rng.die() for pid in contenders}
        rounds.append(rolls)
        top = max(rolls.values())
        contenders = [pid for pid in contenders if rolls[pid] == top]
        if len(contenders) == 1:
            return contenders[0], rounds
