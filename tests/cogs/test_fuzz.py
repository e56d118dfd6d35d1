"""Fuzz through real dispatch: random option values for every slash command in the tree, random custom ids for
every button and menu template, in a Risk game and a Wizard's Quest game at several steps. The bot never crashes,
always answers, refuses privately with "⚠️", and a refusal leaves the database byte-for-byte as it was."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from bot import GameMasterBot, Settings
from cogs.wizards_quest import wq as wq_glue
from engine.core.models import from_json, to_json
from engine.games.risk import RiskState
from engine.games.risk.mapdata import classic
from engine.games.risk.state import Phase
from engine.games.wizards_quest import RULESET, WQState
from engine.games.wizards_quest.rules import STEP_ACTIONS, TODO_ACTIONS
from engine.games.wizards_quest.state import Attack, Todo, Treasure
from engine.games.wizards_quest.state import Phase as WQPhase
from tests.cogs.conftest import Stored, put_state, restore, start_game, state_of, stored, uid
from tests.cogs.test_wizards_quest import advance
from tests.cogs.test_wizards_quest import scenario as wq_scenario
from tests.discord.harness import DispatchHarness, InteractionResult
from tests.discord.payloads import (
    FLAG_EPHEMERAL,
    action_row,
    button_component,
    message,
    string_select_component,
    user,
)

T = TypeVar("T")
BOARD = classic()
FUZZ = settings(max_examples=200, deadline=None, derandomize=True, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""Derandomized, so CI runs the same examples every time; shrinking still works on a failure."""

OTHER_GAMES = ["Great Tunnel", "Dragon's Lair", "Wizard's Tower", "Mistwood", "Nataterra", "Battlemist"]
ODD_TEXT = ["", " ", "\t\n", "x" * 3000, "‮aksalA", "ألاسكا", "אלסקה", "Аляска", "알래스카", "🐉🏰⚔️", "\u200b",
            "alaska'; DROP TABLE games;--", "@everyone", "<@1>", "<#1>", "-1", "1e9", "NaN", "0x10", "٣"]
WQ = RULESET.data
WQ_NAMES = [*WQ.map.ids, *WQ.map.castle_name.values(), *WQ.deck.instances,
            *sorted({WQ.deck.card(c).name for c in WQ.deck.instances}), "3-6", "c7", "r3t6", "3 1", "west", "C9",
            "7.1", "3.", "hero", "sorcerer", "dragon", "mage", "crown", "decoy", "1:crown", "3.2:4 C7:3", "3.1:0",
            "3.1=99999999999999999999", "wizards-quest"]
"""Wizard's Quest locations, cards and pieces; to a Risk game they are names from another game, and Risk's to it."""
NAMES = [*BOARD.ids, *(t.name for t in BOARD.territory.values()), *OTHER_GAMES, *ODD_TEXT, *WQ_NAMES,
         "wild_1", "alas", "ALASKA", "eastern canada", "risk", "chess", "draw", "map", "text", "red"]
TEXT = st.one_of(st.sampled_from(NAMES),
                 st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=60))
INTS = st.one_of(st.integers(-3, 12), st.sampled_from([10_000, 10_001, 2**31, 2**53 + 1, 2**63, -(2**63), 10**30]))
FLOATS = st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                   st.sampled_from([0.0, 0.049, 0.05, 1.0, 168.0, 168.01, -1.0, 1e308, 5e-324]))
ARGS = st.one_of(st.sampled_from([*BOARD.ids[:6], "0", "1", "2", "3", "6", "7", "99", "zz_top", "great_tunnel",
                                  "leader", "hero"]),
                 st.from_regex(r"[a-z_0-9]{1,12}", fullmatch=True))
AID = ["3.4:4", "3.4:1", "3.4:0", "3.4:-1", "3.4", "3.4:", ":4", "", "3.4:x", "3.4:4:4", "C3:1", "alaska:1",
       "3.4:99999999999999999999", "3.4:٣", "3-4:2", "3.2:1", "6.6:1"]
