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


def table(attack_dice: int, defence_dice: int) -> tuple[tuple[Round, ...], int]:
    """Every outcome in draw order, and how many there are; built on first use (3 v 2 has 7,776)."""
    try:
        return _TABLES[attack_dice, defence_dice]
    except KeyError:
        pass
    outcomes = tuple(resolve(faces, attack_dice)  # `product` varies the last die fastest, like base-6 digits
                     for faces in product(range(1, 7), repeat=attack_dice + defence_dice))
    _TABLES[attack_dice, defence_dice] = built = (outcomes, len(outcomes))
    return built


_TABLES: dict[tuple[int, int], tuple[tuple[Round, ...], int]] = {}


def roll_round(rng: Rng, attack_dice: int, defence_dice: int, one_draw: bool) -> Round:
    """Roll one round. Faces forced by a test or `apply --dice` are used die by die, whatever the schema."""
    if one_draw and not rng.forced:
        outcomes, size = table(attack_dice, defence_dice)
        return outcomes[rng.below(size)]
    return resolve(rng.dice(attack_dice + defence_dice), attack_dice)
