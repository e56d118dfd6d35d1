"""Battlemist's words: the public narration of every event (with every die and its purpose, BM-DIE-4), the
private lines of private events, the one-line summary of an AI turn, the prompts of every decision and the text
board (BM-DIG-2). Nothing secret reaches a public line (BM-DIG-5): hands, undrawn or unfinished quests, drafts.

Messages are in `data/locales/en/battlemist_text.json` (`bm.text.…`). Regions read `N05 Three Princes`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.core.events import PlayerLeft
from engine.core.i18n import DEFAULT_LOCALE, NAMED, Msg, and_list, catalogue, msg, translate, words
from engine.core.models import Decision, Event
from engine.games.battlemist import battle as BT
from engine.games.battlemist import build as BD
from engine.games.battlemist import combat as CB
from engine.games.battlemist import council as CO
from engine.games.battlemist import dice as DI
from engine.games.battlemist import economy as EC
from engine.games.battlemist import initiative as IN
from engine.games.battlemist import movement as MV
from engine.games.battlemist import names as N
from engine.games.battlemist import quest_events as QE
from engine.games.battlemist import rules as RU
from engine.games.battlemist import setup as SE
from engine.games.battlemist import upkeep as UP
from engine.games.battlemist import windows as WI
from engine.games.battlemist.data import RESOURCES, load
from engine.games.battlemist.pieces import UNIT_KINDS, Stars, Stock, Troops

if TYPE_CHECKING:
    from engine.games.battlemist.state import BMState

K = "bm.text."


# ---------------------------------------------------------------------------------------------------- names


def region(rid: str | None, locale: str = DEFAULT_LOCALE) -> str:
    """`N05 Three Princes` (an unknown id as it is)."""
    return "?" if rid is None else words(N.region(rid), locale)


def regions(rids: Sequence[str], locale: str) -> str:
    return and_list([region(r, locale) for r in rids], locale)


def race(rid: str | None, locale: str = DEFAULT_LOCALE) -> str:
    return "?" if rid is None or rid not in load().rules.race else words(N.race(rid), locale)


def card(cid: str, locale: str = DEFAULT_LOCALE) -> str:
    """An action card, event, spell, artifact or quest deck's Star card by name."""
    if cid == "STAR":
        return translate(f"{K}star_card", locale)
    return words(N.card(cid), locale)


def units(counts: Mapping[str, int], locale: str) -> str:
    """`3 infantry, 1 archer and 2 giants` in the fixed unit order; `nothing` when empty."""
    shown = [translate(f"{K}unit.{k}", locale, n=counts[k]) for k in UNIT_KINDS if counts.get(k)]
    return and_list(shown, locale) if shown else translate(f"{K}nothing", locale)


def resources(cost: Mapping[str, int], locale: str) -> str:
    shown = [translate(f"{K}res.{r}", locale, n=cost[r]) for r in RESOURCES if cost.get(r)]
    return ", ".join(shown) if shown else translate(f"{K}nothing", locale)


def hero(s: BMState, pid: int, number: int, locale: str) -> str:
    return translate(f"{K}hero", locale, player=s.name(pid), n=number)


def faces(dice: Sequence[int]) -> str:
    return "·".join(str(d) for d in dice)


def signed(n: int) -> str:
    """A modifier as the dice lines show it: `+1`, `−2`, or nothing."""
    return "" if n == 0 else f"+{n}" if n > 0 else f"−{-n}"


def _none(text: str) -> str:
    """A list parameter for a `select`: its text, or `none` for the empty branch."""
    return text or "none"


# ---------------------------------------------------------------------------------------------------- narration

Narrator = Callable[[Any, "BMState", str], str]


def _t(key: str, locale: str, **params: Any) -> str:
    return translate(K + key, locale, **params)


def _named(prefix: str, value: str) -> str | Msg:
    """The catalogue's name `bm.text.<prefix>.<value>`, or the value itself when there is none."""
    key = f"{K}{prefix}.{value}"
    return msg(key) if key in catalogue(DEFAULT_LOCALE) else value.replace("_", " ")


def _rolled_more(e: DI.Rolled, s: BMState, locale: str) -> str:
    """Another die of the same purpose, after the line that named it."""
    return _t("event.die_rolled.more", locale, who=s.name(e.player) if e.player is not None else "none",
              dice=faces(e.dice), region=region(e.region, locale) if e.region else "none")


def _rolled(e: DI.Rolled, s: BMState, locale: str) -> str:
    purpose = _named("purpose", e.purpose)
    return _t("event.die_rolled", locale, who=s.name(e.player) if e.player is not None else "none",
              dice=faces(e.dice), purpose=purpose, region=region(e.region, locale) if e.region else "none")


def _battle_roll(e: BT.BattleDice, s: BMState, locale: str, step: bool = True) -> str:
    """One side's dice of a battle step, without the region (what a sequel appends); without the step's name
    when it follows dice of the same step."""
    hits = _t("hits", locale, kills=e.outcomes.count("kill"), routs=e.outcomes.count("rout"))
    return _t("event.battle_dice.roll", locale, step=msg(f"{K}step.{e.step}") if step else "none",
              player=s.name(e.player), dice=faces(e.results), mod=f" ({signed(e.modifier)})" if e.modifier else "",
              hits=hits)


