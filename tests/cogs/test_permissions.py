"""Who may do what: every command and the main buttons, tried by every kind of member, against a table written
out as data. A refusal is a private "⚠️" with a permission message and changes nothing; "yes" means not refused
for a permission reason (a rule may still refuse, e.g. the wrong phase); "other" means refused, whoever asks,
because the channel plays the other game (a rule reason, not a permission)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

import discord
import pytest
from discord import app_commands

from engine.core.models import GameState, from_json, to_json
from engine.games.risk import RiskState
from engine.games.risk.mapdata import classic
from engine.games.risk.state import Phase
from engine.games.wizards_quest import RULESET, WQState
from tests.cogs.conftest import Stored, put_state, restore, start_game, state_of, stored, uid
from tests.cogs.test_wizards_quest import scenario
from tests.discord.harness import DispatchHarness, InteractionResult
from tests.texts import fragment

BOARD = classic()
PERMISSION_IDS = ("E_NOT_PLAYER", "E_ELIMINATED", "E_NOT_YOUR_TURN", "E_NOT_HOST", "E_NOT_DEFENDER",
                  "error.not_allowed", "WQ_VAL_1", "WQ_VAL_1_SEAT", "WQ_VAL_1_OUT")
LOBBY_ONLY = {"game join", "game leave", "game add-ai", "game start"}
"""Commands of a lobby, not of a running game: the LOBBY table has them."""
Answer = Literal["yes", "no", "other"]


PERMISSION = {key: fragment(key) for key in PERMISSION_IDS}
OTHER_GAME = fragment("E_OTHER_GAME")

ROLES = {
    "a": "a member seated in another channel's game",
    "b": "a spectator in no game",
    "c": "a player who resigned",
    "d": "a seated player who is not pending",
    "e": "the pending player",
    "f": "the host (not pending)",
    "g": "a moderator (Manage Channels) with no seat",
}

BM_ELSEWHERE = """
bm choices           other other other other other other other
bm hand              other other other other other other other
bm region            other other other other other other other
bm race              other other other other other other other
bm tile              other other other other other other other
bm play              other other other other other other other
bm cast              other other other other other other other
bm discard           other other other other other other other
bm pass              other other other other other other other
bm vote              other other other other other other other
bm lock              other other other other other other other
bm initiative        other other other other other other other
bm move              other other other other other other other
bm undo              other other other other other other other
bm endmove           other other other other other other other
bm orders recruit    other other other other other other other
bm orders build      other other other other other other other
bm orders hero       other other other other other other other
bm orders guild      other other other other other other other
bm orders merchant   other other other other other other other
bm orders remove     other other other other other other other
bm trade offer       other other other other other other other
bm trade accept      other other other other other other other
bm trade decline     other other other other other other other
bm upkeep disband    other other other other other other other
bm upkeep trade      other other other other other other other
bm upkeep confirm    other other other other other other other
bm quest show        other other other other other other other
bm quest new         other other other other other other other
bm quest move        other other other other other other other
bm quest duel        other other other other other other other
bm quest target      other other other other other other other
bm quest done        other other other other other other other
bm battle choose     other other other other other other other
bm battle casualties other other other other other other other
bm battle rally      other other other other other other other
bm battle reroll     other other other other other other other
bm battle plunder    other other other other other other other
bm battle standing   other other other other other other other
bm help              yes   yes   yes   yes   yes   yes   yes
bm rules             yes   yes   yes   yes   yes   yes   yes
"""
"""The Battlemist commands in a channel that plays another game: refused for everyone, but the help and the
rules text, which work anywhere."""

# A running game in its attack phase. Lobby-only commands (join, leave, add-ai, start) are in LOBBY below.
# Defence dice are a reaction, not a turn: with no defence pending every active seat hears E_NOTHING_PENDING
# (the rules' check order); who may answer a pending defence is in DEFENCE below. The Wizard's Quest commands
# and buttons are refused for everyone ("This channel is playing Risk"), except the help that works anywhere.
RUNNING = """
command              a     b     c     d     e     f     g
risk place           no    no    no    no    yes   no    no
risk claim           no    no    no    no    yes   no    no
risk neutral         no    no    no    no    yes   no    no
risk trade           no    no    no    no    yes   no    no
risk attack          no    no    no    no    yes   no    no
risk defend          no    no    no    yes   yes   yes   no
risk move            no    no    no    no    yes   no    no
risk endattack       no    no    no    no    yes   no    no
risk fortify         no    no    no    no    yes   no    no
risk endturn         no    no    no    no    yes   no    no
risk resign          no    no    no    yes   yes   yes   no
risk hand            no    no    yes   yes   yes   yes   no
risk mission         no    no    yes   yes   yes   yes   no
risk territory       yes   yes   yes   yes   yes   yes   yes
risk help            yes   yes   yes   yes   yes   yes   yes
wq castle            other other other other other other other
wq claim             other other other other other other other
wq hide              other other other other other other other
wq place             other other other other other other other
wq buy               other other other other other other other
wq draw              other other other other other other other
wq play              other other other other other other other
wq done              other other other other other other other
wq attack            other other other other other other other
wq free              other other other other other other other
wq aid               other other other other other other other
wq roll              other other other other other other other
wq stop              other other other other other other other
wq cancel            other other other other other other other
wq capture           other other other other other other other
wq region            other other other other other other other
wq mage              other other other other other other other
wq end               other other other other other other other
wq hand              other other other other other other other
wq help              yes   yes   yes   yes   yes   yes   yes
new risk             yes   yes   yes   yes   yes   yes   yes
new wizards-quest  yes   yes   yes   yes   yes   yes   yes
new battlemist        yes   yes   yes   yes   yes   yes   yes
game status          yes   yes   yes   yes   yes   yes   yes
game export          yes   yes   yes   yes   yes   yes   yes
game replay          yes   yes   yes   yes   yes   yes   yes
game abandon         no    no    no    no    no    yes   yes
game vacation        no    no    no    yes   yes   yes   no
game back            no    no    no    yes   yes   yes   no
game resign          no    no    no    yes   yes   yes   no
game vote            no    no    no    yes   yes   yes   no
game kick            no    no    no    no    no    yes   yes
game replace         no    no    no    no    no    yes   yes
game pause           no    no    no    no    no    yes   yes
game resume          no    no    no    no    no    yes   yes
game deadline        no    no    no    no    no    yes   yes
game language        no    no    no    no    no    yes   yes
board                yes   yes   yes   yes   yes   yes   yes
history              yes   yes   yes   yes   yes   yes   yes
stats                yes   yes   yes   yes   yes   yes   yes
button again         no    no    no    no    yes   no    no
button stop          no    no    no    no    yes   no    no
button move          no    no    no    no    yes   no    no
button endturn       no    no    no    no    yes   no    no
button trade         no    no    no    no    yes   no    no
button risk-resign   no    no    no    yes   yes   yes   no
button history       yes   yes   yes   yes   yes   yes   yes
button abandon       no    no    no    no    no    yes   yes
button game-resign   no    no    no    yes   yes   yes   no
button wq-roll       other other other other other other other
button wq-aid        other other other other other other other
button wq-stop       other other other other other other other
button wq-capture    other other other other other other other
button wq-end        other other other other other other other
button wq-region     other other other other other other other
""" + BM_ELSEWHERE

# A running Wizard's Quest game: the pending player (e) has attacked the seat (d), so a battle is pending. Every
# decision is the pending player's, the defender has none (WQ-DIG-2): a seat out of turn hears WQ_VAL_1, anyone
# without an active seat WQ_VAL_1_SEAT. /wq hand answers every seat, the resigned one included: resigning sent
# their cards to the discard pile (WQ-LEAVE-3), so they read an empty hand, which is what a player who has left
# expects to see (and what /risk hand does for a resigned Risk player); the test checks that it is empty. The
# table commands are as in Risk; the Risk commands and buttons are refused for everyone, except /risk help.
WQ_RUNNING = """
command              a     b     c     d     e     f     g
wq castle            no    no    no    no    yes   no    no
wq claim             no    no    no    no    yes   no    no
wq hide              no    no    no    no    yes   no    no
wq place             no    no    no    no    yes   no    no
wq buy               no    no    no    no    yes   no    no
wq draw              no    no    no    no    yes   no    no
wq play              no    no    no    no    yes   no    no
wq done              no    no    no    no    yes   no    no
wq attack            no    no    no    no    yes   no    no
wq free              no    no    no    no    yes   no    no
wq aid               no    no    no    no    yes   no    no
wq roll              no    no    no    no    yes   no    no
wq stop              no    no    no    no    yes   no    no
wq cancel            no    no    no    no    yes   no    no
wq capture           no    no    no    no    yes   no    no
wq region            no    no    no    no    yes   no    no
wq mage              no    no    no    no    yes   no    no
wq end               no    no    no    no    yes   no    no
wq hand              no    no    yes   yes   yes   yes   no
wq help              yes   yes   yes   yes   yes   yes   yes
new risk             yes   yes   yes   yes   yes   yes   yes
new wizards-quest  yes   yes   yes   yes   yes   yes   yes
new battlemist        yes   yes   yes   yes   yes   yes   yes
game status          yes   yes   yes   yes   yes   yes   yes
game export          yes   yes   yes   yes   yes   yes   yes
game replay          yes   yes   yes   yes   yes   yes   yes
game abandon         no    no    no    no    no    yes   yes
game vacation        no    no    no    yes   yes   yes   no
game back            no    no    no    yes   yes   yes   no
game resign          no    no    no    yes   yes   yes   no
game vote            no    no    no    yes   yes   yes   no
game kick            no    no    no    no    no    yes   yes
game replace         no    no    no    no    no    yes   yes
game pause           no    no    no    no    no    yes   yes
game resume          no    no    no    no    no    yes   yes
game deadline        no    no    no    no    no    yes   yes
game language        no    no    no    no    no    yes   yes
board                yes   yes   yes   yes   yes   yes   yes
history              yes   yes   yes   yes   yes   yes   yes
stats                yes   yes   yes   yes   yes   yes   yes
risk place           other other other other other other other
risk claim           other other other other other other other
risk neutral         other other other other other other other
risk trade           other other other other other other other
risk attack          other other other other other other other
risk defend          other other other other other other other
risk move            other other other other other other other
risk endattack       other other other other other other other
risk fortify         other other other other other other other
risk endturn         other other other other other other other
risk resign          other other other other other other other
risk hand            other other other other other other other
risk mission         other other other other other other other
risk territory       other other other other other other other
risk help            yes   yes   yes   yes   yes   yes   yes
button wq-roll       no    no    no    no    yes   no    no
button wq-aid        no    no    no    no    yes   no    no
button wq-stop       no    no    no    no    yes   no    no
button wq-capture    no    no    no    no    yes   no    no
button wq-end        no    no    no    no    yes   no    no
button wq-region     no    no    no    no    yes   no    no
button history       yes   yes   yes   yes   yes   yes   yes
button abandon       no    no    no    no    no    yes   yes
button game-resign   no    no    no    yes   yes   yes   no
button risk-resign   other other other other other other other
button endturn       other other other other other other other
button trade         other other other other other other other
""" + BM_ELSEWHERE

# A lobby: (h) the host, (j) a member who joined, and a, b, g as above.
LOBBY = """
command              a   b   g   h   j
game join            yes yes yes yes yes
game leave           no  no  no  yes yes
game add-ai          no  no  no  yes no
game start           no  no  no  yes no
game abandon         no  no  yes yes no
game status          yes yes yes yes yes
"""
LOBBY_ROLES = {**{k: ROLES[k] for k in "abg"}, "h": "the host of the lobby", "j": "a member who joined the lobby"}


# The attacker (e) has attacked the seat (d), who must now choose the defence dice.
DEFENCE = """
command              a   b   c   d   e   f   g
risk defend          no  no  no  yes no  no  no
button defend        no  no  no  yes no  no  no
"""
DEFENCE_ROLES = {**ROLES, "d": "the defender, pending", "e": "the attacker, waiting for the defender"}


def table(text: str) -> dict[tuple[str, str], Answer]:
    """(role, command) → its answer, from one of the tables above."""
    header, *rows = [line for line in text.strip().splitlines() if line.strip()]
    roles = header.split()[1:]
    cells: dict[tuple[str, str], Answer] = {}
    for row in rows:
        *name, = row.split()
        command, answers = " ".join(name[: -len(roles)]), name[-len(roles):]
        for role, answer in zip(roles, answers, strict=True):
            assert answer in ("yes", "no", "other"), row
            cells[(role, command)] = answer  # type: ignore[assignment]
    return cells


def permission_refusal(result: InteractionResult) -> str | None:
    """The permission message the bot refused with, if it did."""
    for sent in result.messages:
        if sent.content.startswith("⚠️"):
            return next((key for key, text in PERMISSION.items() if text in sent.content), None)
    return None


Button = tuple[str, list[str] | None]
"""A custom id, and the values chosen when it is a menu."""


@dataclass
class Seats:
    roles: dict[str, dict[str, Any]]
    state: GameState
    extra: dict[str, Any]

    def buttons(self) -> dict[str, Button]:
        """Each game's main buttons and menus as offered at the current position (the other game's ones too)."""
        seq, x = self.state.seq, self.extra
        return {"again": (f"risk:again:{seq}:{x['source']}:{x['enemy']}", None), "stop": (f"risk:stop:{seq}", None),
                "move": (f"risk:move:{seq}:3", None), "defend": (f"risk:defend:{seq}:1", None),
                "endturn": (f"risk:endturn:{seq}", None), "trade": (f"risk:trade:{seq}", x["hand"]),
                "risk-resign": (f"risk:resign:{seq}", None), "history": (f"history:{x['game']}:1:older", None),
                "abandon": (f"game:abandon:{x['game']}:yes", None),
                "game-resign": (f"game:resign:{x['game']}:yes", None),
                "wq-roll": (f"wq:roll:{seq}", None), "wq-aid": (f"wq:aid:{seq}", [f"{x['friend']}:1"]),
                "wq-stop": (f"wq:stop:{seq}", None), "wq-capture": (f"wq:capture:{seq}:1", None),
                "wq-end": (f"wq:end:{seq}", None), "wq-region": (f"wq:region:{seq}:3", None)}


def attack_position(base: RiskState, pending: int, out: int) -> RiskState:
    """Attack phase, `pending` to play holding a tradeable set; `out` resigned; territories dealt round-robin."""
    playing = [p.id for p in base.players if p.id != out]
    owner = {t: playing[k % len(playing)] for k, t in enumerate(BOARD.ids)}
    mine = [t for t in BOARD.ids if owner[t] == pending]
    hands = {p.id: [] for p in base.players} | {pending: [mine[0], mine[1], "wild_1"]}
    players = [replace(p, status="resigned") if p.id == out else p for p in base.players]
    update: dict[str, Any] = {"phase": Phase.ATTACK, "turn": 2, "current": pending, "owner": owner,
                              "armies": {t: 3 for t in BOARD.ids}, "setup_left": {}, "pool": 0, "hands": hands,
                              "players": players,
                              "deck": [c for c in [*BOARD.ids, "wild_2"] if c not in hands[pending]]}
    return from_json(RiskState, to_json(replace(base, **update)))


async def elsewhere_and_moderator(h: DispatchHarness, game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A member seated in a game of `game` in another channel, and a moderator with no seat."""
    elsewhere = h.world.add_channel("elsewhere")
    eve, fay = h.add_member("Eve"), h.add_member("Fay")
    two = {"mode": "two_player"} if game == "risk" else {}
    await h.slash("new", game, options={**two}, user=eve, channel=elsewhere)
    await h.slash("game", "join", user=fay, channel=elsewhere)
    await h.slash("game", "start", user=eve, channel=elsewhere)
    mods = h.world.add_role("Mods", permissions=discord.Permissions(manage_channels=True).value)
    return eve, h.add_member("Mo", roles=[mods])


