"""Text the players read: narration of events (WQ-DIG-6), prompts for decisions, the text board."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.datanames import name_of
from engine.core.i18n import NAMED, Msg, and_list, inert, msg, translate, words
from engine.core.models import Decision, Event
from engine.games.wizards_quest import board as B
from engine.games.wizards_quest import events as E
from engine.games.wizards_quest.data import WQData
from engine.games.wizards_quest.names import label
from engine.games.wizards_quest.state import ORCS, Phase, WQState


def _who(s: WQState, pid: int | None, locale: str) -> str:
    """A player's name, "the orcs", or the rebels a resigned player left behind (WQ-LEAVE-2)."""
    if pid == ORCS:
        return translate("wq.orcs", locale)
    p = s.player(pid)
    if p is not None and p.status == "resigned":
        return translate("wq.rebels", locale, player=inert(p.name))
    return s.name(pid)


def _dice(faces: list[int]) -> str:
    return "·".join(str(f) for f in faces)


def by_boat(event: E.AttackDeclared, d: WQData) -> bool:
    """The attack crosses water on a Boat Privilege (WQ-BOAT-3) rather than by a land, bridge or tunnel link."""
    return B.crossing(d, event.source, event.target, event.boat) == "water"


def battle_rolls(event: E.Battle, s: WQState) -> Msg:
    """A battle's die and outcome: its line after the battle's number, and all that a next battle of the same
    attack adds to it."""
    return msg("wq.event.battle.won" if event.attacker_won else "wq.event.battle.lost", roll=event.roll, d=event.d,
               player=s.name(event.player), left=event.attacker_left, them=event.defender_left)


def sequel(event: Event, previous: Event, s: WQState, locale: str = "en") -> str | None:
    """Another battle of the attack on the line before carries that line on."""
    if (isinstance(event, E.Battle) and isinstance(previous, E.Battle)
            and (event.source, event.target) == (previous.source, previous.target)):
        more = battle_rolls(event, s)
        return translate(more.key, locale, **more.params)
    return None


