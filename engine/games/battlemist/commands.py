"""What the /bm commands mean: one action from a command's words, for the step the player is in now.

A command names a card, a unit count or "lock"; which action that is depends on the window or the step (a card
played in W-ECONSTART joins the player's draft of plays, in a battle it is a battle play …). The rules judge the
action; this module only builds it, so that the cog stays a thin layer.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from engine.core.controls import Choice, Control
from engine.core.errors import RuleError
from engine.core.i18n import msg, translate, words
from engine.core.models import Action, Decision, to_json
from engine.core.names import normalise
from engine.games.battlemist import (
    ai,
    combat,
    council,
    economy,
    legal,
    movement,
    names,
    quest,
    ruleset,
    text,
    upkeep,
    windows,
)
from engine.games.battlemist.data import ARMY, RESOURCES, load
from engine.games.battlemist.economy import EconOrders, EconPlay, EconStart, Line
from engine.games.battlemist.initiative import InitiativeMod
from engine.games.battlemist.phases import TURN
from engine.games.battlemist.state import BMState, Phase
from engine.games.battlemist.windows import when

QUEST_PLAYS = {"AC01": "great_haste", "AC11": "healing_herbs", "SP01": "healing_light", "SP09": "blink",
               "AC10": "inspired_hero"}
"""The quest step's cards and spells, by the action each is played with."""
PASSES = {"bm_prequest": "quest_pass", "bm_encounter_window": "quest_pass", "bm_duel_window": "quest_pass",
          "window_battlestart": "battle_pass", "window_rally": "battle_pass"}
"""The windows a player passes in with `/bm pass`, and the pass action of each."""


def decisions(state: BMState, pid: int) -> list[Decision]:
    return [d for d in ruleset.pending(state) if d.player == pid]


def _seat(state: BMState, pid: int) -> None:
    """Refuse a user who has no seat, or has left, before anything he typed is read (BM-VAL-0)."""
    if pid not in state.active_ids():
        raise RuleError("BM_E_NOT_IN_GAME")


def _hero(state: BMState, pid: int, hero: int | None) -> int:
    """The hero a quest play is for: the one named, or the player's only hero."""
    if hero is not None:
        return hero
    mine = sorted(h.number for h in state.heroes_of(pid))
    if len(mine) != 1:
        raise RuleError("BM_E_NAME_A_HERO", heroes=", ".join(map(str, mine)) or "—")
    return mine[0]


def play(state: BMState, pid: int, name: str, *, region: str | None = None, hero: int | None = None,
         unit: str | None = None, target: int | None = None) -> Action:
    """`/bm play` and `/bm cast`: the card or spell `name` (its id) in the window `pid` is in now; a W-INDIVIDUAL
    one (Spy, Far Sight) looks at the player `target`, by default the only other player left."""
    _seat(state, pid)
    cards = load().cards
    key = name.strip().upper()
    spell = cards.spell.get(key)
    card = cards.actions_by_id.get(key)
    known = spell or card
    if known is not None and known.window == "individual":
        aimed = target if target is not None else _only_rival(state, pid)
        if spell is not None:
            return windows.IndividualCast(player=pid, spell=key, target=aimed)
        return windows.IndividualPlay(player=pid, card=key, target=aimed)
    where = movement.resolve_region(region) if region else None
    phase = state.phase
    if phase is Phase.ECONSTART:
        plays = (*_start_draft(state, pid), EconPlay(card=key, region=where or ""))
        return EconStart(player=pid, plays=plays, lock=False)
    if phase is Phase.ORDERS:
        line: Line = economy.CastSpell(spell=key) if spell is not None else economy.PlayCard(card=key)
        return order_line(state, pid, line)
    if phase is Phase.QUEST and key in QUEST_PLAYS:
        kind = QUEST_PLAYS[key]
        data: dict[str, Any] = {"type": kind, "player": pid}
        if kind != "inspired_hero":
            data["hero"] = _hero(state, pid, hero)
        if kind == "blink":
            data["region"] = where or ""
        return ruleset.ACTION_ADAPTER.validate_python(data)  # type: ignore[no-any-return]
    if phase is Phase.MOVEMENT:
        if spell is not None:
            return movement.MoveCast(player=pid, spell=key, region=where)
        return movement.MovePlay(player=pid, card=key, region=where)
    if phase is Phase.COMBAT and state.combat.battle is not None:
        if spell is not None:
            army = movement.resolve_unit(unit) if unit else None
            return combat.BattleCast(player=pid, spell=key, unit=army if army in ARMY else None)  # type: ignore[arg-type]
        return combat.BattlePlay(player=pid, card=key)
    if spell is not None:
        raise RuleError("BM_E_SPELL_WINDOW", spell=names.card(key), window=when(spell.window))
    if key not in state.hands.get(pid, []) or card is None:
        raise RuleError("BM_E_CARD_NOT_IN_HAND", card=names.card_named(key))
    raise RuleError("BM_E_CARD_WINDOW", card=names.card_named(key), window=when(card.window))