"""Values for the Wizard's Quest aid menu: `location:men` as offered, and what a forged payload could send."""


@dataclass
class Table:
    """One bot, one fake Discord and one event loop shared by every example; each example restores the database."""

    loop: asyncio.AbstractEventLoop
    h: DispatchHarness
    commands: list[app_commands.Command[Any, ..., Any]] = field(default_factory=list)
    wq_commands: list[app_commands.Command[Any, ..., Any]] = field(default_factory=list)
    saved: dict[str, Stored] = field(default_factory=dict)
    seq: dict[str, int] = field(default_factory=dict)
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per phase, the member whose decision is pending: a third of the examples act as them."""
    people: list[dict[str, Any]] = field(default_factory=list)
    channels: dict[str, dict[str, Any]] = field(default_factory=dict)
    game_ids: list[int] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    wq_names: list[str] = field(default_factory=list)
    """Names that fit the Wizard's Quest positions: their locations, cards and treasures to hide."""
    fitting: dict[str, list[str]] = field(default_factory=dict)
    """Per Wizard's Quest step, the /wq commands its rules accept now."""
    offered: dict[str, list[str]] = field(default_factory=dict)
    """Per Wizard's Quest step, the custom ids of the buttons and menu the bot offers there."""

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)


def scenario(base: RiskState, phase: Phase, **changes: Any) -> RiskState:
    """A position for the game's real seats: territories dealt round-robin, 3 armies each, the first seat to play."""
    ids = [p.id for p in base.players]
    owner = {t: ids[k % len(ids)] for k, t in enumerate(BOARD.ids)}
    update: dict[str, Any] = {"phase": phase, "turn": 1, "current": ids[0], "owner": owner,
                              "armies": {t: 3 for t in BOARD.ids}, "setup_left": {}, "pool": 0,
                              "hands": {p: [] for p in ids}, **changes}
    held = {c for cards in update["hands"].values() for c in cards}
    update["deck"] = [c for c in [*BOARD.ids, "wild_1", "wild_2"] if c not in held]
    return from_json(RiskState, to_json(replace(base, **update)))


async def build(table: Table) -> None:
    """A four-seat secret-mission game in #general in several phases, a two-player game next door, a three-seat
    Wizard's Quest game in #wq in several steps, and a quiet channel; the people who may press anything."""
    h = table.h
    world = h.world
    elsewhere, quiet, wq = world.add_channel("elsewhere"), world.add_channel("quiet"), world.add_channel("wq")
    table.channels = {"game": world.channel, "elsewhere": elsewhere, "quiet": quiet, "wq": wq}
    members = await start_game(h, "Ada", "Bo", "Cy", "Di", mode="secret_mission", defender_dice="choose")
    questers = [h.add_member(name) for name in ("Wil", "Xan", "Yul")]
    await h.slash("new", "wizards-quest", user=questers[0], channel=wq)
    for quester in questers[1:]:
        await h.slash("game", "join", user=quester, channel=wq)
    await h.slash("game", "start", user=questers[0], channel=wq)
    eve, fay = h.add_member("Eve"), h.add_member("Fay")
    await h.slash("new", "risk", options={"mode": "two_player", "setup": "random_deal"}, user=eve,
                  channel=elsewhere)
    await h.slash("game", "join", user=fay, channel=elsewhere)
    await h.slash("game", "start", user=eve, channel=elsewhere)
    mod_role = world.add_role("Mods", permissions=discord.Permissions(manage_channels=True).value)
    mod = h.add_member("Mo", roles=[mod_role])
    table.people = [*members, *questers, eve, h.add_member("Stranger"), mod, world.owner,
                    user("Nobody Here"), user("Other Bot", bot=True), world.bot_user]
    service = h.bot.service  # type: ignore[attr-defined]
    table.game_ids = [(await service.store.live_game(int(c["id"]))).id for c in (world.channel, elsewhere, wq)]

    base = await state_of(h)
    seated = {uid(m): m for m in members}
    table.saved["setup"], table.seq["setup"], table.pending["setup"] = await stored(h), base.seq, seated[base.current]
    first = base.players[0].id
    mine = [t for t in BOARD.ids if scenario(base, Phase.ATTACK).owner[t] == first]
    table.hand = [mine[0], mine[1], "wild_1"]
    hands = {p.id: [] for p in base.players} | {first: table.hand}
    for name, phase, extra in (("reinforce", Phase.REINFORCE, {"pool": 5}), ("attack", Phase.ATTACK, {})):
        await put_state(h, scenario(base, phase, hands=hands, **extra))
        table.saved[name], table.seq[name], table.pending[name] = await stored(h), (await state_of(h)).seq, \
            seated[first]
    attack = scenario(base, Phase.ATTACK, hands=hands)
    source, target = next((t, n) for t in mine for n in BOARD.neighbours[t] if attack.owner[n] != first)
    await put_state(h, replace(attack, armies={**attack.armies, source: 10}))
    await h.slash("risk", "attack", options={"source": source, "target": target}, user=seated[first])
    defending = await state_of(h)
    assert defending.interrupt is not None and defending.interrupt.kind == "defend"
    table.saved["defend"], table.seq["defend"] = await stored(h), defending.seq
    table.pending["defend"] = seated[defending.interrupt.defender or 0]
    await wizards_quest_steps(table, {uid(m): m for m in questers})
    table.commands = sorted((c for c in h.bot.tree.walk_commands() if isinstance(c, app_commands.Command)),
                            key=lambda c: c.qualified_name)
    table.wq_commands = [c for c in table.commands if c.qualified_name.startswith("wq ")]
    assert all(table.offered[phase] for phase in ("wq-battle", "wq-capture", "wq-region")), table.offered