def narrate(event: Event, s: WQState, d: WQData, locale: str = "en") -> str | None:
    """The public sentence for an event, or None for a private one (told only to its seat)."""
    if event.private_to is not None:
        return None

    def at(loc: str | None) -> Msg | str:
        return label(loc, d) if loc else "?"

    def tr(suffix: str, **params: object) -> str:
        return translate(f"wq.event.{event.type}{suffix}", locale, **params)

    match event:
        case E.OrderRolled():
            rolls = "; ".join(", ".join(f"{s.name(p)} {r}" for p, r in rnd.items()) for rnd in event.rounds)
            return tr("." + event.purpose, rolls=rolls, order=" → ".join(s.name(p) for p in event.order),
                      player=s.name(event.order[0]))
        case E.CastleChosen():
            return tr("", player=s.name(event.player), castle=at(event.castle), men=event.men)
        case E.OrcsPlaced():
            rolls = ", ".join("-".join(map(str, r)) for r in event.rolls)
            return tr(".rolled" if event.rolls else ".castles", locations=[at(x) for x in event.locations],
                      orcs=event.orcs, rolls=rolls)
        case E.Claimed():
            return tr("", player=s.name(event.player), territory=event.territory)
        case E.TreasureHidden():
            if event.kind is None:
                return tr(".decoy", hider=s.name(event.hider), owner=s.name(event.owner), territory=event.territory)
            return tr("", hider=s.name(event.hider), owner=s.name(event.owner), territory=event.territory,
                      kind=msg(f"wq.treasure.{event.kind}"))
        case E.Placed():
            spots = ", ".join(f"{words(at(x), locale)} +{n}" for x, n in event.placements.items())
            return tr("", player=s.name(event.player), placements=spots)
        case E.LeaderBought():
            return tr("", player=s.name(event.player), leader=msg(f"wq.leader.{event.leader}"),
                      location=at(event.location), cost=event.cost)
        case E.SetupFinished() | E.DeckReshuffled():
            return tr("", cards=getattr(event, "cards", 0))
        case E.RoundStarted():
            return tr("", round=event.round)
        case E.OrcGrowth():
            if event.holder is not None:
                return tr(".held", dice=_dice(event.dice), territory=event.territory, player=s.name(event.holder))
            return tr("", dice=_dice(event.dice), territory=event.territory, before=event.before, after=event.after)
        case E.Frenzy():
            text = tr("", source=at(event.source), target=at(event.target), player=s.name(event.defender),
                      rolls=_dice(event.rolls), d=event.d, a=event.orc_losses, b=event.defender_losses)
            if event.captured:
                text += " " + tr(".captured", target=at(event.target), n=event.moved)
            return text
        case E.DragonLanded():
            base = tr("." + event.reason, dice=_dice(event.dice), territory=event.territory)
            if event.protected:
                return base + " " + tr(".protected")
            if event.devour is None:
                return base + " " + tr(".nothing")
            return base + " " + tr(".devours", victim=_who(s, event.victim, locale), die=event.devour, n=event.eaten)
        case E.MageMoved():
            base = tr("." + event.reason, dice=_dice(event.dice), territory=event.territory)
            region = name_of("wq", "region", event.region)
            if event.holder is None:
                return base + " " + tr(".empty", region=region, r=event.region)
            if event.holder != ORCS and event.added == 0:
                return base + " " + tr(".rebels", who=_who(s, event.holder, locale), region=region, r=event.region)
            return base + " " + tr(".prospers", who=_who(s, event.holder, locale), n=event.added, region=region,
                                   r=event.region)
        case E.TurnStarted():
            return tr("", player=s.name(event.player), round=event.round)
        case E.CardDrawn():
            return tr("", player=s.name(event.player), n=event.hand_size)
        case E.CardPlayed():
            card = name_of("wq", "card", d.deck.card(event.card).code)
            text = tr(".immediate" if event.immediate else "", player=s.name(event.player), card=card)
            if event.fizzled:
                text += " " + tr(".fizzled")
            if event.to_boat:
                text += " " + tr(".boat")
            return text
        case E.PoolChanged():
            gains = [translate(f"wq.gain.{kind}", locale, n=n) for kind, n in
                     (("men", event.men), ("pieces", event.pieces), ("campaigns", event.campaigns)) if n]
            return tr("", player=s.name(event.player), gains=and_list(gains, locale)) if gains else None
        case E.OrcsRemoved():
            return tr("", location=at(event.location), die=event.die, n=event.removed)
        case E.OrcUprising():
            changes = ", ".join(f"{words(at(x), locale)} {n}" for x, n in event.changes.items()) or "—"
            return tr("", die=event.die, region=name_of("wq", "region", event.die), changes=changes)
        case E.Plague():
            return tr("", player=s.name(event.player), die=event.die, location=at(event.location), n=event.removed)
        case E.EffectSet():
            return tr("." + event.effect, player=s.name(event.player))
        case E.Marched():
            return tr(".leader" if event.leader else "", player=s.name(event.player), source=at(event.source),
                      target=at(event.target), n=event.men, leader=msg(f"wq.leader.{event.leader}"))
        case E.Reinforcements():
            return tr(".famine" if event.famine else "", player=s.name(event.player), base=event.base,
                      cards=event.card_men, pool=event.pool, kingdoms=sum(len(k) for k in event.kingdoms))
        case E.AttackDeclared():
            boat = ".boat" if by_boat(event, d) else ""
            if event.beast is not None:
                return tr(".beast" + boat, player=s.name(event.player), source=at(event.source),
                          target=at(event.target), beast=msg(f"wq.beast.{event.beast}"))
            if event.defender is None:
                return tr(".empty" + boat, player=s.name(event.player), source=at(event.source),
                          target=at(event.target))
            return tr(boat, player=s.name(event.player), source=at(event.source), target=at(event.target),
                      defender=_who(s, event.defender, locale))
        case E.LeaderMoved():
            return tr(".swap" if event.swapped else "", player=s.name(event.player),
                      leader=msg(f"wq.leader.{event.leader}"), source=at(event.source), target=at(event.target))
        case E.Aided():
            return tr("", player=s.name(event.player), source=at(event.source), target=at(event.target),
                      n=event.count)
        case E.Battle():
            return tr("", n=event.number, rolls=battle_rolls(event, s))
        case E.AttackEnded():
            return tr("." + event.reason, player=s.name(event.player))
        case E.Captured():
            return tr("", player=s.name(event.player), target=at(event.target), n=event.count)
        case E.BeastBeaten():
            return tr("." + event.beast, player=s.name(event.player), location=at(event.location),
                      leader=msg(f"wq.leader.{event.by}"), n=event.reward)
        case E.TreasureRetrieved():
            return tr("", player=s.name(event.player), kind=msg(f"wq.treasure.{event.kind}"), territory=event.territory,
                      n=event.total)
        case E.PlayerLeft():
            return tr(".removed" if event.removed_by is not None else "", player=s.name(event.player),
                      n=sum(event.rebels.values()))
        case E.Eliminated() | E.TurnEnded():
            return tr("", player=s.name(event.player))
        case E.GameOver():
            return tr("." + event.reason, players=", ".join(s.name(p) for p in event.winners))
    return None