async def game_id(h: DispatchHarness) -> int:
    return (await h.bot.service.store.live_game(int(h.world.channel["id"]))).id  # type: ignore[attr-defined]


async def seat_everyone(h: DispatchHarness) -> Seats:
    hal, pam, dee, olly = await start_game(h, "Hal", "Pam", "Dee", "Olly", mode="secret_mission")
    eve, mo = await elsewhere_and_moderator(h, "risk")
    state = await put_state(h, attack_position(await state_of(h), uid(pam), uid(olly)))
    roles = {"a": eve, "b": h.add_member("Spectator"), "c": olly, "d": dee, "e": pam, "f": hal, "g": mo}
    mine = state.territories_of(uid(pam))
    source, enemy = next((t, n) for t in mine for n in BOARD.neighbours[t] if state.owner[n] == uid(dee))
    friend = next((n for t in mine for n in BOARD.neighbours[t] if state.owner[n] == uid(pam)), mine[1])
    extra = {"source": source, "enemy": enemy, "friend": friend, "newbie": h.add_member("Newbie"),
             "game": await game_id(h), "hand": state.hands[uid(pam)]}
    return Seats(roles, state, extra)


async def seat_everyone_at_wizards_quest(h: DispatchHarness) -> Seats:
    """Hal hosts; Olly has resigned; Pam has attacked Dee's 3.2 from 3.1, with 3.4 next to it to aid from."""
    hal, pam, dee, olly = await start_game(h, "Hal", "Pam", "Dee", "Olly", game="wizards-quest")
    eve, mo = await elsewhere_and_moderator(h, "wizards-quest")
    base = await state_of(h, WQState)
    await put_state(h, scenario(base, current=uid(pam), owner={"3.1": uid(pam), "3.4": uid(pam), "3.2": uid(dee)},
                                men={"3.1": 6, "3.4": 5, "3.2": 2}, hands={uid(olly): ["levy-1", "orcbane-2"]}))
    ask = await h.slash("game", "resign", user=olly)
    await h.button(next(c for c in ask.response.custom_ids() if c.endswith(":yes")), user=olly, message=ask.response)
    attack = RULESET.parse_action({"type": "attack", "source": "3.1", "target": "3.2", "player": uid(pam)})
    state, _ = RULESET.apply(await state_of(h, WQState), attack)  # unlogged, like put_state: the log still replays
    assert isinstance(state, WQState) and state.attack is not None
    assert [p.status for p in state.players if p.id == uid(olly)] == ["resigned"]
    await put_state(h, state)
    roles = {"a": eve, "b": h.add_member("Spectator"), "c": olly, "d": dee, "e": pam, "f": hal, "g": mo}
    extra = {"source": "3.1", "enemy": "3.2", "friend": "3.4", "newbie": h.add_member("Newbie"),
             "game": await game_id(h), "hand": ["alaska", "peru", "wild_1"]}
    return Seats(roles, state, extra)