def _reroll(e: BT.Rerolled, s: BMState, locale: str) -> str:
    return _t("event.rerolled.roll", locale, player=s.name(e.player), die=e.die, old=e.old, new=e.new)


def _rally(e: BT.RallyRolled, s: BMState, locale: str) -> str:
    return _t("event.rally_rolled.roll", locale, player=s.name(e.player), face=e.result,
              mod=signed(e.modifier), total=e.total, back=e.back)


def _losses(e: BT.CasualtiesTaken, locale: str) -> str:
    """`1 infantry killed; 2 archers routed`, or `no loss`."""
    parts = [_t("casualty.killed", locale, units=units(e.kills, locale))] if any(e.kills.values()) else []
    parts += [_t("casualty.routed", locale, units=units(e.routs, locale))] if any(e.routs.values()) else []
    return "; ".join(parts) or _t("casualty.none", locale)


def _casualties(e: BT.CasualtiesTaken, s: BMState, locale: str) -> str:
    return _t("event.casualties_taken", locale, player=s.name(e.player), what=_losses(e, locale),
              auto="yes" if e.auto else "no")


def _casualties_short(e: BT.CasualtiesTaken, s: BMState, locale: str) -> str:
    """The losses alone, after the line that told the hits."""
    return _t("event.casualties_taken.short", locale, what=_losses(e, locale), auto="yes" if e.auto else "no")


def _battle_ended(e: BT.BattleEnded, s: BMState, locale: str) -> str:
    losses = [_t("event.battle_ended.loss", locale, player=s.name(p), units=units(lost, locale))
              for p, lost in e.destroyed.items() if any(lost.values())]
    return _t("event.battle_ended", locale, region=region(e.region, locale),
              winner=s.name(e.winner) if e.winner is not None else "none", losses=_none("; ".join(losses)))


def _move_boost(e: MV.MoveBoost, s: BMState, locale: str) -> str:
    return _t("event.move_boost", locale, player=s.name(e.player), source=card(e.source, locale), bonus=e.move_bonus,
              free="yes" if e.free_terrain else "no", both="yes" if e.move_bonus and e.free_terrain else "no",
              region=region(e.region, locale) if e.region else "none")


def _event_decided(e: CO.EventDecided, s: BMState, locale: str) -> str:
    return _t("event.event_decided", locale, card=card(e.card, locale), committed=e.committed, needed=e.needed,
              outcome=e.outcome.upper(), text=N.outcome(e.card, e.outcome))


def _discussion(e: CO.CouncilDiscussion, s: BMState, locale: str) -> str:
    return _t("event.council_discussion", locale, card=card(e.card, locale), a=N.outcome(e.card, "a"),
              b=N.outcome(e.card, "b"))


def _vote_opened(e: CO.VoteOpened, s: BMState, locale: str) -> str:
    order = ", ".join(f"{s.name(p)} {e.votes.get(p, 0)}" for p in e.order)
    return _t("event.vote_opened", locale, card=card(e.card, locale), needed=e.needed, order=order)


def _game_won(e: CO.GameWon, s: BMState, locale: str) -> str:
    stars = ", ".join(f"{s.name(p)} ★{n}" for p, n in e.stars.items())
    return _t("event.game_won", locale, reason=e.reason, players=and_list([s.name(p) for p in e.winners], locale),
              n=len(e.winners), stars=stars)


def _abilities(ids: Sequence[str], locale: str) -> str:
    return and_list([words(N.ability(a), locale) for a in ids], locale) or _t("none", locale)


def _races_announced(e: SE.RacesAnnounced, s: BMState, locale: str) -> str:
    races = [_t("event.race_announced", locale, player=s.name(c.player), race=race(c.race, locale),
                abilities=_abilities(c.abilities, locale)) for c in e.races]
    return _t("event.races_announced", locale, races="; ".join(races))


def _race_card(e: SE.RaceCard, s: BMState, locale: str) -> str:
    return _t("event.race_card", locale, player=s.name(e.player), race=race(e.race, locale),
              abilities=_abilities(e.abilities, locale))


def _tiles_dealt(e: BD.TilesDealt, s: BMState, locale: str) -> str:
    counts = ", ".join(f"{s.name(p)} {len(t)}" for p, t in e.tiles.items())
    return _t("event.tiles_dealt", locale, centre=regions(list(e.centre), locale), counts=counts,
              player=s.name(e.order[0]) if e.order else "?")


def _initiative_set(e: IN.InitiativeSet, s: BMState, locale: str) -> str:
    def one(p: int) -> str:
        mod = e.modifiers.get(p, 0)
        roll = e.rolls.get(p)
        return f"{s.name(p)} ({roll}{signed(mod)})" if roll is not None else s.name(p)
    return _t("event.initiative_set", locale, order=" → ".join(one(p) for p in e.order))


