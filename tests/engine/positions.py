"""What both games' position tests share: an example position with one change, and the check of its refusal."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from engine.core.errors import FormatError
from engine.positions import load_position

Change = Callable[[dict[str, Any]], None]


def changed(example: dict[str, Any], change: Change) -> dict[str, Any]:
    data = copy.deepcopy(example)
    change(data)
    return data


def refused_naming(data: dict[str, Any], field: str, problem: str) -> None:
    """Loading `data` fails on `field` with `problem`, in one line without pydantic's URLs."""
    with pytest.raises(FormatError) as info:
        load_position(data)
    assert info.value.field == field
    assert problem in info.value.problem, info.value.problem
    assert "\n" not in str(info.value) and "https://" not in str(info.value)