async def wizards_quest_steps(table: Table, seated: dict[int, dict[str, Any]]) -> None:
    """The Wizard's Quest game as started (castles), then put in its later steps by hand (the log stays the
    start, which replays): hiding, petition, reinforcement, a battle, a capture with the Ring, a region to choose."""
    h, wq = table.h, table.channels["wq"]
    base = await state_of(h, WQState, wq)
    first, second, _ = (p.id for p in base.players)
    board: dict[str, Any] = {
        "owner": {"3.1": first, "3.4": first, "3.2": second}, "men": {"3.1": 6, "3.4": 5, "3.2": 2},
        "hero": {first: "3.1"}, "sorcerer": {first: "3.4"}, "orcs": {"4.1": 3}, "dragon": "1.4", "mage": "5.2",
        "hands": {first: ["levy-1", "orcbane-2"]}, "boats": {first: ["fair_winds-1"]},
        "treasures": [Treasure(owner=first, kind="ring", hider=second, location="3.5")]}
    attack = RULESET.parse_action({"type": "attack", "source": "3.1", "target": "3.2", "player": first})
    battle, _ = RULESET.apply(wq_scenario(base, **board), attack)  # unlogged, like put_state
    assert isinstance(battle, WQState)
    emptied = Attack(kind="campaign", source="3.4", target="3.5", empty_start=True)
    steps: dict[str, WQState] = {
        "wq-setup": base, "wq-hide": advance(base, WQPhase.SETUP_HIDE),
        "wq-petition": wq_scenario(base, phase=WQPhase.PETITION, **board),
        "wq-reinforce": wq_scenario(base, phase=WQPhase.REINFORCE, pool=5, **board),
        "wq-battle": battle,
        "wq-capture": wq_scenario(base, **board, attack=emptied, todo=[Todo(kind="capture")]),
        "wq-region": wq_scenario(base, **{**board, "dragon": None}, todo=[Todo(kind="region", beast="dragon")]),
    }
    hidden = [f"{t.owner}:{t.kind}" for t in steps["wq-hide"].treasures if t.location is None]
    table.wq_names = ["3.1", "3.2", "3.4", "3.5", "4.1", "1.4", "C3", "moorhold", "levy", "orcbane-2", *hidden,
                      "fair_winds-1", "muster-1"]
    for name, state in steps.items():
        await put_state(h, state, channel=wq)
        table.saved[name], table.seq[name] = await stored(h), state.seq
        table.pending[name] = seated[RULESET.pending(state)[0].player]
        table.fitting[name] = sorted(TODO_ACTIONS[state.todo[0].kind] if state.todo else STEP_ACTIONS[state.phase])
        view = wq_glue.controls(state, [], "en")
        table.offered[name] = [item.custom_id for item in view.children] if view else []  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def table() -> Iterator[Table]:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)  # earlier async tests may have left the thread with no current loop
    with tempfile.TemporaryDirectory() as tmp:
        bot = GameMasterBot(Settings(database_path=Path(tmp) / "bot.sqlite3", discord_token=None,
                                     rate_limit_per_minute=100_000, rate_limit_burst=1000))  # not the limiter
        h = DispatchHarness(bot, setup_hook=True)
        made = Table(loop, h)
        made.run(h.__aenter__())
        try:
            made.run(build(made))
            yield made
        finally:
            made.run(h.__aexit__(None, None, None))
            made.run(bot.close())
            leftover = asyncio.all_tasks(loop)
            for task in leftover:
                task.cancel()
            if leftover:  # gather() of nothing would belong to another loop
                loop.run_until_complete(asyncio.gather(*leftover, return_exceptions=True))
            loop.close()
            asyncio.set_event_loop(None)