def options(command: str, seats: Seats) -> dict[str, Any]:
    """Plausible options for each command, so that whoever is allowed gets past the permission checks."""
    x, roles = seats.extra, seats.roles
    return {
        "risk place": {"territory": x["source"], "count": 1}, "risk claim": {"territory": x["enemy"]},
        "risk neutral": {"territory": x["enemy"]}, "risk attack": {"source": x["source"], "target": x["enemy"]},
        "risk defend": {"dice": 1}, "risk move": {"count": 1}, "risk territory": {"name": "alaska"},
        "risk fortify": {"source": x["source"], "target": x["friend"], "count": 1},
        "wq castle": {"castle": "C5"}, "wq claim": {"territory": "1.1"},
        "wq hide": {"treasure": f"{uid(roles['f'])}:crown", "territory": "1.1"},
        "wq place": {"location": x["source"], "count": 1}, "wq buy": {"leader": "hero", "location": x["source"]},
        "wq play": {"card": "levy-1"}, "wq attack": {"source": x["source"], "target": x["enemy"]},
        "wq free": {"beast": "dragon", "source": x["source"]}, "wq aid": {"source": x["friend"], "count": 1},
        "wq capture": {"count": 1}, "wq region": {"region": 3}, "wq mage": {"territory": "1.1"},
        "game vacation": {"days": 2}, "game vote": {"choice": "draw"},
        "game kick": {"player": roles["d"]}, "game replace": {"old": roles["d"], "new": x["newbie"]},
        "game deadline": {"hours": 2.0}, "game language": {"language": "de"}, "board": {"view": "text"},
        "bm region": {"region": "N06"}, "bm race": {"race": "daq"}, "bm tile": {"tile": "T1", "q": 0, "r": 0},
        "bm play": {"card": "AC01"}, "bm cast": {"spell": "SP01"}, "bm discard": {"card": "AC01"},
        "bm vote": {"choice": "commit"}, "bm initiative": {"change": "keep"},
        "bm move": {"n": 1, "unit": "inf", "origin": "N06", "path": "N05"},
        "bm orders recruit": {"unit": "infantry", "n": 1, "region": "N06"}, "bm orders build": {"region": "N06"},
        "bm orders merchant": {"give": "grain", "amount": 2, "get": "wood"},
        "bm trade offer": {"player": roles["d"], "give": "1 grain", "get": "1 wood"},
        "bm trade accept": {"offer": 1}, "bm trade decline": {"offer": 1},
        "bm upkeep disband": {"region": "N06", "what": "infantry"},
        "bm upkeep trade": {"give": "grain", "amount": 2, "get": "wood"},
        "bm quest move": {"hero": 1, "path": "N05"}, "bm quest duel": {"duel": "1:2:1"},
        "bm quest target": {"monster": 1}, "bm battle choose": {"region": "N06"},
        "bm battle rally": {"units": "1 inf"}, "bm battle plunder": {"choice": "no"},
        "bm battle standing": {"order": "inf arch cav"}, "bm rules": {"rule": "BM-MOV-1"},
    }.get(command, {})