def _guild_roll_off(e: EC.GuildRollOff, s: BMState, locale: str) -> str:
    rolls = "; ".join(", ".join(f"{s.name(p)} {r}" for p, r in rnd.items()) for rnd in e.rolls)
    return _t("event.guild_roll_off", locale, rolls=rolls)


def _effect_set(e: CO.EffectSet, s: BMState, locale: str) -> str:
    return _t(f"event.effect_set.{e.effect}", locale, card=card(e.card, locale), value=e.value)


def _cities_struck(e: CO.CitiesStruck, s: BMState, locale: str) -> str:
    return _t("event.cities_struck", locale, reduced=_none(regions(e.reduced, locale)),
              destroyed=_none(regions(e.destroyed, locale)))


def _quest_completed(e: QE.QuestCompleted, s: BMState, locale: str) -> str:
    return _t("event.quest_completed", locale, player=s.name(e.player), adventure=e.adventure,
              target=region(e.target, locale))


def _hero_strikes(e: QE.HeroStrikes, s: BMState, locale: str) -> str:
    return _t("event.hero_strikes", locale, hero=hero(s, e.player, e.hero, locale), foe=e.foe + 1,
              rolls=faces(e.rolls), need=e.need, life=e.foe_life)


def _strikes_back(e: QE.HeroStrikes, s: BMState, locale: str) -> str:
    """The hero's answer, after the monsters' blow on the line before."""
    return _t("event.hero_strikes.more", locale, foe=e.foe + 1, rolls=faces(e.rolls), need=e.need, life=e.foe_life)


def _duel_answer(e: QE.DuelStrike, s: BMState, locale: str) -> str:
    return _t("event.duel_strike.more", locale, hero=hero(s, e.player, e.hero, locale), rolls=faces(e.rolls),
              need=e.need, life=e.life)


def _duel_declared(e: QE.DuelDeclared, s: BMState, locale: str) -> str:
    return _t("event.duel_declared", locale, hero=hero(s, e.player, e.hero, locale),
              target=hero(s, e.defender, e.target, locale))


def _duel_strike(e: QE.DuelStrike, s: BMState, locale: str) -> str:
    return _t("event.duel_strike", locale, hero=hero(s, e.player, e.hero, locale), rolls=faces(e.rolls),
              need=e.need, life=e.life)


def _foes_strike(e: QE.FoesStrike, s: BMState, locale: str) -> str:
    return _t("event.foes_strike", locale, hero=hero(s, e.player, e.hero, locale),
              rolls="; ".join(faces(r) for r in e.rolls), damage=e.damage, life=e.life)


def _hero_moved(e: QE.HeroMoved, s: BMState, locale: str) -> str:
    return _t("event.hero_moved", locale, hero=hero(s, e.player, e.hero, locale),
              path=" → ".join(region(r, locale) for r in e.path), blink="yes" if e.blink else "no")


def _hero_healed(e: QE.HeroHealed, s: BMState, locale: str) -> str:
    return _t("event.hero_healed", locale, hero=hero(s, e.player, e.hero, locale), life=e.life,
              by="home" if e.by == "home" else card(e.by, locale))


def _artifact(e: QE.ArtifactFound, s: BMState, locale: str) -> str:
    return _t("event.artifact_found", locale, player=s.name(e.player), artifact=card(e.artifact, locale),
              text=N.card_text(e.artifact))


def _by_player(key: str) -> Narrator:
    """A line that names only the event's player."""
    return lambda e, s, locale: _t(f"event.{key}", locale, player=s.name(e.player))


def _window(e: QE.WindowPassed | CB.WindowPassed, s: BMState, locale: str) -> str:
    window = _named("window", e.window)
    if isinstance(e, CB.WindowPassed):
        return _t("event.window_passed.battle", locale, player=s.name(e.player), window=window,
                  region=region(e.region, locale))
    return _t("event.window_passed", locale, player=s.name(e.player), window=window)


def _game_abandoned(e: RU.GameAbandoned, s: BMState, locale: str) -> str:
    return _t("event.game_abandoned", locale, winners=_none(and_list([s.name(p) for p in e.winners], locale)),
              n=len(e.winners))