# ---------------------------------------------------------------- values


def right_values(param: app_commands.Parameter, people: list[dict[str, Any]],
                 text: st.SearchStrategy[str] = TEXT) -> st.SearchStrategy[Any]:
    """Values of the declared type, in and out of the declared range or choices; strings from `text`."""
    kind = param.type
    if param.choices:
        return st.one_of(st.sampled_from([c.value for c in param.choices]), TEXT)
    if kind is discord.AppCommandOptionType.integer:
        return INTS
    if kind is discord.AppCommandOptionType.number:
        return st.one_of(FLOATS, INTS.map(float))
    if kind is discord.AppCommandOptionType.boolean:
        return st.booleans()
    if kind is discord.AppCommandOptionType.user:
        return st.sampled_from(people)
    return text


def any_value(table: Table) -> st.SearchStrategy[Any]:
    """A value of any option type: a string, number, boolean, user or channel."""
    return st.one_of(TEXT, INTS, FLOATS, st.booleans(), st.sampled_from(table.people),
                     st.sampled_from(list(table.channels.values())))


def actors(table: Table, phase: str) -> st.SearchStrategy[dict[str, Any]]:
    """Anyone at all, but the pending player a third of the time, so that legal actions happen too."""
    return st.one_of(st.sampled_from(table.people), st.sampled_from(table.people), st.just(table.pending[phase]))


@st.composite
def options_for(draw: st.DrawFn, command: app_commands.Command[Any, ..., Any], table: Table,
                text: st.SearchStrategy[str] = TEXT) -> dict[str, Any]:
    """Every required option and some optional ones; now and then a value of the wrong option type."""
    options: dict[str, Any] = {}
    for param in command.parameters:
        if not param.required and not draw(st.booleans()):
            continue
        wrong = draw(st.integers(0, 4)) == 0
        options[param.display_name] = draw(any_value(table) if wrong else right_values(param, table.people, text))
    return options


# ---------------------------------------------------------------- the properties


async def check(table: Table, saved: Stored, payload: dict[str, Any], *, answered: bool = True) -> InteractionResult:
    """Dispatch `payload` on the saved position; the harness fails on any exception the bot raises or logs."""
    h = table.h
    await restore(h, saved)
    before = await stored(h)
    result = await h.interact(payload)
    after = await stored(h)
    if not answered:  # item 21 of #13: Discord would say "This interaction failed"; the bot says why, privately
        assert result.ephemeral and "older version of the bot" in result.content, "an unclaimed custom id"
        assert after == before, "an unclaimed custom id changed the game"
        return result
    assert result.record.callback_types, f"no answer; requests: {result.requests}"
    shown = [m for m in result.messages if (m.content or m.files) and not m.deleted]
    assert shown or result.posts or result.callback_type == 7, "the answer is empty"
    too_long = [m.content[:80] for m in [*result.messages, *result.channel_messages] if len(m.content) > 2000]
    assert not too_long, f"Discord refuses messages over 2000 characters: {too_long}"
    for sent in result.messages:
        if sent.content.startswith("⚠️"):
            assert sent.ephemeral, f"a public error: {sent.content!r}"
            assert after == before, f"the game changed after the error {sent.content!r}"
            assert not result.channel_messages, f"narration after the error {sent.content!r}"
    if after != before:
        assert not any(m.content.startswith("⚠️") for m in result.messages)
    refused = any(m.content.startswith("⚠️") for m in result.messages)
    event("refused" if refused else "changed the game" if after != before else "answered, nothing changed")
    return result


