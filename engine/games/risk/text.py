"""Text the players read: narration of events (RISK-DIG-55), the text board (DIG-37), missions."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.datanames import name_of
from engine.core.errors import RuleError
from engine.core.i18n import NAMED, Msg, and_list, msg, translate, words
from engine.core.models import Decision, Event
from engine.games.risk import events as E
from engine.games.risk.mapdata import RiskMap, classic
from engine.games.risk.names import territory_name
from engine.games.risk.rules import valid_sets
from engine.games.risk.state import Phase, RiskState


def text_board(s: RiskState, board: RiskMap | None = None, locale: str = "en") -> str:
    """One line per territory, grouped by continent: `Ontario — Alice (Red) 5` (RISK-DIG-37)."""
    b = board or classic()
    lines: list[str] = []
    for c in b.continents:
        lines.append(translate("risk.text.continent", locale, name=name_of("risk", "continent", c.id), bonus=c.bonus))
        for t in b.members[c.id]:
            pid = s.owner.get(t)
            if pid is None:
                lines.append(translate("risk.text.unclaimed", locale, territory=territory_name(t)))
                continue
            p = s.player(pid)
            colour = msg(f"risk.colour.{p.colour if p else 'grey'}")
            i = s.interrupt
            moving = i.min if i is not None and i.kind == "occupy" and i.target == t else None
            lines.append(translate("risk.text.territory" if moving is None else "risk.text.moving_in", locale,
                                   territory=territory_name(t), player=s.who(pid), colour=colour,
                                   armies=s.armies.get(t, 0), min=moving))
    return "\n".join(lines)


def mission_text(s: RiskState, player: int, locale: str = "en") -> str:
    """A player's own mission, for the private `/risk mission` reply (RISK-DIG-6, RISK-ERR-60)."""
    if s.options.mode != "secret_mission":
        raise RuleError("E_NOT_MISSION_GAME")
    mid = s.missions.get(player)
    if mid is None:
        raise RuleError("E_NO_MISSION")
    return translate("risk.text.mission", locale, id=mid, text=name_of("risk", "mission", mid))


def narrate(event: Event, s: RiskState, board: RiskMap | None = None, locale: str = "en") -> str | None:
    """The public sentence for an event, or None for a private one (told only to its seat)."""
    if event.private_to is not None:
        return None
    b = board or classic()

    def t(tid: str | None) -> Msg | str:
        return territory_name(tid) if tid else "?"

    def dice(faces: list[int]) -> str:
        return "-".join(str(f) for f in faces)

    key = "risk.event." + event.type
    match event:
        case E.FirstPlayerRolled():
            rolls = "; ".join(
                ", ".join(f"{s.name(p)} {r}" for p, r in rnd.items()) for rnd in event.rounds
            )
            return translate(key, locale, rolls=rolls, player=s.name(event.first_player))
        case E.TerritoriesDealt():
            counts = ", ".join(f"{s.name(p)} {n}" for p, n in event.counts.items())
            return translate(key, locale, counts=counts)
        case E.Claimed() | E.Placed():
            return translate(key, locale, player=s.name(event.player), territory=t(event.territory),
                             count=getattr(event, "count", 1))
        case E.PlanSubmitted():
            return translate(key, locale, player=s.name(event.player))
        case E.PlansRevealed():
            return translate(key, locale, players=len(event.plans))
        case E.SetupFinished() | E.DeckReshuffled():
            return translate(key, locale, cards=getattr(event, "cards", 0))
        case E.TurnStarted():
            conts = and_list([words(name_of("risk", "continent", c), locale) for c in event.continents], locale)
            return translate(key, locale, player=s.name(event.player), turn=event.turn, base=event.base,
                             continents=conts, held=len(event.continents), total=event.total)
        case E.CardsTraded():
            cards = [t(c) if c in b.territory else msg("risk.card.wild_short") for c in event.cards]
            text = translate(key, locale, player=s.name(event.player), cards=cards, value=event.value,
                             n=event.sets_traded, next=b.trade_value(event.sets_traded + 1))
            if event.bonus_territory:
                text += " " + translate("risk.event.card_bonus", locale, territory=t(event.bonus_territory))
            return text
        case E.AttackDeclared():
            return translate(key, locale, player=s.name(event.player), source=t(event.source),
                             target=t(event.target), dice=event.dice, defender=s.name(event.defender))
        case E.Battle():
            return translate(key, locale, source=t(event.source), target=t(event.target), rolls=battle_rolls(event))
        case E.Conquered():
            return translate(key, locale, player=s.name(event.player), target=t(event.target),
                             previous=s.who(event.previous_owner))
        case E.Moved():
            return translate(key + "." + event.kind, locale, player=s.name(event.player),
                             source=t(event.source), target=t(event.target), count=event.count)
        case E.Eliminated():
            return translate(key, locale, player=s.name(event.player), by=s.name(event.by), n=event.cards_taken)
        case E.CardDrawn():
            return translate(key, locale, player=s.name(event.player), n=event.hand_size)
        case E.PlayerLeft():
            if event.removed_by is not None:
                return translate("risk.event.player_removed", locale, player=s.name(event.player))
            return translate(key, locale, player=s.name(event.player))
        case E.GameWon():
            text = translate(key + "." + event.reason, locale, player=s.name(event.player))
            if event.missions:
                shown = " · ".join(f"{s.name(p)}: {words(name_of('risk', 'mission', m), locale).rstrip('.')}"
                                   for p, m in event.missions.items())
                text += " " + translate("risk.event.missions_revealed", locale, missions=shown)
            return text
    return None