NARRATORS: dict[type[Event], Narrator] = {
    # the round's sequencing
    PlayerLeft: lambda e, s, lo: _t("event.player_left", lo, player=s.name(e.player),
                                    by=s.name(e.removed_by) if e.removed_by is not None else "none"),
    RU.RoundBegun: lambda e, s, lo: _t("event.round_started", lo, round=e.round),
    RU.RoundEnded: lambda e, s, lo: _t("event.round_ended", lo, round=e.round),
    RU.TurnBegun: lambda e, s, lo: _t("event.turn_started", lo, player=s.name(e.player), round=e.round),
    RU.GameAbandoned: _game_abandoned,
    # dice
    DI.Rolled: _rolled,
    # setup and build mode
    SE.RacePicked: lambda e, s, lo: _t("event.race_picked", lo, player=s.name(e.player), race=race(e.race, lo)),
    SE.RaceCard: _race_card,
    SE.RacesAnnounced: _races_announced,
    SE.SetupFinished: lambda e, s, lo: _t("event.setup_finished", lo, n=len(e.regions)),
    BD.TilesDealt: _tiles_dealt,
    BD.TilePlaced: lambda e, s, lo: _t("event.tile_placed", lo, player=s.name(e.player), tile=region(e.tile, lo),
                                       q=e.q, r=e.r),
    BD.PlacerSkipped: _by_player("placer_skipped"),
    # the Council
    CO.GameWon: _game_won,
    CO.StarsRefilled: lambda e, s, lo: _t("event.stars_refilled", lo, round=e.round),
    CO.HandFull: lambda e, s, lo: _t("event.hand_full", lo, player=s.name(e.player), n=load().rules.hand_limit),
    CO.EventRevealed: lambda e, s, lo: _t("event.event_revealed", lo, player=s.name(e.player), card=card(e.card, lo)),
    CO.DeckRebuilt: lambda e, s, lo: _t("event.deck_rebuilt", lo, n=e.cards),
    CO.CouncilDiscussion: _discussion,
    CO.VoteOpened: _vote_opened,
    CO.VoteCast: lambda e, s, lo: _t("event.vote_cast", lo, player=s.name(e.player), n=e.committed),
    CO.EventDecided: _event_decided,
    CO.CitiesStruck: _cities_struck,
    CO.UnitsLost: lambda e, s, lo: _t("event.units_lost", lo, player=s.name(e.player), units=units(e.units, lo),
                                      region=region(e.region, lo)),
    CO.UprisingPaid: lambda e, s, lo: _t("event.uprising_paid", lo, player=s.name(e.player), n=len(e.regions),
                                         regions=regions(e.regions, lo)),
    CO.EffectSet: _effect_set,
    CO.EventRemoved: lambda e, s, lo: _t("event.event_removed", lo, card=card(e.card, lo)),
    # economy and maintenance
    EC.PlaysLocked: lambda e, s, lo: _t("event.econ_locked", lo, player=s.name(e.player),
                                        what=msg(f"{K}what.{e.step}")),
    EC.HarvestBoosted: lambda e, s, lo: _t("event.harvest_boosted", lo, player=s.name(e.player), card=card(e.card, lo),
                                           region=region(e.region, lo)),
    EC.Harvested: lambda e, s, lo: _t("event.harvested", lo, player=s.name(e.player),
                                      income=resources(e.income, lo)),
    EC.MerchantTraded: lambda e, s, lo: _t("event.merchant_traded", lo, player=s.name(e.player),
                                           give=resources({e.give: e.amount}, lo),
                                           get=resources({e.get: e.received}, lo)),
    EC.CityBuilt: lambda e, s, lo: _t("event.city_built", lo, player=s.name(e.player), city=msg(f"{K}city.{e.city}"),
                                      region=region(e.region, lo), cost=resources(e.cost, lo)),
    EC.Recruited: lambda e, s, lo: _t("event.recruited", lo, player=s.name(e.player), units=units({e.unit: e.n}, lo),
                                      region=region(e.region, lo), cost=resources(e.cost, lo)),
    EC.HeroRecruited: lambda e, s, lo: _t("event.hero_recruited", lo, player=s.name(e.player), n=e.number,
                                          life=e.life),
    EC.StarBought: lambda e, s, lo: _t("event.star_bought", lo, player=s.name(e.player),
                                       price=resources(e.price, lo)),
    EC.GuildRefused: _by_player("guild_refused"),
    EC.GuildRollOff: _guild_roll_off,
    EC.TradeOffered: lambda e, s, lo: _t("event.trade_offered", lo, source=s.name(e.source), target=s.name(e.target),
                                         give=resources(e.give, lo), get=resources(e.get, lo), offer=e.offer),
    EC.TradeClosed: lambda e, s, lo: _t("event.trade_closed", lo, offer=e.offer,
                                        accepted="yes" if e.accepted else "no"),
    EC.CityDestroyed: lambda e, s, lo: _t("event.city_destroyed", lo, city=msg(f"{K}city.{e.city}"),
                                          region=region(e.region, lo), reason=e.reason),
    UP.Disbanded: lambda e, s, lo: _t("event.disbanded", lo, player=s.name(e.player), units=units({e.unit: e.n}, lo),
                                      region=region(e.region, lo)),
    UP.CityReduced: lambda e, s, lo: _t("event.city_reduced", lo, region=region(e.region, lo)),
    UP.UpkeepPaid: lambda e, s, lo: _t("event.upkeep_paid", lo, player=s.name(e.player), paid=resources(e.paid, lo),
                                       nothing="no" if any(e.paid.values()) else "yes"),
    # initiative and movement
    IN.InitiativeSet: _initiative_set,
    MV.MovementStarted: _by_player("movement_started"),
    MV.MoveBoost: _move_boost,
    MV.UnitsMoved: lambda e, s, lo: _t("event.units_moved", lo, player=s.name(e.player),
                                       units=units({e.unit: e.n}, lo), path=" → ".join(region(r, lo) for r in e.path)),
    MV.MoveUndone: lambda e, s, lo: _t("event.move_undone", lo, player=s.name(e.player),
                                       units=units({e.unit: e.n}, lo), path=" → ".join(region(r, lo) for r in e.path)),
    MV.UnitsDisbanded: lambda e, s, lo: _t("event.units_disbanded", lo, player=s.name(e.player),
                                           units=units(e.units, lo), region=region(e.region, lo)),
    MV.MovementEnded: _by_player("movement_ended"),
    # the quest step
    QE.HeroHealed: _hero_healed,
    QE.QuestStarted: _by_player("quest_started"),
    QE.QuestDeckRebuilt: lambda e, s, lo: _t("event.quest_deck_rebuilt", lo, n=e.cards),
    QE.HeroHasted: lambda e, s, lo: _t("event.hero_hasted", lo, hero=hero(s, e.player, e.hero, lo)),
    QE.HeroMoved: _hero_moved,
    QE.QuestCompleted: _quest_completed,
    QE.EncounterStarted: lambda e, s, lo: _t("event.encounter_started", lo, hero=hero(s, e.player, e.hero, lo),
                                             foes=and_list([words(N.monster(f), lo) for f in e.foes], lo)),
    QE.FoesStrike: _foes_strike,
    QE.HeroStrikes: _hero_strikes,
    QE.EncounterWon: lambda e, s, lo: _t("event.encounter_won", lo, hero=hero(s, e.player, e.hero, lo)),
    QE.HeroDied: lambda e, s, lo: _t("event.hero_died", lo, hero=hero(s, e.player, e.hero, lo),
                                     region=region(e.region, lo)),
    QE.QuestLost: _by_player("quest_lost"),
    QE.StarFound: lambda e, s, lo: _t("event.star_found", lo, player=s.name(e.player),
                                      gained="yes" if e.gained else "no"),
    QE.ArtifactFound: _artifact,
    QE.WindowPassed: _window,
    QE.DuelDeclared: _duel_declared,
    QE.DuelStrike: _duel_strike,
    QE.QuestStepEnded: _by_player("quest_step_ended"),
    # the combat step and its battles
    CB.CombatStepBegun: lambda e, s, lo: _t("event.combat_step_begun", lo, player=s.name(e.player),
                                            n=len(e.battles), regions=regions(e.battles, lo)),
    CB.CombatStepEnded: _by_player("combat_step_ended"),
    CB.WindowPassed: _window,
    CB.SpellEffect: lambda e, s, lo: _t("event.battle_effect", lo, source=card(e.source, lo), player=s.name(e.player),
                                        region=region(e.region, lo),
                                        unit=msg(f"{K}kind.{e.detail}") if e.detail in UNIT_KINDS else "none"),
    CB.HomelandOccupied: lambda e, s, lo: _t("event.homeland_occupied", lo, player=s.name(e.player),
                                             homeland=region(e.homeland, lo), owner=s.name(e.owner), n=e.stars),
    CB.OccupationEnded: lambda e, s, lo: _t("event.occupation_ended", lo, player=s.name(e.player),
                                            homeland=region(e.homeland, lo)),
    CB.StandingOrderSet: lambda e, s, lo: _t("event.casualty_order_set", lo, player=s.name(e.player),
                                             cleared="no" if e.order else "yes"),
    BT.BattleBegun: lambda e, s, lo: _t("event.battle_begun", lo, region=region(e.region, lo),
                                        attacker=s.name(e.attacker), defender=s.name(e.defender), siege=e.siege),
    BT.CombatRound: lambda e, s, lo: _t("event.combat_round", lo, region=region(e.region, lo), round=e.round),
    BT.BattleDice: lambda e, s, lo: _t("event.battle_dice", lo, region=region(e.region, lo),
                                       roll=_battle_roll(e, s, lo)),
    BT.Rerolled: lambda e, s, lo: _t("event.rerolled", lo, region=region(e.region, lo), roll=_reroll(e, s, lo)),
    BT.HitsScored: lambda e, s, lo: _t("event.hits_scored", lo, region=region(e.region, lo), victim=s.name(e.victim),
                                       hits=_t("hits.taken", lo, kills=e.kills, routs=e.routs,
                                               both="yes" if e.kills and e.routs else "no"),
                                       step=msg(f"{K}step.{e.step}")),
    BT.CasualtiesTaken: _casualties,
    BT.RallyRolled: lambda e, s, lo: _t("event.rally_rolled", lo, region=region(e.region, lo), roll=_rally(e, s, lo)),
    BT.Rallied: lambda e, s, lo: _t("event.rallied", lo, player=s.name(e.player), units=units(e.units, lo),
                                    region=region(e.region, lo)),
    BT.Overrun: lambda e, s, lo: _t("event.overrun", lo, player=s.name(e.player), region=region(e.region, lo),
                                    units=units(e.killed, lo)),
    BT.BattleEnded: _battle_ended,
    BT.DeadRaised: lambda e, s, lo: _t("event.dead_raised", lo, player=s.name(e.player), region=region(e.region, lo)),
    BT.Plundered: lambda e, s, lo: _t("event.plundered", lo, player=s.name(e.player), city=msg(f"{K}city.{e.city}"),
                                      region=region(e.region, lo), gain=resources(e.gain, lo)),
    BT.PlunderDeclined: lambda e, s, lo: _t("event.plunder_declined", lo, player=s.name(e.player),
                                            region=region(e.region, lo)),
    # cards and spells
    WI.CardPlayed: lambda e, s, lo: _t("event.card_played", lo, player=s.name(e.player), card=card(e.card, lo)),
    WI.CardDiscarded: _by_player("card_discarded"),
    WI.PlayerSpied: lambda e, s, lo: _t("event.player_spied", lo, player=s.name(e.player), target=s.name(e.target),
                                        source=card(e.source, lo)),
    WI.SpellCast: lambda e, s, lo: _t("event.spell_cast", lo, player=s.name(e.player), spell=card(e.spell, lo),
                                      cost=e.cost),
}
"""Every public event class → its line. A private event class (its instances carry `private_to`) is told by
`PRIVATE` instead."""