async def press(h: DispatchHarness, button: Button, member: dict[str, Any]) -> InteractionResult:
    """Press a button, or choose in a menu, on a message of the bot's that offers it."""
    custom_id, values = button
    if values is not None:
        shown = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": len(values),
                 "options": [{"label": v, "value": v} for v in values]}
    else:
        shown = {"type": 2, "custom_id": custom_id, "label": custom_id, "style": 1}
    message = {"id": "1", "channel_id": h.world.channel["id"], "components": [{"type": 1, "components": [shown]}],
               "author": h.world.bot_user, "content": "", "flags": 0, "embeds": [], "attachments": [],
               "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
               "type": 0, "timestamp": "2025-01-01T00:00:00+00:00", "edited_timestamp": None}
    payload = h.world.component(custom_id, message=message, values=values, user=member)
    return await h.interact(payload)


Run = Callable[[str, dict[str, Any]], Awaitable[InteractionResult]]


def runner(h: DispatchHarness, seats: Seats) -> Run:
    """Run a table's command (or press its button) as a member, from the current position."""
    async def run(command: str, member: dict[str, Any]) -> InteractionResult:
        if command.startswith("button "):
            return await press(h, seats.buttons()[command.removeprefix("button ")], member)
        return await h.slash(*command.split(), options=options(command, seats), user=member)
    return run


