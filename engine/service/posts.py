"""The outbox: every announcement is queued with what it tells, then delivered to its channel in order, once.

A game's row says up to which action its story is told (`announced`): a post tells the moves since, so a crash
between an action and its post loses nothing (the next post, or `resume_all`, tells it) and tells nothing twice.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterable, Sequence

from engine.core.events import changes_board
from engine.core.i18n import Msg, words
from engine.core.models import to_json
from engine.games import spec
from engine.service.board import Boards
from engine.service.models import Outcome, Post, Queued
from engine.service.news import Table, Told, compose
from engine.store import TimerRow
from engine.table import Lobby

log = logging.getLogger("gamemaster.service")


class Posts(Boards):
    """What games tell their channels, and the queue it waits in until it is delivered."""

    def on_posts(self, callback: Callable[[int], None]) -> None:
        """Call `callback(channel_id)` when a post is queued for that channel (the delivery wakes up)."""
        self._on_posts = callback

    async def _untold(self, outcome: Outcome) -> list[Told]:
        """The moves after the last one a post told: those the command made, when they are all, else from the log."""
        game, ruleset, steps = outcome.game, outcome.ruleset, outcome.steps
        if steps and steps[0].seq == game.announced + 1 and all(
                later.seq == earlier.seq + 1 for earlier, later in itertools.pairwise(steps)):
            return [Told(step.actor, step.ai, step.events) for step in steps]
        return [Told(row.actor, row.by_ai, [ruleset.parse_event(e) for e in row.events])
                for row in await self.store.actions(game.id, after=game.announced)]

    async def _announce(self, outcome: Outcome, lobby: Lobby, *, lead: Msg | None = None, actor: int | None = None,
                        tail: Sequence[Msg] = (), also_ping: Iterable[int] = (), picture: bool = False,
                        opening: Sequence[Told] = ()) -> None:
        """Queue the post that tells the moves since the last post (after `lead` and the `opening` of a game
        that is not logged, before `tail`) and who decides next; `actor` just acted and is not pinged,
        `also_ping` is whom the lead addresses. Nothing to tell: no post."""
        game, state, ruleset = outcome.game, outcome.state, outcome.ruleset
        moves = [*opening, *(await self._untold(outcome) if state is not None else [])]
        if not moves and lead is None and not tail:
            return
        public = ruleset.view(state, None) if state is not None else None  # a post is for everyone
        table = Table(humans=frozenset(lobby.humans()), stand_ins=frozenset(lobby.stand_ins()))
        deadlines = await self.deadlines(game.id)
        language = lobby.language  # a post is in the game's language
        messages, pings = compose(ruleset, public, moves, table, lead=None if lead is None else words(lead, language),
                                  waiting=game.waiting, actor=actor, deadlines=deadlines,
                                  tail=[words(t, language) for t in tail], locale=language,
                                  links=lambda line: self.links(line, language))
        picture = public is not None and (picture or any(changes_board(e) for m in moves for e in m.events))
        deciding = public is not None and ruleset.winners(public) is None and any(
            d.player not in table.stand_ins for d in ruleset.pending(public))
        if picture and state is not None:
            events = await self._turn_events(game, state.seq)
        else:  # the buttons read them (the last attack's front)
            events = [to_json(e) for m in moves for e in m.events if e.private_to is None] if deciding \
                else []
        shown = picture or deciding or spec(ruleset.name).pinned_board  # a pinned board shows every change
        post = Post(game=ruleset.name, messages=messages, pings=sorted(pings | set(also_ping)),
                    state=to_json(public) if public is not None and shown else None,
                    events=events, away=sorted(s.id for s in lobby.seats if lobby.absent(s.id)), picture=picture,
                    controls=deciding, language=language)
        waiting = [d.player for d in ruleset.pending(state)] if state is not None else list(game.waiting)
        outcome.game = await self.store.add_post(game, post.payload(), state.seq if state is not None else None,
                                                 waiting)
        outcome.posts.append(post)
        if self._on_posts is not None:
            self._on_posts(game.channel_id)

    async def _remind(self, outcome: Outcome, text: str, timer: TimerRow, language: str) -> None:
        """Post a reminder to the seat `timer` belongs to, and drop the timer with it (once, whatever happens)."""
        post = Post(game=outcome.ruleset.name, messages=[self.links(text, language)], pings=[timer.player])
        outcome.game = await self.store.add_post(outcome.game, post.payload(), done_timer=timer.id)
        outcome.posts.append(post)
        if self._on_posts is not None:
            self._on_posts(outcome.game.channel_id)

    # -- delivery (the Discord side calls these)

    async def post_channels(self) -> list[int]:
        """The channels with a post to deliver now."""
        return await self.store.post_channels(self.clock())

    async def next_post(self, channel_id: int) -> Queued | None:
        """The channel's oldest post not yet delivered (each channel's posts go out in order)."""
        row = await self.store.next_post(channel_id)
        return None if row is None else Queued(id=row.id, game_id=row.game_id, channel_id=row.channel_id,
                                              post=Post.of(row.payload), attempts=row.attempts, sent=list(row.sent),
                                              next_try=row.next_try)

    async def claim_posts(self, channel_id: int, lease: float) -> bool:
        """Deliver the channel's posts for `lease` seconds (renewed by claiming again); False when another process
        sharing the store delivers them."""
        return await self.store.claim_channel(channel_id, lease)

    async def release_posts(self, channel_id: int) -> None:
        await self.store.release_channel(channel_id)

    async def next_retry(self) -> float | None:
        return await self.store.next_retry()

    async def post_tried(self, post: Queued, sent: Sequence[int]) -> None:
        """An attempt at `post` begins (counted, so its back-off grows): the ids of its messages Discord has."""
        await self.store.post_tried(post.id, sent)

    async def post_sent(self, post: Queued, sent: Sequence[int], retry_in: float | None = None) -> None:
        """How far the attempt at `post` got: the ids of its messages Discord accepted so far, and when to try
        the rest."""
        await self.store.post_sent(post.id, sent, None if retry_in is None else self.clock() + retry_in)

    async def post_delivered(self, post: Queued, sent: Sequence[int]) -> None:
        await self.store.post_delivered(post.id, sent)

    async def post_parked(self, post: Queued, reason: str) -> None:
        """A post that can never be delivered as things are (the channel is gone, or the bot may not post there);
        the host sees why in `/game status`, and the next command in the channel tries it again."""
        log.warning("post %s to channel %s parked: %s", post.id, post.channel_id, reason)
        await self.store.post_parked(post.id, reason)

    async def last_delivered(self, channel_id: int) -> int | None:
        """The id of the last message delivered to the channel (where a post a crash cut off is looked for)."""
        return await self.store.last_delivered(channel_id)

    async def board_message(self, game_id: int) -> int | None:
        """The message that shows the game's board, for a game whose board is kept in one pinned message."""
        return await self.store.board_message(game_id)

    async def board_posted(self, game_id: int, message_id: int) -> None:
        """The game's board is now shown in `message_id` (a new one: the last was deleted, or there was none)."""
        await self.store.set_board_message(game_id, message_id)

    async def parked(self, channel_id: int) -> list[str]:
        """Why the channel's parked posts could not be delivered."""
        return [reason for _, reason in await self.store.parked_posts(channel_id)]