def _only_rival(state: BMState, pid: int) -> int | None:
    """The one other player still in the game, if there is exactly one."""
    others = [p for p in state.active_ids() if p != pid]
    return others[0] if len(others) == 1 else None


def spy_reply(state: BMState, pid: int, action: Action, locale: str) -> str | None:
    """What `action`, a Spy or a Far Sight `pid` just played, showed him (the private reply to his command)."""
    if not isinstance(action, windows.IndividualPlay | windows.IndividualCast):
        return None
    seen = next((s for s in state.sightings.get(pid, []) if s.target == action.target), None)
    return None if seen is None else text.sighting(seen, state, locale)


def pass_(state: BMState, pid: int) -> Action:
    """`/bm pass`: let the window `pid` has open go by (W-ECONSTART: lock the plays drafted so far)."""
    _seat(state, pid)
    for d in decisions(state, pid):
        if d.kind in PASSES:
            return ruleset.ACTION_ADAPTER.validate_python(  # type: ignore[no-any-return]
                {"type": PASSES[d.kind], "player": pid})
        if d.kind == "econstart":
            return EconStart(player=pid, plays=_start_draft(state, pid), lock=True)
    raise RuleError("BM_E_NOTHING_TO_PASS")


def lock(state: BMState, pid: int) -> Action:
    """`/bm lock` (and the builder's Lock button): make `pid`'s draft of the current simultaneous step final."""
    _seat(state, pid)
    kinds = {d.kind for d in decisions(state, pid)}
    if "econstart" in kinds:
        return EconStart(player=pid, plays=_start_draft(state, pid), lock=True)
    if "econ_orders" in kinds:
        return EconOrders(player=pid, lines=draft_lines(state, pid), lock=True)
    if "upkeep" in kinds:
        plan = _upkeep_draft(state, pid)
        return upkeep.SubmitUpkeep(player=pid, trades=plan.trades, disband=plan.disband, lock=True)
    if "initiative" in kinds:
        ini = state.initiative
        change = ini.choices.drafts.get(pid, 0) if ini is not None else 0
        return InitiativeMod(player=pid, change=int(change), lock=True)
    raise RuleError("BM_E_NOTHING_TO_LOCK")


def _start_draft(state: BMState, pid: int) -> tuple[EconPlay, ...]:
    book = state.economy.start if state.economy is not None else None
    return tuple(book.drafts.get(pid, ())) if book is not None else ()


def draft_lines(state: BMState, pid: int) -> tuple[Line, ...]:
    """`pid`'s order draft as it stands (none yet: no lines)."""
    book = state.economy.orders if state.economy is not None else None
    return tuple(book.drafts.get(pid, ())) if book is not None else ()


def _upkeep_draft(state: BMState, pid: int) -> economy.UpkeepPlan:
    book = state.economy.upkeep if state.economy is not None else None
    plan = book.drafts.get(pid) if book is not None else None
    return plan if isinstance(plan, economy.UpkeepPlan) else economy.UpkeepPlan()