def narrate(event: Event, state: BMState, locale: str = "en") -> str | None:
    """The public sentence for an event, or None for a private one (told only to its seat, `private`)."""
    if event.private_to is not None:
        return None
    told = NARRATORS.get(type(event))
    return None if told is None else told(event, state, locale)


# ---------------------------------------------------------------------------------------------------- private


def _card_drawn(e: CO.CardDrawn, s: BMState, locale: str) -> str:
    return _t("private.card_drawn", locale, card=card(e.card, locale), text=N.card_text(e.card))


def _quest_drawn(e: QE.QuestDrawn, s: BMState, locale: str) -> str:
    adventure = load().quests.adventure.get(e.adventure)
    foes = [words(N.monsters(f.name, f.count), locale) for f in adventure.encounter] if adventure else []
    return _t("private.quest_drawn", locale, adventure=e.adventure,
              target=region(adventure.target, locale) if adventure else "?", foes=_none(and_list(foes, locale)),
              n=sum(f.count for f in adventure.encounter) if adventure else 0,
              returned=_none(and_list([card(c, locale) for c in e.returned], locale)))


def sighting(seen: WI.Sighting, s: BMState, locale: str = DEFAULT_LOCALE) -> str:
    """What a Spy or a Far Sight showed: the player's hand and current quest card (told to its player alone)."""
    adventure = load().quests.adventure.get(seen.quest or "")
    return _t("private.sighting", locale, player=s.name(seen.target), source=card(seen.source, locale),
              round=seen.round, hand=_none(and_list([card(c, locale) for c in seen.hand], locale)),
              quest=seen.quest or "none", target=region(adventure.target, locale) if adventure else "?")