async def judge(h: DispatchHarness, cells: dict[tuple[str, str], Answer], roles: dict[str, dict[str, Any]],
                names: dict[str, str], saved: Stored, run: Run) -> list[str]:
    """Try every cell from the saved position; return a readable line for each cell that disagrees."""
    wrong = []
    for (role, command), answer in cells.items():
        await restore(h, saved)
        before = await stored(h)
        result = await run(command, roles[role])
        refusal = permission_refusal(result)
        warnings = [m for m in result.messages if m.content.startswith("⚠️")]
        shown = " / ".join(m.content for m in result.messages)[:160] or f"(callback {result.callback_type})"
        cell = f"{names[role]} × {command}"
        if warnings:
            if not all(m.ephemeral for m in warnings):
                wrong.append(f"{cell}: the refusal was public: {shown}")
            if await stored(h) != before:
                wrong.append(f"{cell}: refused ({refusal or 'by a rule'}) but the game changed")
        if answer == "yes" and refusal is not None:
            wrong.append(f"{cell}: should be allowed, was refused: {shown}")
        if answer == "no" and refusal is None:
            wrong.append(f"{cell}: should be refused for permission, got: {shown}")
        if answer == "other" and (refusal is not None or not any(OTHER_GAME in m.content for m in warnings)):
            wrong.append(f"{cell}: should be refused as the other game's, got: {shown}")
    return wrong