def order_line(state: BMState, pid: int, line: Line) -> EconOrders:
    """`pid`'s order draft with `line` added (not locked): `/bm orders recruit|build|hero|guild|merchant|…`."""
    _seat(state, pid)
    return EconOrders(player=pid, lines=(*draft_lines(state, pid), line))


def drop_line(state: BMState, pid: int, number: int | None) -> EconOrders:
    """`pid`'s order draft without its line `number` (1-based; None: the last one)."""
    _seat(state, pid)
    lines = draft_lines(state, pid)
    index = len(lines) if number is None else number
    if not 1 <= index <= len(lines):
        raise RuleError("BM_E_NO_SUCH_LINE", n=number if number is not None else 0, lines=len(lines))
    return EconOrders(player=pid, lines=(*lines[:index - 1], *lines[index:]))


def disband(state: BMState, pid: int, region: str, what: str, n: int) -> upkeep.SubmitUpkeep:
    """`/bm upkeep disband`: `pid`'s maintenance draft with one more disbanding (not confirmed)."""
    _seat(state, pid)
    plan = _upkeep_draft(state, pid)
    kind = "city" if normalise(what) in ("city", "cities") else movement.resolve_unit(what)
    if kind not in (*ARMY, "city"):
        raise RuleError("BM_E_UNKNOWN_UNIT", x=what)
    more = economy.Disband(region=movement.resolve_region(region), what=kind, n=n)  # type: ignore[arg-type]
    return upkeep.SubmitUpkeep(player=pid, trades=plan.trades, disband=(*plan.disband, more), lock=False)


def resource(text: str) -> str:
    """A resource typed by name in any of the bot's languages (`grain`, `Wood`, `Korn` …); BM_E_UNKNOWN_RESOURCE
    otherwise."""
    found = names.resource_by_name(text)
    if found is None:
        raise RuleError("BM_E_UNKNOWN_RESOURCE", x=text, resources=[names.resource(r) for r in RESOURCES])
    return found


AMOUNT = re.compile(r"(\d+)\s*[x×*]?\s*([^\d,;\s:]+)|([^\d,;\s:]+)\s*[:=x×*]\s*(\d+)")


def amounts(text: str, name: Any) -> dict[str, int]:
    """`2 grain 1 wood`, `grain:2, wood:1` or `2 inf 1 arch`: counts by name, each read by `name` (which raises
    a RuleError for an unknown word); every word must be a count and a name."""
    found: dict[str, int] = {}
    rest = text
    for m in AMOUNT.finditer(text):
        n, word = (m[1], m[2]) if m[1] else (m[4], m[3])
        key = name(word)
        found[key] = found.get(key, 0) + int(n)
        rest = rest.replace(m[0], " ", 1)
    if rest.strip(" ,;") or (not found and text.strip()):
        raise RuleError("BM_E_BAD_AMOUNTS", x=text)
    return found


def unit(word: str) -> str:
    kind = movement.resolve_unit(word)
    if kind is None:
        raise RuleError("BM_E_UNKNOWN_UNIT", x=word)
    return kind


def casualties(state: BMState, pid: int, kills: str, routs: str) -> combat.AssignCasualties:
    """`/bm battle casualties kills:<2 inf> routs:<1 arch>`."""
    _seat(state, pid)
    return combat.AssignCasualties(player=pid, kills=amounts(kills, unit),  # type: ignore[arg-type]
                                   routs=amounts(routs, unit))


def rally(state: BMState, pid: int, units: str) -> combat.RallyPick:
    _seat(state, pid)
    return combat.RallyPick(player=pid, units=amounts(units, unit))  # type: ignore[arg-type]


def casualty_order(state: BMState, pid: int, order: str) -> combat.CasualtyOrder:
    """`/bm battle standing order:<inf arch cav>`: the unit types in the order hits take them (BM-DIG-24)."""
    _seat(state, pid)
    return combat.CasualtyOrder(player=pid, order=[unit(w) for w in order.replace(",", " ").split()])  # type: ignore[misc]