def summary(player: int, events: Sequence[Event], s: WQState, d: WQData, locale: str = "en") -> str:
    """One line for a turn an AI seat or a stand-in played (the details stay in /history)."""
    mine = [e for e in events if getattr(e, "player", None) == player]
    parts: list[str] = []
    for kind, count in (("claimed", sum(isinstance(e, E.Claimed) for e in mine)),
                        ("placed", sum(sum(e.placements.values()) for e in mine if isinstance(e, E.Placed))),
                        ("cards", sum(isinstance(e, E.CardPlayed) for e in mine))):
        if count:
            parts.append(translate(f"wq.summary.{kind}", locale, n=count))
    captured = [words(label(e.target, d), locale) for e in mine if isinstance(e, E.Captured)]
    battles = [e for e in mine if isinstance(e, E.Battle)]
    won = sum(e.attacker_won for e in battles)
    if captured:
        parts.append(translate("wq.summary.captured", locale, n=len(captured),
                               named="yes" if len(captured) <= NAMED else "no", locations=and_list(captured, locale)))
    if battles:
        parts.append(translate("wq.summary.battles", locale, n=len(battles), won=won))
    parts += [translate(f"wq.summary.beaten.{e.beast}", locale) for e in mine if isinstance(e, E.BeastBeaten)]
    parts += [translate("wq.summary.treasure", locale, kind=msg(f"wq.treasure.{e.kind}"))
              for e in mine if isinstance(e, E.TreasureRetrieved)]
    what = and_list(parts, locale) if parts else translate("wq.summary.nothing", locale)
    return translate("summary.turn", locale, player=_who(s, player, locale), what=what)


def prompt(decision: Decision, s: WQState, d: WQData, locale: str = "en") -> str:
    """What the deciding seat is asked to do next."""
    detail = {k: label(v, d) if isinstance(v, str) and v in d.map.order else v for k, v in decision.detail.items()}
    return translate(f"wq.decision.{decision.kind}", locale, **detail)


def text_board(s: WQState, d: WQData, locale: str = "en") -> str:
    """One line per location, grouped by region: the accessible fallback of the picture (WQ-DIG-4)."""
    lines: list[str] = [translate("wq.text.status", locale, round=s.round, step=msg(f"wq.step.{s.phase.value}"),
                                  player=s.name(s.current) if s.phase is not Phase.GAME_OVER else "—")]
    protected = B.protected_region(s, d)
    for r in d.map.regions:
        key = "wq.text.region_protected" if r.id == protected else "wq.text.region"
        lines.append(translate(key, locale, r=r.id, name=name_of("wq", "region", r.id)))
        for loc in d.map.members[r.id]:
            if s.rebels_at(loc):
                text = translate("wq.text.rebels", locale, loc=label(loc, d), who=_who(s, s.owner[loc], locale),
                                 men=s.men.get(loc, 0))
            elif loc in s.owner:
                leader = s.leader_at(loc)
                text = translate("wq.text.held", locale, loc=label(loc, d), player=s.name(s.owner[loc]),
                                 men=s.men.get(loc, 0),
                                 leader=msg(f"wq.leader.{leader}") if leader else "none")
            elif s.orcs.get(loc):
                text = translate("wq.text.orcs", locale, loc=label(loc, d), n=s.orcs[loc])
            else:
                text = translate("wq.text.empty", locale, loc=label(loc, d))
            marks = [translate("wq.beast.dragon", locale)] if s.dragon == loc else []
            marks += [translate("wq.beast.mage", locale)] if s.mage == loc else []
            marks += [translate("wq.text.treasure", locale, owner=s.name(t.owner),
                                kind=translate(f"wq.treasure.{t.kind if not s.options.decoy else 'unknown'}", locale))
                      for t in s.treasures if t.location == loc]
            lines.append(text + (" · " + " · ".join(marks) if marks else ""))
    for p in s.players:
        real = [k for k in s.retrieved.get(p.id, []) if k != "decoy"]
        lines.append(translate("wq.text.player", locale, player=inert(p.name), colour=msg(f"wq.colour.{p.colour}"),
                               n=len(real), hand=len(s.hands.get(p.id, [])), boats=len(s.boats.get(p.id, [])),
                               status=msg(f"wq.status.{p.status}")))
    return "\n".join(lines)
