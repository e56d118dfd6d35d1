"""What a game declares to be found by the bot, the command line, the demo and the lobby: its `GameSpec`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel

from engine.core.i18n import Msg, msg, option_value
from engine.core.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game, as its package `engine/games/<name>` declares it in `SPEC`.

    The renderer and the cog are module paths, imported only by the layers that use them, so that the engine
    never imports Pillow or discord.
    """

    ruleset: Ruleset
    aliases: tuple[str, ...] = ()
    """Other names the game answers to on the command line and in files (besides `name` and `slug`)."""
    renderer: str | None = None
    """The module (e.g. `renderer.risk`) whose `draw(state, events, *, locale, away)` draws the board.

    None: the game is shown as text only (`Ruleset.text_board`)."""
    cog: str | None = None
    """The bot extension (e.g. `cogs.risk`) with the game's own commands."""
    summarised: tuple[str, ...] | None = None
    """The options a lobby's announcement and `/game status` name, in order (None: every game option)."""
    option_names: Mapping[str, str] = field(default_factory=dict)
    """Options that `/new` names otherwise than the options model, e.g. `setup_placement` as `placement`."""
    rule_prefix: str | None = None
    """The prefix of the rule IDs (e.g. `RISK`) that docs/rules/<slug>.md defines and the tests are marked with."""
    variant_option: str | None = None
    """The option whose value names the variant in messages, such as Risk's `mode` (None: the game's title)."""
    pinned_board: bool = False
    """Besides the pictures in its posts, the channel keeps one pinned message with the board as it stands, edited
    in place after every change (Battlemist's BM-DIG-17)."""

    @property
    def name(self) -> str:
        """The name in positions, records and the database, e.g. `wizards_quest`."""
        return self.ruleset.name

    @property
    def slug(self) -> str:
        """The name on the command line and in Discord, e.g. `wizards-quest`."""
        return self.ruleset.name.replace("_", "-")

    @property
    def title(self) -> str:
        return self.ruleset.title

    @property
    def options_model(self) -> type[BaseModel]:
        return self.ruleset.options_model

    def variant(self, options: dict[str, object]) -> Msg | str:
        """What messages call the game a lobby with these options plays, e.g. `two_player` or `Wizard's Quest`, in
        the reader's language."""
        chosen = options.get(self.variant_option) if self.variant_option else None
        return option_value(chosen) if chosen is not None else msg(f"title.{self.name}")

    def names(self) -> set[str]:
        """Every spelling that names this game, normalised by `key`."""
        return {key(n) for n in (self.name, self.slug, *self.aliases)}


def key(name: str) -> str:
    """A game's name as the registry compares it: `Wizards-Quest`, `wizards_quest` and `wizards quest` are one."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")
