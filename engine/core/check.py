"""The field checks every game's strict position check is made of: the first broken field raises FormatError."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from engine.core.errors import FormatError, player_count
from engine.core.players import Player


def quoted(text: object) -> str:
    """A name from the position, quoted on one line whatever it holds."""
    return json.dumps(text, ensure_ascii=False)


class Fields:
    """Checks of one position against its game's seats and places; `place` and `where` word an unknown place."""

    def __init__(self, players: Sequence[Player], places: Collection[str], place: str, where: str,
                 neutral: int | None = None) -> None:
        self.ids = [p.id for p in players]
        self.status = {p.id: p.status for p in players}
        self.places = places
        self.place_word = place
        self.where = where
        self.neutral = neutral
        """The owner id of a side that is nobody's seat (Risk's Neutral), if the game has one."""

    def players(self, players: Sequence[Player], colours: Sequence[str], low: int, high: int, title: str) -> None:
        if not low <= len(players) <= high:
            raise FormatError("players", f"{title} takes {player_count(low, high)} players, not {len(players)}")
        seen: set[int] = set()
        taken: set[str] = set()
        for k, p in enumerate(players):
            if p.id <= 0 or p.id in seen:
                problem = "is taken by an earlier player" if p.id in seen else "must be a positive number"
                raise FormatError(f"players.{k}.id", f"{p.id} {problem}")
            if p.colour not in colours or p.colour in taken:
                problem = "is taken by an earlier player" if p.colour in taken \
                    else f"is not one of {', '.join(colours)}"
                raise FormatError(f"players.{k}.colour", f"{quoted(p.colour)} {problem}")
            seen.add(p.id)
            taken.add(p.colour)

    def seat(self, field: str, pid: int | None, *, neutral: bool = False, active: bool = False) -> None:
        """`pid` is a seated player (or the neutral side, where it may stand); `active`: one still playing."""
        if neutral and pid == self.neutral:
            return
        if pid not in self.status:
            also = f"; {self.neutral} is Neutral" if neutral and self.neutral is not None else ""
            raise FormatError(field, f"{pid} is not a seated player (the players are "
                                     f"{', '.join(map(str, self.ids))}{also})")
        if active and self.status[pid] != "active":
            raise FormatError(field, f"player {pid} is {self.status[pid]} and no longer plays")

    def seat_keys(self, field: str, mapping: Mapping[int, Any], *, every: bool = False, neutral: bool = False) -> None:
        """The keys of `mapping` are seated players; `every`: each seated player has one."""
        for pid in mapping:
            self.seat(f"{field}.{pid}", pid, neutral=neutral)
        missing = [pid for pid in self.ids if pid not in mapping]
        if every and missing:
            raise FormatError(field, f"player {missing[0]} has no entry (every seated player has one)")

    def place(self, field: str, name: str | None) -> None:
        if name is not None and name not in self.places:
            raise FormatError(field, f"there is no {self.place_word} {quoted(name)} {self.where}")

    @staticmethod
    def count(field: str, n: int, least: int = 0, most: int | None = None, why: str = "") -> None:
        if n < least or (most is not None and n > most):
            span = f"at least {least}" if most is None else f"from {least} to {most}"
            raise FormatError(field, f"{n} is out of range: it must be {span}" + (f" ({why})" if why else ""))

    def counts(self, field: str, mapping: Mapping[Any, int], least: int = 0, most: int | None = None) -> None:
        for key, n in mapping.items():
            self.count(f"{field}.{key}", n, least, most)

    @staticmethod
    def cards(piles: Iterable[tuple[str, Sequence[str]]], known: Sequence[str], complete: bool) -> None:
        """Every card is a card of the game and is in one pile once; `complete`: the piles hold every card."""
        cards = set(known)
        where: dict[str, str] = {}
        for field, pile in piles:
            for card in pile:
                if card not in cards:
                    raise FormatError(field, f"{quoted(card)} is not a card of this game")
                if card in where:
                    raise FormatError(field, f"card {quoted(card)} is also in {where[card]}; each card is in "
                                             "one place")
                where[card] = field
        missing = [card for card in known if card not in where]
        if complete and missing:
            raise FormatError("deck", f"card {quoted(missing[0])} is missing: the hands and piles hold every card "
                                      "once")