def vote(state: BMState, pid: int, commit: bool) -> council.Vote:
    _seat(state, pid)
    return council.Vote(player=pid, commit=commit)


def quest_target(state: BMState, pid: int, monster: int) -> quest.EncounterTarget:
    """`/bm quest target <n>`: the n-th monster of the encounter as the board lists them, counted from 1."""
    _seat(state, pid)
    return quest.EncounterTarget(player=pid, foe=monster - 1)


def region_id(text: str) -> str:
    return movement.resolve_region(text)


def race_id(text: str) -> str:
    """The race typed as `text` (`/bm race`): its id in any case or its name in any of the bot's languages; as it
    was typed when it is none, for the rules to refuse."""
    return names.race_by_name(text) or text.strip()


def initiative(state: BMState, pid: int, change: str) -> InitiativeMod:
    """`/bm initiative add|sub|keep`: ± the player's k (his large cities), locked."""
    _seat(state, pid)
    ini = state.initiative
    k = ini.large.get(pid, 0) if ini is not None else 0
    return InitiativeMod(player=pid, change={"add": k, "sub": -k}.get(change, 0), lock=True)


def trade_offer(state: BMState, pid: int, to: int, give: str, get: str) -> economy.TradeOffer:
    _seat(state, pid)
    return economy.TradeOffer(player=pid, to=to, give=amounts(give, resource), get=amounts(get, resource))


def upkeep_trade(state: BMState, pid: int, give: str, amount: int, get: str) -> upkeep.SubmitUpkeep:
    """`/bm upkeep trade`: `pid`'s maintenance draft with one more merchant trade (not confirmed)."""
    _seat(state, pid)
    plan = _upkeep_draft(state, pid)
    more = economy.Merchant(give=resource(give), amount=amount, get=resource(get))  # type: ignore[arg-type]
    return upkeep.SubmitUpkeep(player=pid, trades=(*plan.trades, more), disband=plan.disband, lock=False)


def path(text: str) -> list[str]:
    """A path typed as region ids or names, separated by spaces or commas (BM-DIG-12)."""
    hops = [w for w in re.split(r"[\s,>→-]+", text) if w]
    try:
        return [movement.resolve_region(w) for w in hops]
    except RuleError:
        if len(hops) == 1:
            raise
        return [movement.resolve_region(w) for w in re.split(r"[,>→]+", text) if w.strip()]


def hero_move(state: BMState, pid: int, hero: int, route: str) -> quest.HeroMove:
    _seat(state, pid)
    return quest.HeroMove(player=pid, hero=hero, path=path(route))


def move(state: BMState, pid: int, n: int, kind: str, origin: str, route: str) -> movement.Move:
    """`/bm move 2 cav N20 N11 N03`."""
    _seat(state, pid)
    return movement.Move(player=pid, n=n, unit=unit(kind), origin=movement.resolve_region(origin),  # type: ignore[arg-type]
                         path=tuple(path(route)))


def battle(state: BMState, pid: int, region: str) -> combat.ChooseBattle:
    _seat(state, pid)
    return combat.ChooseBattle(player=pid, region=movement.resolve_region(region))


def duel_choices(state: BMState, pid: int) -> list[Choice]:
    """The duels `pid` may declare now, as autocomplete offers them (`hero:defender:target`)."""
    found = []
    for d in decisions(state, pid):
        for o in d.detail.get("duels", []) if d.kind == "bm_duels" else []:
            found.append(Choice(f"{o['hero']}:{o['defender']}:{o['target']}",
                                msg("bm.choice.duel", hero=o["hero"], player=state.name(o["defender"]),
                                    target=o["target"])))
    return found


def duel(state: BMState, pid: int, text: str) -> quest.DuelHero:
    _seat(state, pid)
    found = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*:\s*(\d+)\s*", text)
    if found is None:
        raise RuleError("BM_E_DUEL_CHOICE", x=text)
    return quest.DuelHero(player=pid, hero=int(found[1]), defender=int(found[2]), target=int(found[3]))