def _spy_report(e: WI.SpyReport, s: BMState, locale: str) -> str:
    return sighting(WI.Sighting(target=e.target, source=e.source, round=e.round, hand=tuple(e.hand), quest=e.quest),
                    s, locale)


PRIVATE: dict[type[Event], Narrator] = {
    CO.CardDrawn: _card_drawn,
    WI.SpyReport: _spy_report,
    QE.QuestDrawn: _quest_drawn,
    EC.Drafted: lambda e, s, lo: _t("private.econ_drafted", lo, what=msg(f"{K}what.{e.step}")),
}
"""The private event classes → the line their own seat reads (ephemerally or by DM, BM-DIG-3, DIG-4)."""


def private(event: Event, state: BMState, locale: str = "en") -> str | None:
    """The sentence the event's own seat reads for a private event; None for a public one."""
    if event.private_to is None:
        return None
    told = PRIVATE.get(type(event))
    return None if told is None else told(event, state, locale)


# ---------------------------------------------------------------------------------------------------- sequel

SEQUELS: dict[type[Event], Callable[[Any, BMState, str], str]] = {
    BT.BattleDice: _battle_roll, BT.Rerolled: _reroll, BT.RallyRolled: _rally}
"""The dice lines of a battle round that may carry on the line before: each told without its region."""


def sequel(event: Event, previous: Event, state: BMState, locale: str = "en") -> str | None:
    """A battle's dice (a step's rolls, a hero re-roll, a rally roll) right after other dice of the same battle
    round share its line; so do a victim's losses right after the hits he took, the dice of one roll-off, a hero's
    answer to the monsters' blow, and a duel's exchange of blows."""
    if isinstance(event, DI.Rolled):
        same = isinstance(previous, DI.Rolled) and previous.purpose == event.purpose
        return _rolled_more(event, state, locale) if same else None
    if isinstance(event, QE.HeroStrikes):
        same = isinstance(previous, QE.FoesStrike) and (previous.player, previous.hero) == (event.player, event.hero)
        return _strikes_back(event, state, locale) if same else None
    if isinstance(event, QE.DuelStrike):
        return _duel_answer(event, state, locale) if isinstance(previous, QE.DuelStrike) else None
    if isinstance(event, BT.CasualtiesTaken):
        same = (isinstance(previous, BT.HitsScored) and previous.victim == event.player
                and previous.region == event.region and previous.step == event.step)
        return _casualties_short(event, state, locale) if same else None
    short = SEQUELS.get(type(event))
    if short is None or type(previous) not in SEQUELS or event.private_to is not None:
        return None
    if getattr(event, "region", None) != getattr(previous, "region", None):
        return None
    if isinstance(event, BT.RallyRolled) != isinstance(previous, BT.RallyRolled):
        return None
    if isinstance(event, BT.BattleDice):
        return _battle_roll(event, state, locale, step=getattr(previous, "step", None) != event.step)
    return short(event, state, locale)


