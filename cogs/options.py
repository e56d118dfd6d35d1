"""Slash-command parameters made from a game's options model: `/new <game>` without a hand-written signature."""

from __future__ import annotations

import inspect
import types
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

import annotated_types
import discord
from discord import app_commands
from pydantic.fields import FieldInfo

from cogs.translator import described
from engine.core.errors import RuleError
from engine.core.spec import GameSpec
from engine.games import title
from engine.table import CLOCK_OPTIONS

NewGame = Callable[[discord.Interaction, GameSpec, dict[str, Any]], Awaitable[None]]
"""What a generated command calls: the interaction, the game, and the game options the member set."""


@dataclass(frozen=True, slots=True)
class Parameter:
    """One option of a generated command: its Discord name, the game option it sets, its type and description."""

    name: str
    option: str
    annotation: Any
    description: str | app_commands.locale_str
    default: Any = None
    choices: tuple[app_commands.Choice[str], ...] = ()
    """Named choices (the annotation is then `str`), for values whose names are not the values themselves."""


def parameters(spec: GameSpec) -> list[Parameter]:
    """The game's own options, in the options model's order, as optional command options (the clock's excluded)."""
    found = []
    for option, field in spec.options_model.model_fields.items():
        if option in CLOCK_OPTIONS:
            continue
        name = spec.option_names.get(option, option)
        found.append(Parameter(name, option, annotation_of(spec, option, field) | None,
                               described(f"{spec.name}.option.{option}")))
    return found


def annotation_of(spec: GameSpec, option: str, field: FieldInfo) -> Any:
    """The discord.py annotation for a game option: its choices, a yes/no, or a number in the model's range."""
    kind = field.annotation
    if get_origin(kind) in (Union, types.UnionType):
        kind = next(arg for arg in get_args(kind) if arg is not type(None))
    if get_origin(kind) is Literal or kind is bool:
        return kind
    if kind in (int, float):
        low = high = None
        for bound in field.metadata:
            if isinstance(bound, annotated_types.Ge | annotated_types.Gt):
                low = bound.ge if isinstance(bound, annotated_types.Ge) else bound.gt
            elif isinstance(bound, annotated_types.Le | annotated_types.Lt):
                high = bound.le if isinstance(bound, annotated_types.Le) else bound.lt
        return app_commands.Range[kind, low, high]  # type: ignore[valid-type]
    raise TypeError(f"{spec.name} option {option!r}: /new can't offer a {kind!r} (use a Literal, bool, int "
                    "or float)")


def new_game_command(spec: GameSpec, shared: list[Parameter], start: NewGame) -> app_commands.Command[Any, ..., None]:
    """`/new <spec.slug>` with the game's options and the `shared` ones (the clock); it calls `start`."""
    own = parameters(spec)
    every = [*own, *shared]
    if len(every) > 25:  # Discord's limit of options per command
        raise TypeError(f"{spec.name}: /new would have {len(every)} options; Discord takes at most 25")
    options = {p.name: p.option for p in every}

    async def callback(interaction: discord.Interaction, **given: Any) -> None:
        stray = next((name for name in vars(interaction.namespace) if name not in options), None)
        if stray is not None:  # Discord offers only the declared options, but a payload may carry any
            raise RuleError("E_NOT_AN_OPTION", option=stray, game=title(spec.name), options=list(options))
        await start(interaction, spec, {options[name]: value for name, value in given.items() if value is not None})

    callback.__signature__ = inspect.Signature([  # type: ignore[attr-defined]
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
        *(inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, annotation=p.annotation, default=p.default)
          for p in every)])
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        p.name: p.description for p in every}
    callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
        p.name: list(p.choices) for p in every if p.choices}
    return app_commands.Command(name=spec.slug, callback=callback,
                                description=described("lobby.new.describe", game=spec.title))