PHASES = ("setup", "reinforce", "attack", "defend")
WQ_PHASES = ("wq-setup", "wq-hide", "wq-petition", "wq-reinforce", "wq-battle", "wq-capture", "wq-region")


def slash(table: Table, command: app_commands.Command[Any, ..., Any], options: dict[str, Any],
          actor: dict[str, Any], channel: dict[str, Any]) -> dict[str, Any]:
    """The interaction payload of `/command options…` sent by `actor` in `channel`."""
    path = command.qualified_name.split()
    return table.h.world.slash(*path, options=options, user=actor, channel=channel,
                               guild_command=table.h._is_guild_command(path[0]))


@FUZZ
@given(data=st.data())
def test_fuzz_every_slash_command_during_a_game(table: Table, data: st.DataObject) -> None:
    phase = data.draw(st.sampled_from(PHASES), label="phase")
    command = data.draw(st.sampled_from(table.commands), label="command")
    options = data.draw(options_for(command, table), label="options")
    actor = data.draw(actors(table, phase), label="actor")
    channel = data.draw(st.sampled_from([table.channels["game"]] * 3 + [table.channels["elsewhere"]]),
                        label="channel")
    note(command.qualified_name)
    table.run(check(table, table.saved[phase], slash(table, command, options, actor, channel)))


@settings(FUZZ, max_examples=250)
@given(data=st.data())
def test_fuzz_every_slash_command_during_a_wizards_quest_game(table: Table, data: st.DataObject) -> None:
    """A /wq command the step accepts, any /wq command or any command at all, mostly in the Wizard's Quest
    channel, at each of its steps; the pending player half the time."""
    phase = data.draw(st.sampled_from(WQ_PHASES), label="phase")
    fitting = [c for c in table.wq_commands if c.name in table.fitting[phase]]
    command = data.draw(st.one_of(st.sampled_from(fitting), st.sampled_from(table.wq_commands),
                                  st.sampled_from(table.commands)), label="command")
    text = st.one_of(st.sampled_from(table.wq_names), TEXT)
    options = data.draw(options_for(command, table, text), label="options")
    actor = data.draw(st.one_of(st.sampled_from(table.people), st.just(table.pending[phase])), label="actor")
    channel = data.draw(st.sampled_from([table.channels["wq"]] * 3 + [table.channels["game"]]), label="channel")
    note(command.qualified_name)
    table.run(check(table, table.saved[phase], slash(table, command, options, actor, channel)))


@settings(FUZZ, max_examples=60)
@given(data=st.data())
def test_fuzz_every_slash_command_in_a_channel_without_a_game(table: Table, data: st.DataObject) -> None:
    command = data.draw(st.sampled_from(table.commands), label="command")
    options = data.draw(options_for(command, table), label="options")
    actor = data.draw(st.sampled_from(table.people), label="actor")
    result = table.run(check(table, table.saved["setup"], slash(table, command, options, actor,
                                                                table.channels["quiet"])))
    if command.qualified_name not in ("game new", "risk help", "wq help", "stats"):
        assert result.content.startswith("⚠️"), f"/{command.qualified_name} did something without a game"


RISK_VERBS = ["again", "blitz", "stop", "move", "defend", "endturn", "resign", "keep"]
WQ_VERBS = ["roll", "roll3", "rollall", "rollsafe", "stop", "cancel", "capture", "region", "mage", "end", "aid", "hide"]


