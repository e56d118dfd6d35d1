"""The contract every game implements, and the contract of AI policies."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from engine.core.controls import Choice, Control
from engine.core.models import Action, Decision, Event, GameState, Seat

S = TypeVar("S", bound=GameState)
Opts = TypeVar("Opts", bound=BaseModel)


class Ruleset(Protocol[S, Opts]):
    """A game's rules: pure functions over immutable states of its own type `S`, with its options `Opts`.

    A game's class declares its methods on its own state and options types, so it needs no casts; the bot, the
    service and the command line hold any game's ruleset as `Ruleset[Any, Any]`.

    What the core needs from a game, beyond these methods:

    - Its state derives from `engine.core.players.SeatedState`, with `players` in seat order (a model derived
      from `Player`); seat cycling is `next_seat` / `SeatedState.next_active`.
    - Its action union includes the core's `Resign` (`{"type": "resign"}`: the acting seat leaves) and `Remove`
      (`{"type": "remove", "target": seat}`: the host removes a seat), which the bot issues for any game.
      `apply` starts with the game's `engine.core.turns.Seating.admit(state, action, leave)`: it raises the
      game-over error, then checks the removal's target (E_NOT_PLAYER_TARGET) and the actor's seat (the game's
      codes, E_NOT_PLAYER and E_ELIMINATED by default), and carries a resignation or removal out through the
      game's **`leave(pid, removed_by)` hook**: on the working copy of the state, it settles what the leaver
      owned and held (pieces, cards, secret orders: `orders.withdraw`) and, if the turn was theirs, moves it
      on; `removed_by` is None for a resignation. The hook emits the game's own `player_left` event.
    - A phase gate declared as an `engine.core.turns.Gate` (phase → allowed action types, and the errors).
    - Its events derive from the shared kinds in `engine.core.events` where they mean the same: `TurnStarted`
      (which replays and the service count turns by), `RoundStarted`, and `BoardChanged` for the events after
      which the board is drawn again, `Headline` for those a summary of AI turns still tells in full.
    - A simultaneous step keeps its secret orders in an `engine.core.orders.Orders` book: the book's `missing`
      seats are its pending decisions, `timeout_action` gives an absent seat's stand-in orders (they lock it),
      and `view` shows a seat only its own orders (`orders.redact`).
    """

    name: str
    title: str
    state_model: type[S]
    options_model: type[Opts]
    reaction_kinds: frozenset[str]
    """Decision kinds answered out of turn (e.g. choosing defence dice): they get the shorter reaction deadline."""
    die_sides: int
    """The faces of the game's dice: what `apply --dice` accepts."""

    def player_range(self, options: Opts) -> tuple[int, int]: ...

    def parse_action(self, data: dict[str, Any]) -> Action: ...

    def check_position(self, state: S) -> None:
        """Raise FormatError at the first field of a loaded position that its game's data or format rules out.

        Positions the engine made itself never need it; `load_position` runs it on every position read.
        """
        ...

    def parse_event(self, data: dict[str, Any]) -> Event: ...

    def new_game(
        self, seats: Sequence[Seat], options: Opts, seed: int
    ) -> tuple[S, list[Event]]: ...

    def apply(self, state: S, action: Action) -> tuple[S, list[Event]]:
        """Return the new state and events, or raise RuleError; never mutate `state`."""
        ...

    def pending(self, state: S) -> list[Decision]: ...

    def choices(self, state: S, player: int, field: str, **context: Any) -> list[Choice]:
        """The values `player` may give in `field` (`<action type>.<field>`, e.g. `attack.target`): the only source
        of what autocomplete offers. Each is accepted in an action that is otherwise legal; whose turn it is and
        the phase are left to `apply` to refuse. `context` holds the action's other fields as typed so far. Nothing
        the player may not know is offered (another seat's cards, say)."""
        ...

    def controls(self, state: S, player: int, recent: Sequence[Event] = ()) -> list[Control]:
        """The buttons `player`'s pending decision offers, each with an action `apply` accepts from that player;
        `recent` are the events that led to `state` (e.g. the attack a "roll again" repeats)."""
        ...

    def view(self, state: S, viewer: int | None) -> S:
        """The state as `viewer` may see it (None: a spectator), of the state's own type so that narration, the
        text board and the renderer take it as they take a state: the others' hands and the deck as placeholders
        (`engine.core.views.HIDDEN`), the dice sealed, the others' secret missions gone and their secret orders
        reduced to whether they are in. Every public output is built from `view(state, None)`, every private
        reply from the seat's view; no rule is ever applied to a view (`engine.core.views.is_view`)."""
        ...

    def winners(self, state: S) -> list[int] | None:
        """None while the game goes on; else the winning seats (empty when nobody won)."""
        ...

    def alive(self, state: S) -> list[int]:
        """The seats still playing (not eliminated, not resigned), in turn order."""
        ...

    def ranking(self, state: S) -> list[int]:
        """Every seat, best placed first: the winner, then the survivors by strength, then the fallen."""
        ...

    def policy(self, name: str) -> Policy: ...

    def narrate(self, event: Event, state: S, locale: str = "en") -> str | None:
        """The public sentence for an event (None for a private one)."""
        ...

    def sequel(self, event: Event, previous: Event, state: S, locale: str = "en") -> str | None:
        """The words that carry on the narrated line of `previous` when `event` continues it (another battle on
        the same front), or None: then `event` gets a line of its own."""
        ...

    def summary(self, player: int, events: Sequence[Event], state: S, locale: str = "en") -> str:
        """One line for a turn `player` let an AI play, from that turn's public events."""
        ...

    def prompt(self, decision: Decision, state: S, locale: str = "en") -> str:
        """What the deciding seat is asked to do, in words."""
        ...

    def text_board(self, state: S, locale: str = "en") -> str:
        """The public board as text: the accessible fallback of the picture."""
        ...

    def timeout_action(self, state: S, player: int) -> Action:
        """The least harmful legal action for an absent player (the `skip` timeout mode)."""
        ...


class Policy(Protocol):
    """An AI seat: picks one legal action for `player` in `state`."""

    def choose(self, state: Any, player: int, rng: random.Random) -> Action: ...