def slash_names(h: DispatchHarness) -> set[str]:
    return {c.qualified_name for c in h.bot.tree.walk_commands() if isinstance(c, app_commands.Command)}


def uncovered(h: DispatchHarness, cells: dict[tuple[str, str], Answer]) -> set[str]:
    """Slash commands of a running game that a table leaves out."""
    return slash_names(h) - {command for _, command in cells} - LOBBY_ONLY


ONE_STORE = pytest.mark.parametrize("location", ["sqlite"], indirect=True)
"""Who may do what is decided above the store, and the whole matrix costs 17 s a store: the other cog tests run
the same commands on PostgreSQL."""


@ONE_STORE
async def test_permission_matrix_of_a_running_game(h: DispatchHarness) -> None:
    cells = table(RUNNING)
    assert not uncovered(h, cells), f"missing from the RUNNING table: {sorted(uncovered(h, cells))}"
    seats = await seat_everyone(h)
    saved = await stored(h)
    wrong = await judge(h, cells, seats.roles, ROLES, saved, runner(h, seats))
    assert not wrong, f"{len(wrong)} cells disagree with the table:\n" + "\n".join(wrong)


@ONE_STORE
async def test_permission_matrix_of_a_running_wizards_quest_game(h: DispatchHarness) -> None:
    cells = table(WQ_RUNNING)
    assert not uncovered(h, cells), f"missing from the WQ_RUNNING table: {sorted(uncovered(h, cells))}"
    seats = await seat_everyone_at_wizards_quest(h)
    shown = await h.slash("wq", "hand", user=seats.roles["c"])
    assert shown.ephemeral and "(0/2)" in shown.content and "Levy" not in shown.content, \
        f"a resigned player's cards went to the discard pile: {shown.content!r}"
    saved = await stored(h)
    wrong = await judge(h, cells, seats.roles, ROLES, saved, runner(h, seats))
    assert not wrong, f"{len(wrong)} cells disagree with the table:\n" + "\n".join(wrong)


