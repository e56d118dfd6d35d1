"""What a game tells its channel: the story of the moves since the last post, and who must decide next.

Chat text only (the catalogue's messages, Discord's markdown and mentions); the Discord side posts it as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.core.events import ROUND_STARTED, is_headline
from engine.core.i18n import mention, timestamp, translate
from engine.core.models import Decision, Event, GameState
from engine.core.ruleset import Ruleset
from engine.replays import TURN_EVENT

MESSAGE_LIMIT = 2000
"""Discord refuses a message longer than this."""
SHORT = 2
"""An AI seat's turn that narrates in at most this many lines is told in full; a longer one in one summary line."""


@dataclass(frozen=True, slots=True)
class Told:
    """One logged move as a post tells it: who made it, whether an AI played it, and its events."""

    actor: int
    ai: bool
    events: Sequence[Event]


def state_name(pid: int, state: GameState | None) -> str:
    """A seat's name as the game knows it, shown as typed."""
    name = getattr(state, "name", None)
    return name(pid) if callable(name) else f"AI {pid}"


def who(pid: int, state: GameState | None, humans: Iterable[int]) -> str:
    """A mention for a human seat, the name for an AI seat."""
    return mention(pid) if pid in set(humans) else state_name(pid, state)


def chunks(lines: Sequence[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Join lines into messages under Discord's length limit."""
    messages: list[str] = []
    current = ""
    for line in lines:
        line = line if len(line) < limit else line[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            messages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        messages.append(current)
    return messages


def narrate(ruleset: Ruleset, state: GameState, events: Iterable[Event], locale: str = "en") -> list[str]:
    """Public lines for `events`; an event that carries on the line before (the rules' `sequel`: consecutive
    battles on one front, say) shares it."""
    lines: list[str] = []
    last: Event | None = None
    for event in events:
        text = ruleset.narrate(event, state, locale)
        if text is None:
            continue
        more = ruleset.sequel(event, last, state, locale) if last is not None else None
        if more is None:
            lines.append(text)
        else:
            lines[-1] = lines[-1] + " · " + more
        last = event
    return lines


def ping(ruleset: Ruleset, state: GameState, decision: Decision, humans: Iterable[int], locale: str = "en",
         due: float | None = None, pinged: bool = True) -> str:
    """The line that tells a seat what to decide next, with its deadline when it has one; unless `pinged`, the
    seat is named instead of mentioned."""
    what = ruleset.prompt(decision, state, locale)
    player = who(decision.player, state, humans) if pinged else state_name(decision.player, state)
    if due is not None:
        return translate("decision.deadline", locale, player=player, what=what, due=timestamp(due))
    return translate("decision.ping", locale, player=player, what=what)


class Story:
    """The moves' public lines as message blocks, built event by event: the humans' own moves in full, each turn
    an AI seat or a stand-in played in one line, and a round's automated phases in a message of their own."""

    def __init__(self, ruleset: Ruleset, state: GameState, locale: str) -> None:
        self.ruleset, self.state, self.locale = ruleset, state, locale
        self.blocks: list[list[str]] = [[]]
        self.told: list[Event] = []
        """Events of the humans' own moves (and of automated phases), narrated together so that battles on one
        front share a line."""
        self.ai: list[Event] = []
        self.ai_player = 0
        self.in_round = False
        self.turn: Event | None = None
        """A turn's opening event, held until the turn's first move says who plays it: a human or an AI."""

    def lines(self, events: Iterable[Event]) -> list[str]:
        return narrate(self.ruleset, self.state, events, self.locale)

    def add(self, actor: int, ai: bool, event: Event) -> None:
        if event.type == ROUND_STARTED or (event.type == TURN_EVENT and self.in_round):
            self.flush()
            self.blocks.append([])
            self.in_round = event.type == ROUND_STARTED
        elif event.type == TURN_EVENT:
            self.flush()
        if event.type == TURN_EVENT:
            self.turn = event
            return
        if ai and not self.in_round:
            player = getattr(self.turn, "player", actor)
            if self.ai_player != player:
                self.flush(keep_turn=True)
            self.ai += [self.turn, event] if self.turn is not None else [event]
            self.ai_player, self.turn = player, None
        else:
            self.flush_ai()
            self.told += [self.turn, event] if self.turn is not None else [event]
            self.turn = None

    def flush(self, keep_turn: bool = False) -> None:
        """Narrate what is buffered; `keep_turn` holds a turn's opening for the moves that follow it."""
        self.flush_ai()
        if self.turn is not None and not keep_turn:
            self.told.append(self.turn)
            self.turn = None
        self.blocks[-1].extend(self.lines(self.told))
        self.told = []

    def flush_ai(self) -> None:
        if not self.ai:
            return
        self.blocks[-1].extend(self.lines(self.told))
        self.told = []
        lines = self.lines(self.ai)
        if len(lines) > SHORT:
            lines = [self.ruleset.summary(self.ai_player, self.ai, self.state, self.locale),
                     *self.lines(e for e in self.ai if is_headline(e))]
        self.blocks[-1].extend(lines)
        self.ai = []


def story(ruleset: Ruleset, state: GameState, moves: Sequence[Told], humans_playing: bool,
          locale: str = "en") -> list[list[str]]:
    """The moves' public lines, in message blocks (see Story). When no human is left to play, everything the AI
    seats played after the last human's move is one summary, with the eliminations and the result."""
    last_human = max((k for k, move in enumerate(moves) if not move.ai), default=-1)
    rest = moves[last_human + 1:]
    turns = sum(e.type == TURN_EVENT for move in rest for e in move.events)
    alone = not humans_playing and turns > 1
    built = Story(ruleset, state, locale)
    for move in moves[:last_human + 1] if alone else moves:
        for event in move.events:
            built.add(move.actor, move.ai, event)
    built.flush()
    blocks = [block for block in built.blocks if block]
    if alone:
        kept = [e for move in rest for e in move.events if is_headline(e)]
        blocks.append([translate("summary.rest", locale, turns=turns), *built.lines(kept)])
    return blocks


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits where when a post is written: the human seats, those still playing, and the seats AI answers for."""

    humans: frozenset[int]
    stand_ins: frozenset[int]


def compose(ruleset: Ruleset, state: GameState | None, moves: Sequence[Told], table: Table, *,
            lead: str | None = None, waiting: Iterable[int] = (), actor: int | None = None,
            deadlines: dict[int, float] | None = None, tail: Sequence[str] = (), locale: str = "en",
            links: Callable[[str], str] = str) -> tuple[list[str], set[int]]:
    """A post's messages and the users it pings: the lead, the story of `moves`, `tail`, then a line for each seat
    that must decide next (stand-ins answer theirs at once: not shown). It pings only humans whose decision is new
    since the seats `waiting` when the last post was written, and never `actor`, who just acted. `links` turns
    each line into what is sent (before the lines are split into messages)."""
    blocks = (story(ruleset, state, moves, bool(table.humans & set(ruleset.alive(state))), locale)
              if state is not None else []) or [[]]
    blocks[0][:0] = [lead] if lead else []
    blocks[-1].extend(tail)
    pinged: set[int] = set()
    if state is not None and ruleset.winners(state) is None:
        shown: set[int] = set()
        before = set(waiting)
        for decision in ruleset.pending(state):
            player = decision.player
            if player in shown or player in table.stand_ins:
                continue
            shown.add(player)
            new = player in table.humans and player != actor and player not in before
            if new:
                pinged.add(player)
            blocks[-1].append(ping(ruleset, state, decision, table.humans, locale, (deadlines or {}).get(player), new))
    return [message for block in blocks for message in chunks([links(line) for line in block])], pinged