# ---------------------------------------------------------------------------------------------------- summary


def summary(player: int, events: Sequence[Event], state: BMState, locale: str = "en") -> str:
    """One line for a turn an AI seat or a stand-in played: what it moved, fought and won (the details stay in
    `/history`)."""
    mine = [e for e in events if getattr(e, "player", None) == player and e.private_to is None]
    fought = [e for e in events if isinstance(e, BT.BattleBegun) and player in (e.attacker, e.defender)]
    won = sum(isinstance(e, BT.BattleEnded) and e.winner == player for e in events)
    counts = (("recruited", sum(e.n for e in mine if isinstance(e, EC.Recruited))),
              ("built", sum(isinstance(e, EC.CityBuilt) for e in mine)),
              ("moved", sum(e.n for e in mine if isinstance(e, MV.UnitsMoved))
               - sum(e.n for e in mine if isinstance(e, MV.MoveUndone))),
              ("heroes", sum(isinstance(e, QE.HeroMoved) for e in mine)),
              ("quests", sum(isinstance(e, QE.QuestCompleted) for e in mine)),
              ("cards", sum(isinstance(e, WI.CardPlayed) for e in mine)),
              ("spells", sum(isinstance(e, WI.SpellCast) for e in mine)),
              ("stars", sum(isinstance(e, EC.StarBought) or (isinstance(e, QE.StarFound) and e.gained)
                            for e in mine) + sum(e.stars for e in mine if isinstance(e, CB.HomelandOccupied))))
    parts = [_t(f"summary.{kind}", locale, n=n) for kind, n in counts if n > 0]
    if fought:
        parts.append(_t("summary.battles", locale, n=len(fought), won=won))
    occupied = [region(e.homeland, locale) for e in mine if isinstance(e, CB.HomelandOccupied)]
    if occupied:
        shown = occupied if len(occupied) <= NAMED else [*occupied[:NAMED], "…"]
        parts.append(_t("summary.occupied", locale, homelands=and_list(shown, locale)))
    what = and_list(parts, locale) if parts else _t("summary.nothing", locale)
    return translate("summary.turn", locale, player=state.name(player), what=what)


# ---------------------------------------------------------------------------------------------------- prompts


def _counts(detail: Mapping[str, Any], key: str, locale: str) -> str:
    value = detail.get(key) or {}
    return units(value, locale) if isinstance(value, Mapping) else str(value)


def _prompt_params(decision: Decision, state: BMState, locale: str) -> dict[str, Any]:
    """The decision's detail as its message names it: regions by name, players by name, units counted. Never the
    cards a window could take (they would tell the hand, BM-DIG-5)."""
    d = dict(decision.detail)
    kind = decision.kind
    out: dict[str, Any] = {k: v for k, v in d.items() if isinstance(v, int | str) and not isinstance(v, bool)}
    if "region" in d:
        out["region"] = region(d["region"], locale)
    if "regions" in d:
        out["regions"] = regions(list(d["regions"]), locale)
    if "card" in d:
        out["card"] = card(d["card"], locale)
    if "step" in d:
        out["step"] = msg(f"{K}step.{d['step']}")
    if kind == "pick_race":
        out["races"] = ", ".join(f"{r} ({race(r, locale)})" for r in d.get("races", []))
    elif kind == "place_tile":
        out["tiles"] = ", ".join(d.get("tiles", [])) or _t("none", locale)
        out["homeland"] = "yes" if d.get("homeland") else "no"
    elif kind == "trade_offer":
        out["source"] = state.name(d.get("source"))
        out["give"], out["get"] = resources(d.get("give", {}), locale), resources(d.get("get", {}), locale)
    elif kind == "move":
        over = d.get("over_limit") or {}
        out["window"] = d.get("window") or "none"
        out["over"] = _none(", ".join(f"{region(r, locale)} +{n}" for r, n in over.items()))
    elif kind in ("bm_hero_moves", "bm_encounter_hero"):
        out["heroes"] = ", ".join(str(h) for h in d.get("heroes", [])) or _t("none", locale)
    elif kind == "bm_duels":
        out["duels"] = "; ".join(_t("decision.bm_duels.option", locale, hero=o["hero"],
                                    target=hero(state, o["defender"], o["target"], locale))
                                 for o in d.get("duels", [])) or _t("none", locale)
    elif kind == "bm_encounter_target":
        out["foes"] = ", ".join(_t("decision.bm_encounter_target.foe", locale, foe=f["foe"] + 1,
                                   name=N.monster(f["name"]), life=f["life"]) for f in d.get("foes", []))
    elif kind == "casualties":
        out["hits"] = _t("hits", locale, kills=d.get("kills", 0), routs=d.get("routs", 0))
        out["units"] = _counts(d, "active", locale)
    elif kind == "reroll":
        out["dice"] = faces(d.get("dice", []))
    elif kind == "rally_pick":
        out["units"] = _counts(d, "routed", locale)
    elif kind == "plunder":
        out["city"] = msg(f"{K}city.{d.get('city', 'city')}")
    return out


