"""One battle round: every die of it comes from a single draw, resolved by looking the draw up in a table.

A round of a attacker and d defender dice has 6^(a+d) equally likely outcomes. From state schema 2 on,
the round draws one number below 6^(a+d) and reads its base-6 digits as the faces, attacker's dice first;
schema 1 drew one number per die. Either way every face is uniform and independent.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from engine.core.rng import Rng

Round = tuple[tuple[int, ...], tuple[int, ...], int, int]
"""(attacker dice, defender dice, each sorted highest first; attacker losses, defender losses)."""


def sorted_battle(attack: Sequence[int], defence: Sequence[int]) -> tuple[int, int]:
    """Losses for dice sorted highest first: the highest pair, then the second (if both rolled two)."""
    first = attack[0] > defence[0]
    if len(attack) < 2 or len(defence) < 2:
        return (0, 1) if first else (1, 0)
    second = attack[1] > defence[1]
    return 2 - first - second, first + second


def resolve(faces: Sequence[int], attack_dice: int) -> Round:
    """The round these faces make: the first `attack_dice` are the attacker's."""
    att = tuple(sorted(faces[:attack_dice], reverse=True))
    dfn = tuple(sorted(faces[attack_dice:], reverse=True))
    return (att, dfn, *sorted_battle(att, dfn))


def _table(attack_dice: int, defence_dice: int) -> tuple[Round, ...]:
    """Every outcome in draw order: `product` varies the last die fastest, like base-6 digits."""
    return tuple(resolve(faces, attack_dice) for faces in product(range(1, 7), repeat=attack_dice + defence_dice))


TABLES: dict[tuple[int, int], tuple[tuple[Round, ...], int]] = {
    (a, d): (table, len(table)) for a in (1, 2, 3) for d in (1, 2) for table in (_table(a, d),)
}


def roll_round(rng: Rng, attack_dice: int, defence_dice: int, one_draw: bool) -> Round:
    """Roll one round. Faces forced by a test or `apply --dice` are used die by die, whatever the schema."""
    if one_draw and not rng.forced:
        table, size = TABLES[attack_dice, defence_dice]
        return table[rng.below(size)]
    return resolve(rng.dice(attack_dice + defence_dice), attack_dice)