@st.composite
def custom_ids(draw: st.DrawFn, table: Table, phase: str) -> str:
    """Ids matching the bot's templates, with real, stale, foreign and absurd numbers, and near misses; mostly
    the templates of the game being played, sometimes the other game's."""
    now = table.seq[phase]
    seq = draw(st.one_of(st.just(now), st.sampled_from([now + 1, max(0, now - 1)]), st.integers(0, 10**20)))
    game = draw(st.one_of(st.sampled_from(table.game_ids), st.integers(0, 10**20)))
    tail = "".join(f":{a}" for a in draw(st.lists(ARGS, max_size=2)))
    risk = [f"risk:{draw(st.sampled_from(RISK_VERBS))}:{seq}{tail}", f"risk:trade:{seq}{tail[:20]}"]
    wq = [f"wq:{draw(st.sampled_from(WQ_VERBS))}:{seq}{tail}", f"wq:aid:{seq}{tail[:8]}"]
    own, other = (wq, risk) if phase in WQ_PHASES else (risk, wq)
    if table.offered.get(phase) and draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(table.offered[phase]))
    made = draw(st.sampled_from([
        *own, *own, *other,
        f"history:{game}:{draw(st.integers(0, 10**6))}:{draw(st.sampled_from(['older', 'newer']))}",
        f"game:abandon:{game}:{draw(st.sampled_from(['yes', 'no']))}",
        f"game:resign:{game}:{draw(st.sampled_from(['yes', 'no']))}",
    ]))
    mangle = draw(st.sampled_from(["", "", "", "upper", "suffix", "cut", "minus", "digits"]))
    if mangle == "upper":
        return made.upper()
    if mangle == "suffix":
        return made + draw(st.sampled_from([":", ":x", ":1:2:3", " ", "🐉"]))
    if mangle == "cut":
        return made.rsplit(":", 1)[0]
    if mangle == "minus":
        return made.replace(str(seq), f"-{seq}", 1)
    if mangle == "digits":
        return made.replace(str(seq), "١٢", 1)  # \d matches these too
    return made


def press(table: Table, data: st.DataObject, phase: str, home: str) -> None:
    """Press a drawn button, or choose drawn values in a drawn menu, mostly in the `home` channel, at `phase`."""
    custom_id = data.draw(custom_ids(table, phase), label="custom_id")
    actor = data.draw(actors(table, phase), label="actor")
    channel = data.draw(st.sampled_from([table.channels[home]] * 3 + list(table.channels.values())),
                        label="channel")
    h = table.h
    menus = {"risk:trade": ([*table.hand, "wild_2", "alaska", "Great Tunnel", ""], 3), "wq:aid": (AID, 1)}
    menu = next((m for prefix, m in menus.items() if custom_id.startswith(prefix)), None)
    if menu is not None:
        offered, size = menu
        values = data.draw(st.lists(st.sampled_from(offered), max_size=size + 1), label="values")
        component = string_select_component(custom_id, sorted(set(offered)), min_values=size, max_values=size)
    else:
        values = None
        component = button_component(custom_id, "Press")
    shown = message(channel["id"], author=h.world.bot_user, components=[action_row(component)],
                    flags=data.draw(st.sampled_from([0, FLAG_EPHEMERAL])), guild_id=h.world.guild_id,
                    application_id=h.world.app_id)
    store = h.bot._connection._view_store
    claimed = any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items)
    payload = h.world.component(custom_id, message=shown, values=values, user=actor)
    table.run(check(table, table.saved[phase], payload, answered=claimed))


@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_fuzz_buttons_and_menus(table: Table, data: st.DataObject) -> None:
    press(table, data, data.draw(st.sampled_from(PHASES), label="phase"), "game")


@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_fuzz_wizards_quest_buttons_and_menus(table: Table, data: st.DataObject) -> None:
    press(table, data, data.draw(st.sampled_from(WQ_PHASES), label="phase"), "wq")