def quest_done(state: BMState, pid: int) -> Action:
    """`/bm quest done`: end the heroes' movement, or the duels (the quest step)."""
    _seat(state, pid)
    kinds = {d.kind for d in decisions(state, pid)}
    if "bm_duels" in kinds:
        return quest.EndQuest(player=pid)
    return quest.EndHeroes(player=pid)


# ---------------------------------------------------------------- the private panel


SIMULTANEOUS = frozenset({"econstart", "econ_orders", "upkeep", "initiative", "plague_losses", "uprising_payment",
                          "trade_offer"})
"""Decisions several seats take at once: the others acting does not change what a player's panel offers."""


def moment(state: BMState, pid: int) -> str:
    """What a panel's controls were offered for: the round, the step, the player's decisions and drafts, and, when
    he decides alone, the move number. A click is played only at the same moment, so a second click (or one on
    an old panel) never applies twice."""
    ds = decisions(state, pid)
    parts: list[Any] = [state.round, state.phase.value, [(d.kind, to_json(d.detail)) for d in ds]]
    eco = state.economy
    books = [eco.start, eco.orders, eco.upkeep] if eco is not None else []
    if state.initiative is not None:
        books.append(state.initiative.choices)
    if state.council is not None and state.council.choices is not None:
        books.append(state.council.choices)
    parts.append([to_json(book.drafts.get(pid)) for book in books if book is not None])
    if not ds or any(d.kind not in SIMULTANEOUS for d in ds):
        parts.append(state.seq)
    return digest(parts)


def digest(data: Any) -> str:
    """A short fingerprint of an action (or of a moment) for a component's custom id."""
    blob = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.blake2s(blob.encode(), digest_size=4).hexdigest()


def offered(state: BMState, pid: int, controls: list[Control], at: str, index: int, option: int | None,
            fingerprint: str) -> dict[str, Any] | None:
    """The action of control `index` (option `option` of a menu) if `pid`'s moment is still `at` and the control
    is still the action of `fingerprint`; None when the game moved on."""
    if moment(state, pid) != at or not 0 <= index < len(controls):
        return None
    control = controls[index]
    if option is not None:
        if not control.options or not 0 <= option < len(control.options):
            return None
        control = control.options[option]
    elif control.options:
        return None
    return dict(control.action) if digest(control.action) == fingerprint else None


def data(action: Action) -> dict[str, Any]:
    """An action as the service takes it from a command: its fields without the player (the user is)."""
    return {k: v for k, v in to_json(action).items() if k != "player"}


def private_lines(state: BMState, pid: int, locale: str) -> list[str]:
    """A player's panel: what he must decide now, his drafts (only he sees them), his hand and Star power."""
    lines = [translate("bm.panel.title", locale, round=state.round, phase=msg(f"bm.text.phase.{state.phase.value}"))]
    ds = decisions(state, pid)
    lines += ["• " + text.prompt(d, state, locale) for d in ds]
    kinds = {d.kind for d in ds}
    if "econ_orders" in kinds:
        draft = draft_lines(state, pid)
        lines.append(translate("bm.panel.orders", locale, n=len(draft)))
        lines += [f"{k}. {translate(m.key, locale, **m.params)}" for k, m in
                  enumerate((legal.line_label(line) for line in draft), 1)]
        lines.append(translate("bm.panel.after", locale,
                               stock=text.resources(ai.stock_after(state, pid, draft), locale)))
    if "econstart" in kinds:
        plays = _start_draft(state, pid)
        lines.append(translate("bm.panel.plays", locale, plays=", ".join(
            f"{words(names.card_named(p.card), locale)} → {words(names.region(p.region), locale)}" for p in plays)
            or "—"))
    if "upkeep" in kinds:
        plan = _upkeep_draft(state, pid)
        lines.append(translate("bm.panel.upkeep", locale, disband=", ".join(
            f"{_disbanded(d, locale)} ({d.region})" for d in plan.disband) or "—", trades=len(plan.trades)))
    return lines + hand_lines(state, pid, locale)


