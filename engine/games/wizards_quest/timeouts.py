"""The least harmful legal action for an absent player (WQ-DIG-5)."""

from __future__ import annotations

from engine.games.wizards_quest import actions as A
from engine.games.wizards_quest import board as B
from engine.games.wizards_quest.data import WQData
from engine.games.wizards_quest.legal import card_targets, hide_targets, legal_targets
from engine.games.wizards_quest.state import Phase, WQState


def biggest(s: WQState, d: WQData, pid: int) -> str:
    """The player's location with the most pieces, the lowest ID on ties."""
    return max(s.locations_of(pid), key=lambda x: (s.pieces(x), -d.map.order[x]))


def play_newest(s: WQState, d: WQData, pid: int) -> A.Play:
    """The newest card of a forced hand, aimed at the first legal target, or left to fizzle (WQ-PET-7)."""
    card = s.hands[pid][-1]
    code = d.deck.card(card).code
    targets = card_targets(s, d, pid, card)
    if not targets:
        return A.Play(player=pid, card=card)
    if code == "forced_march":
        source = targets[0]
        to = legal_targets(s, d, pid, "march_target", source=source)[0]
        return A.Play(player=pid, card=card, location=source, to=to, count=1)
    return A.Play(player=pid, card=card, location=targets[0])


def timeout_action(s: WQState, d: WQData, pid: int) -> A.Action:
    todo = s.todo[0] if s.todo else None
    if todo is not None:
        if todo.kind == "hand":
            return play_newest(s, d, pid)
        if todo.kind == "capture":
            assert s.attack is not None
            if s.attack.empty_start and s.pieces(s.attack.source) < 2:
                return A.Cancel(player=pid)
            return A.Capture(player=pid, count=1)
        if todo.kind == "reward":
            return A.Place(player=pid, placements={biggest(s, d, pid): s.pool})
        if todo.kind == "region":
            protected = B.protected_region(s, d)
            return A.ChooseRegion(player=pid, region=next(r for r in range(1, 7) if r != protected))
        return A.MoveMage(player=pid)
    if s.phase is Phase.SETUP_CASTLE:
        return A.ChooseCastle(player=pid, castle=legal_targets(s, d, pid, "castle")[0])
    if s.phase is Phase.SETUP_CLAIM:
        return A.Claim(player=pid, territory=legal_targets(s, d, pid, "claim")[0])
    if s.phase is Phase.SETUP_HIDE:
        t = next(t for t in s.treasures if t.hider == pid and t.location is None)
        return A.Hide(player=pid, owner=t.owner, treasure=t.kind, territory=hide_targets(s, d, t.owner)[0])
    if s.phase in (Phase.SETUP_DEPLOY, Phase.REINFORCE):
        return A.Place(player=pid, placements={biggest(s, d, pid): s.pool})
    if s.phase is Phase.PETITION:
        return A.Done(player=pid)
    if s.attack is not None:
        return A.Stop(player=pid)
    return A.End(player=pid)