def prompt(decision: Decision, state: BMState, locale: str = "en") -> str:
    """What the deciding seat must do next, in the imperative, naming the command."""
    return _t(f"decision.{decision.kind}", locale, **_prompt_params(decision, state, locale))


# ---------------------------------------------------------------------------------------------------- text board


def badge(troops: Troops) -> str:
    """`I3 A1 C2 M1` (BM-DIG-14): infantry, archers, cavalry, monsters; kinds with none left out."""
    monsters = troops.total() - troops.army()
    parts = [(letter, n) for letter, n in (("I", troops.infantry), ("A", troops.archers), ("C", troops.cavalry),
                                          ("M", monsters)) if n]
    return " ".join(f"{letter}{n}" for letter, n in parts)


def _player_lines(s: BMState, pid: int, locale: str) -> list[str]:
    player = s.player(pid)
    if player is not None and player.status != "active":
        return [_t("board.left", locale, player=s.name(pid), race=race(getattr(player, "race", None), locale))]
    stock = s.stock.get(pid, Stock())
    stars = s.stars.get(pid, Stars())
    chosen = getattr(player, "race", None)
    lines = [_t("board.player", locale, player=s.name(pid),
                race=race(chosen, locale) if chosen else msg(f"{K}board.no_race"),
                stock=resources({r: stock.get(r) for r in RESOURCES}, locale), owned=stars.owned, spent=stars.spent,
                votes=CO.votes_of(s, pid) if chosen else 1,
                hand=len(s.hands.get(pid, [])), quest="yes" if pid in s.quests else "no")]
    heroes = [_t("board.hero", locale, n=h.number, region=region(h.region, locale), life=h.life)
              for h in s.heroes_of(pid)]
    if heroes:
        lines.append(_t("board.heroes", locale, heroes="; ".join(heroes)))
    if s.artifacts.get(pid):
        held = [card(a, locale) for a in s.artifacts[pid]]
        lines.append(_t("board.artifacts", locale, artifacts=and_list(held, locale)))
    return lines


def region_line(s: BMState, rid: str, locale: str) -> str:
    here = s.troops.get(rid, {})
    ruler = s.controller(rid)
    holders = [_t("board.controlled" if pid == ruler else "board.holder", locale, player=s.name(pid),
                  units=badge(here[pid])) for pid in s.present(rid)]
    if rid.startswith("H-") and not holders:
        owner = s.seat_of_race(rid[2:])
        holders = [_t("board.homeland", locale, player=s.name(owner))] if owner is not None else []
    city = s.cities.get(rid)
    occupier = s.occupied.get(rid)
    return _t("board.region", locale, region=region(rid, locale),
              holders=", ".join(holders) or _t("board.empty", locale),
              city=msg(f"{K}city.{city.kind}") if city else "none",
              occupied=s.name(occupier) if occupier is not None else "none")


def _effects(s: BMState, locale: str) -> list[str]:
    """The events' round-long effects in force (BM-DIG-2: events are public)."""
    e = s.effects
    counted = {"failed_harvest": max(1, e.halvings), "mana_storm": max(1, e.surcharge), "blizzard": 1}
    return [_t(f"board.effect.{name}", locale, value=value, n=counted[name])
            for name, value in (("failed_harvest", e.failed_harvest), ("mana_storm", e.mana_storm),
                                ("blizzard", e.blizzard)) if value]


def text_board(state: BMState, locale: str = "en") -> str:
    """The whole public position (BM-DIG-2, DIG-16): round, phase, turn, each player's race, resources, Stars,
    votes, hand size, heroes and artifacts, then every region in play with its units (the controller marked `*`),
    city and occupation. Never a hand's cards, a quest, a deck's order or a draft."""
    s = state
    lines = [_t("board.status", locale, round=s.round, phase=msg(f"{K}phase.{s.phase.value}"),
                active=s.name(s.active) if s.active is not None else "none")]
    if s.order:
        lines.append(_t("board.order", locale, order=" → ".join(s.name(p) for p in s.order)))
    lines.append(_t("board.pool", locale, n=s.star_pool))
    if s.winners:
        lines.append(_t("board.winners", locale, players=and_list([s.name(p) for p in s.winners], locale),
                        n=len(s.winners)))
    effects = _effects(s, locale)
    if effects:
        lines.append(_t("board.effects", locale, effects="; ".join(effects)))
    if s.events:
        lines.append(_t("board.events", locale, cards=and_list([card(c, locale) for c in s.events], locale)))
    b = s.combat.battle
    if b is not None:
        lines.append(_t("board.battle", locale, region=region(b.region, locale), attacker=s.name(b.attacker.player),
                        defender=s.name(b.defender.player), round=b.round))
    for p in s.players:
        lines += _player_lines(s, p.id, locale)
    lines += [region_line(s, rid, locale) for rid in s.regions]
    return "\n".join(lines)