def summary(player: int, events: Sequence[Event], s: RiskState, locale: str = "en") -> str:
    """One line for a turn an AI seat or a stand-in played (the details stay in /history)."""
    mine = [e for e in events if getattr(e, "player", None) == player]
    parts: list[str] = []
    claimed = [e for e in mine if isinstance(e, E.Claimed)]
    if claimed:
        parts.append(translate("risk.summary.claimed", locale, n=len(claimed)))
    traded = sum(e.value for e in mine if isinstance(e, E.CardsTraded))
    if traded:
        parts.append(translate("risk.summary.traded", locale, n=traded))
    placed = sum(e.count for e in mine if isinstance(e, E.Placed))
    if placed:
        parts.append(translate("risk.summary.placed", locale, n=placed))
    conquered = [words(territory_name(e.target), locale) for e in mine if isinstance(e, E.Conquered)]
    battles = sum(1 for e in mine if isinstance(e, E.Battle))
    if conquered:
        parts.append(translate("risk.summary.conquered", locale, n=len(conquered), battles=battles,
                               named="yes" if len(conquered) <= NAMED else "no",
                               territories=and_list(conquered, locale)))
    elif battles:
        parts.append(translate("risk.summary.attacked", locale, battles=battles))
    if any(isinstance(e, E.Moved) and e.kind == "fortify" for e in mine):
        parts.append(translate("risk.summary.fortified", locale))
    what = and_list(parts, locale) if parts else translate("risk.summary.nothing", locale)
    return translate("summary.turn", locale, player=s.name(player), what=what)


def battle_rolls(event: E.Battle) -> Msg:
    """A battle round's dice and losses: its line after the front, and all that a next round on it adds."""
    return msg("risk.event.battle.rolls", attack="-".join(map(str, event.attack_dice)),
               defence="-".join(map(str, event.defence_dice)), a=event.attacker_losses, d=event.defender_losses,
               result=losses(event.attacker_losses, event.defender_losses))


def sequel(event: Event, previous: Event, locale: str = "en") -> str | None:
    """Another battle round on the front of the line before carries that line on (RISK-DIG-55)."""
    if (isinstance(event, E.Battle) and isinstance(previous, E.Battle)
            and (event.source, event.target) == (previous.source, previous.target)):
        more = battle_rolls(event)
        return translate(more.key, locale, **more.params)
    return None


def losses(attacker: int, defender: int) -> str:
    """Who lost armies in a battle round: "attacker", "defender" or "both" (the catalogue words it)."""
    return "both" if attacker and defender else "attacker" if attacker else "defender"


def prompt(decision: Decision, s: RiskState, board: RiskMap | None = None, locale: str = "en") -> str:
    """What the deciding seat is asked to do next (RISK-DIG-9 … DIG-13)."""
    b = board or classic()
    detail = dict(decision.detail)
    for key in ("source", "target"):
        if detail.get(key) in b.territory:
            detail[key] = territory_name(detail[key])
    kind = decision.kind
    if kind == "attack" and s.phase is Phase.REINFORCE and valid_sets(b, s.hands[decision.player]):
        kind += ".trade"  # every army placed, and the trading window still open (RISK-TURN-5, RISK-CARD-12)
    return translate("risk.decision." + kind, locale, **detail)