async def test_permission_matrix_of_a_lobby(h: DispatchHarness) -> None:
    cells = table(LOBBY)
    host, joined = h.add_member("Hal"), h.add_member("Jo")
    await h.slash("new", "risk", user=host)
    await h.slash("game", "join", user=joined)
    elsewhere = h.world.add_channel("elsewhere")
    eve = h.add_member("Eve")
    await h.slash("new", "risk", user=eve, channel=elsewhere)
    mods = h.world.add_role("Mods", permissions=discord.Permissions(manage_channels=True).value)
    roles = {"a": eve, "b": h.add_member("Spectator"), "g": h.add_member("Mo", roles=[mods]), "h": host,
             "j": joined}
    saved = await stored(h)

    async def run(command: str, member: dict[str, Any]) -> InteractionResult:
        return await h.slash(*command.split(), user=member)

    wrong = await judge(h, cells, roles, LOBBY_ROLES, saved, run)
    assert not wrong, f"{len(wrong)} cells disagree with the table:\n" + "\n".join(wrong)


async def test_permission_judge_goes_red_when_a_stranger_gets_through(h: DispatchHarness) -> None:
    """The matrix can fail: a table that lets a spectator pause the game has a red cell naming both."""
    seats = await seat_everyone(h)
    saved = await stored(h)

    async def run(command: str, member: dict[str, Any]) -> InteractionResult:
        return await h.slash(*command.split(), user=member)

    wrong = await judge(h, {("b", "game pause"): "yes", ("f", "game status"): "no", ("e", "risk help"): "other"},
                        seats.roles, ROLES, saved, run)
    assert wrong == [
        f"{ROLES['b']} × game pause: should be allowed, was refused: ⚠️ Only the host (<@{uid(seats.roles['f'])}>) "
        "can do that.",
        f"{ROLES['f']} × game status: should be refused for permission, got: " + wrong[1].split(" got: ")[1],
        f"{ROLES['e']} × risk help: should be refused as the other game's, got: " + wrong[2].split(" got: ")[1],
    ]


async def test_permission_matrix_of_a_pending_defence(h: DispatchHarness) -> None:
    seats = await seat_everyone(h)
    choose = seats.state.options.model_copy(update={"defender_dice": "choose"})  # type: ignore[attr-defined]
    await put_state(h, replace(seats.state, options=choose))
    x = seats.extra
    await h.slash("risk", "attack", options={"source": x["source"], "target": x["enemy"]}, user=seats.roles["e"])
    seats.state = await state_of(h)
    assert seats.state.interrupt is not None and seats.state.interrupt.defender == uid(seats.roles["d"])
    saved = await stored(h)
    wrong = await judge(h, table(DEFENCE), seats.roles, DEFENCE_ROLES, saved, runner(h, seats))
    assert not wrong, f"{len(wrong)} cells disagree with the table:\n" + "\n".join(wrong)