def _disbanded(order: economy.Disband, locale: str) -> str:
    """A line of a maintenance draft: `2 archers`, or `1 city` (the steps a city is taken down)."""
    if order.what == "city":
        return f"{order.n} {translate('bm.text.city.city', locale)}"
    return words(names.units(order.what, order.n), locale)


def hand_lines(state: BMState, pid: int, locale: str) -> list[str]:
    """`/bm hand`: the player's action cards with their windows, his Star power, his quest and what his Spies and
    Far Sights showed him (BM-DIG-3)."""
    _seat(state, pid)
    cards = load().cards.actions_by_id
    hand = state.hands.get(pid, [])
    shown = [words(names.card_named(c), locale) + (f": {words(when(cards[c].window), locale)}" if c in cards else "")
             for c in hand]
    stars = state.stars[pid]
    return [translate("bm.hand.cards", locale, n=len(hand), cards="; ".join(shown) or "—"),
            translate("bm.hand.stars", locale, owned=stars.owned, spent=stars.spent, power=stars.power),
            quest_line(state, pid, locale), *(text.sighting(s, state, locale) for s in state.sightings.get(pid, []))]


def quest_line(state: BMState, pid: int, locale: str) -> str:
    """`/bm quest show`: the player's current quest card, or that he has none (BM-DIG-3)."""
    _seat(state, pid)
    card = state.quests.get(pid)
    if card is None:
        return translate("bm.hand.no_quest", locale)
    found = load().quests.adventure.get(card)
    return translate("bm.hand.quest", locale, card=card, target=text.region(found.target if found else None, locale))


def region_text(state: BMState, region: str, locale: str) -> str:
    """`/bm region`: the public facts of one region (BM-DIG-2)."""
    rid = movement.resolve_region(region)
    if rid not in state.regions:
        raise RuleError("BM_E_VOID_HEX", x=rid)
    place = load().map.by_id[rid]
    yields = text.resources(economy.region_income(state, rid), locale)
    return "\n".join([text.region_line(state, rid, locale),
                      translate("bm.region.facts", locale, terrain=names.terrain(place.terrain), income=yields)])


WINDOWS = {"econstart": "econstart", "econ_orders": "econorders", "bm_prequest": "prequest",
           "bm_hero_moves": "quest", "bm_duels": "quest", "bm_encounter_window": "encounter",
           "bm_duel_window": "encounter", "window_battlestart": "battlestart", "window_rally": "rally"}
"""The timing window each decision holds open for its seat (the movement step's is W-MOVESTART until the first
move order)."""


def open_windows(state: BMState, pid: int) -> set[str]:
    """The windows `pid` may play or cast in now: those his decisions hold open, and W-INDIVIDUAL all through his
    own turn (BM-WIN-1)."""
    found = {WINDOWS[d.kind] for d in decisions(state, pid) if d.kind in WINDOWS}
    step = state.movement
    if step is not None and step.opening and any(d.kind == "move" for d in decisions(state, pid)):
        found.add("movestart")
    if state.phase in TURN and state.active == pid:
        found.add("individual")
    return found


def playable(state: BMState, pid: int, spells: bool) -> list[Choice]:
    """`/bm play` and `/bm cast` autocomplete: the cards in `pid`'s hand, or the spells his Star power pays
    for (Mana Storm included), whose window is open for him now."""
    if pid not in state.active_ids():
        return []
    open_now = open_windows(state, pid)
    cards = load().cards
    if spells:
        if state.effects.mana_storm == "none":
            return []
        power = state.stars[pid].power
        return [Choice(s.id, msg("bm.term.spell_cost", spell=names.card_named(s.id), cost=windows.cost(state, s)))
                for s in cards.spells if s.window in open_now and windows.cost(state, s) <= power]
    held = dict.fromkeys(state.hands.get(pid, []))
    return [Choice(c, msg("choice.name", name=names.card_named(c))) for c in held
            if c in cards.actions_by_id and cards.actions_by_id[c].window in open_now]
