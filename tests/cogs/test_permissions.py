"""Who may do what: every command and the main buttons, tried by every kind of member, against a table written
out as data. A refusal is a private "⚠️" with a permission message and changes nothing; "yes" means not refused
for a permission reason (a rule may still refuse, e.g. the wrong phase)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from engine.core.i18n import catalogue
from engine.games.risk import RiskState
from engine.games.risk.mapdata import classic
from engine.games.risk.state import Phase
from tests.cogs.conftest import Stored, put_state, restore, start_game, state_of, stored, uid
from tests.discord.harness import DispatchHarness, InteractionResult

BOARD = classic()
PERMISSION_IDS = ("E_NOT_PLAYER", "E_ELIMINATED", "E_NOT_YOUR_TURN", "E_NOT_HOST", "E_NOT_DEFENDER",
                  "error.not_allowed")


def _fragment(text: str) -> str:
    """The longest placeholder-free stretch of a message: it identifies the message in any reply."""
    return max(re.split(r"\{[^}]*\}", text), key=len)


PERMISSION = {key: _fragment(catalogue("en")[key]) for key in PERMISSION_IDS}

ROLES = {
    "a": "a member seated in another channel's game",
    "b": "a spectator in no game",
    "c": "a player who resigned",
    "d": "a seated player who is not pending",
    "e": "the pending player",
    "f": "the host (not pending)",
    "g": "a moderator (Manage Channels) with no seat",
}

# A running game in its attack phase. Lobby-only commands (join, leave, add-ai, start) are in LOBBY below.
# Defence dice are a reaction, not a turn: with no defence pending every active seat hears E_NOTHING_PENDING
# (the rules' check order); who may answer a pending defence is in DEFENCE below.
RUNNING = """
command              a   b   c   d   e   f   g
risk place           no  no  no  no  yes no  no
risk claim           no  no  no  no  yes no  no
risk neutral         no  no  no  no  yes no  no
risk trade           no  no  no  no  yes no  no
risk attack          no  no  no  no  yes no  no
risk defend          no  no  no  yes yes yes no
risk move            no  no  no  no  yes no  no
risk endattack       no  no  no  no  yes no  no
risk fortify         no  no  no  no  yes no  no
risk endturn         no  no  no  no  yes no  no
risk resign          no  no  no  yes yes yes no
risk hand            no  no  yes yes yes yes no
risk mission         no  no  yes yes yes yes no
risk territory       yes yes yes yes yes yes yes
risk help            yes yes yes yes yes yes yes
game new             yes yes yes yes yes yes yes
game status          yes yes yes yes yes yes yes
game export          yes yes yes yes yes yes yes
game replay          yes yes yes yes yes yes yes
game abandon         no  no  no  no  no  yes yes
game vacation        no  no  no  yes yes yes no
game back            no  no  no  yes yes yes no
game resign          no  no  no  yes yes yes no
game vote            no  no  no  yes yes yes no
game kick            no  no  no  no  no  yes yes
game replace         no  no  no  no  no  yes yes
game pause           no  no  no  no  no  yes yes
game resume          no  no  no  no  no  yes yes
game deadline        no  no  no  no  no  yes yes
board                yes yes yes yes yes yes yes
history              yes yes yes yes yes yes yes
stats                yes yes yes yes yes yes yes
button again         no  no  no  no  yes no  no
button stop          no  no  no  no  yes no  no
button move          no  no  no  no  yes no  no
button endturn       no  no  no  no  yes no  no
button trade         no  no  no  no  yes no  no
button risk-resign   no  no  no  yes yes yes no
button history       yes yes yes yes yes yes yes
button abandon       no  no  no  no  no  yes yes
button game-resign   no  no  no  yes yes yes no
"""

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


def table(text: str) -> dict[tuple[str, str], bool]:
    """(role, command) → allowed, from one of the tables above."""
    header, *rows = [line for line in text.strip().splitlines()]
    roles = header.split()[1:]
    cells: dict[tuple[str, str], bool] = {}
    for row in rows:
        *name, = row.split()
        command, answers = " ".join(name[: -len(roles)]), name[-len(roles):]
        for role, answer in zip(roles, answers, strict=True):
            assert answer in ("yes", "no"), row
            cells[(role, command)] = answer == "yes"
    return cells


def permission_refusal(result: InteractionResult) -> str | None:
    """The permission message the bot refused with, if it did."""
    for sent in result.messages:
        if sent.content.startswith("⚠️"):
            return next((key for key, text in PERMISSION.items() if text in sent.content), None)
    return None


@dataclass
class Seats:
    roles: dict[str, dict[str, Any]]
    state: RiskState
    extra: dict[str, Any]


def attack_position(base: RiskState, pending: int, out: int) -> RiskState:
    """Attack phase, `pending` to play holding a tradeable set; `out` resigned; territories dealt round-robin."""
    playing = [p.id for p in base.players if p.id != out]
    owner = {t: playing[k % len(playing)] for k, t in enumerate(BOARD.ids)}
    mine = [t for t in BOARD.ids if owner[t] == pending]
    hands = {p.id: [] for p in base.players} | {pending: [mine[0], mine[1], "wild_1"]}
    players = [p.model_copy(update={"status": "resigned"}) if p.id == out else p for p in base.players]
    update: dict[str, Any] = {"phase": Phase.ATTACK, "turn": 2, "current": pending, "owner": owner,
                              "armies": {t: 3 for t in BOARD.ids}, "setup_left": {}, "pool": 0, "hands": hands,
                              "players": players,
                              "deck": [c for c in [*BOARD.ids, "wild_2"] if c not in hands[pending]]}
    return RiskState.model_validate(base.model_copy(update=update).model_dump())


async def seat_everyone(h: DispatchHarness) -> Seats:
    hal, pam, dee, olly = await start_game(h, "Hal", "Pam", "Dee", "Olly", mode="secret_mission")
    elsewhere = h.world.add_channel("elsewhere")
    eve, fay = h.add_member("Eve"), h.add_member("Fay")
    await h.slash("game", "new", options={"game": "risk", "mode": "two_player"}, user=eve, channel=elsewhere)
    await h.slash("game", "join", user=fay, channel=elsewhere)
    await h.slash("game", "start", user=eve, channel=elsewhere)
    mods = h.world.add_role("Mods", permissions=discord.Permissions(manage_channels=True).value)
    state = await put_state(h, attack_position(await state_of(h), uid(pam), uid(olly)))
    roles = {"a": eve, "b": h.add_member("Spectator"), "c": olly, "d": dee, "e": pam, "f": hal,
             "g": h.add_member("Mo", roles=[mods])}
    mine = state.territories_of(uid(pam))
    source, enemy = next((t, n) for t in mine for n in BOARD.neighbours[t] if state.owner[n] == uid(dee))
    friend = next((n for t in mine for n in BOARD.neighbours[t] if state.owner[n] == uid(pam)), mine[1])
    game = await h.bot.service.store.live_game(int(h.world.channel["id"]))  # type: ignore[attr-defined]
    extra = {"source": source, "enemy": enemy, "friend": friend, "newbie": h.add_member("Newbie"), "game": game.id}
    return Seats(roles, state, extra)


def options(command: str, seats: Seats) -> dict[str, Any]:
    """Plausible options for each command, so that whoever is allowed gets past the permission checks."""
    x, roles = seats.extra, seats.roles
    return {
        "risk place": {"territory": x["source"], "count": 1}, "risk claim": {"territory": x["enemy"]},
        "risk neutral": {"territory": x["enemy"]}, "risk attack": {"source": x["source"], "target": x["enemy"]},
        "risk defend": {"dice": 1}, "risk move": {"count": 1}, "risk territory": {"name": "alaska"},
        "risk fortify": {"source": x["source"], "target": x["friend"], "count": 1},
        "game new": {"game": "risk"}, "game vacation": {"days": 2}, "game vote": {"choice": "draw"},
        "game kick": {"player": roles["d"]}, "game replace": {"old": roles["d"], "new": x["newbie"]},
        "game deadline": {"hours": 2.0}, "board": {"view": "text"},
    }.get(command, {})


async def press(h: DispatchHarness, name: str, seats: Seats, member: dict[str, Any]) -> InteractionResult:
    """Press one of the main buttons as it was offered at the current position."""
    seq, x = seats.state.seq, seats.extra
    custom_id = {"again": f"risk:again:{seq}:{x['source']}:{x['enemy']}", "stop": f"risk:stop:{seq}",
                 "move": f"risk:move:{seq}:3", "defend": f"risk:defend:{seq}:1", "endturn": f"risk:endturn:{seq}",
                 "trade": f"risk:trade:{seq}",
                 "risk-resign": f"risk:resign:{seq}", "history": f"history:{x['game']}:1:older",
                 "abandon": f"game:abandon:{x['game']}:yes", "game-resign": f"game:resign:{x['game']}:yes"}[name]
    hand = seats.state.hands[seats.state.current]
    if name == "trade":
        shown = {"type": 3, "custom_id": custom_id, "min_values": 3, "max_values": 3,
                 "options": [{"label": c, "value": c} for c in hand]}
    else:
        shown = {"type": 2, "custom_id": custom_id, "label": name, "style": 1}
    message = {"id": "1", "channel_id": h.world.channel["id"], "components": [{"type": 1, "components": [shown]}],
               "author": h.world.bot_user, "content": "", "flags": 0, "embeds": [], "attachments": [],
               "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
               "type": 0, "timestamp": "2025-01-01T00:00:00+00:00", "edited_timestamp": None}
    payload = h.world.component(custom_id, message=message, values=hand if name == "trade" else None, user=member)
    return await h.interact(payload)


async def judge(h: DispatchHarness, cells: dict[tuple[str, str], bool], roles: dict[str, dict[str, Any]],
                names: dict[str, str], saved: Stored, run: Any) -> list[str]:
    """Try every cell from the saved position; return a readable line for each cell that disagrees."""
    wrong = []
    for (role, command), allowed in cells.items():
        await restore(h, saved)
        before = await stored(h)
        result = await run(command, roles[role])
        refusal = permission_refusal(result)
        shown = " / ".join(m.content for m in result.messages)[:160] or f"(callback {result.callback_type})"
        if refusal is not None:
            if not all(m.ephemeral for m in result.messages if m.content.startswith("⚠️")):
                wrong.append(f"{names[role]} × {command}: the refusal was public: {shown}")
            if await stored(h) != before:
                wrong.append(f"{names[role]} × {command}: refused ({refusal}) but the game changed")
        if allowed and refusal is not None:
            wrong.append(f"{names[role]} × {command}: should be allowed, was refused: {shown}")
        if not allowed and refusal is None:
            wrong.append(f"{names[role]} × {command}: should be refused for permission, got: {shown}")
    return wrong


def slash_names(h: DispatchHarness) -> set[str]:
    return {c.qualified_name for c in h.bot.tree.walk_commands() if isinstance(c, app_commands.Command)}


async def test_permission_matrix_of_a_running_game(h: DispatchHarness) -> None:
    cells = table(RUNNING)
    listed = {command for _, command in cells}
    risk_channel = {name for name in slash_names(h) if not name.startswith("wq ")}  # WQ_RUNNING covers /wq
    assert risk_channel - listed <= {"game join", "game leave", "game add-ai", "game start"}, \
        "a command is missing from the RUNNING table"
    seats = await seat_everyone(h)
    saved = await stored(h)

    async def run(command: str, member: dict[str, Any]) -> InteractionResult:
        if command.startswith("button "):
            return await press(h, command.removeprefix("button "), seats, member)
        return await h.slash(*command.split(), options=options(command, seats), user=member)

    wrong = await judge(h, cells, seats.roles, ROLES, saved, run)
    assert not wrong, f"{len(wrong)} cells disagree with the table:\n" + "\n".join(wrong)


async def test_permission_matrix_of_a_lobby(h: DispatchHarness) -> None:
    cells = table(LOBBY)
    host, joined = h.add_member("Hal"), h.add_member("Jo")
    await h.slash("game", "new", options={"game": "risk"}, user=host)
    await h.slash("game", "join", user=joined)
    elsewhere = h.world.add_channel("elsewhere")
    eve = h.add_member("Eve")
    await h.slash("game", "new", options={"game": "risk"}, user=eve, channel=elsewhere)
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

    wrong = await judge(h, {("b", "game pause"): True, ("f", "game status"): False}, seats.roles, ROLES, saved, run)
    assert wrong == [
        f"{ROLES['b']} × game pause: should be allowed, was refused: ⚠️ Only the host (Hal) can do that.",
        f"{ROLES['f']} × game status: should be refused for permission, got: " + wrong[1].split(" got: ")[1],
    ]


async def test_permission_matrix_of_a_pending_defence(h: DispatchHarness) -> None:
    seats = await seat_everyone(h)
    choose = seats.state.options.model_copy(update={"defender_dice": "choose"})
    await put_state(h, seats.state.model_copy(update={"options": choose}))
    x = seats.extra
    await h.slash("risk", "attack", options={"source": x["source"], "target": x["enemy"]}, user=seats.roles["e"])
    seats.state = await state_of(h)
    assert seats.state.interrupt is not None and seats.state.interrupt.defender == uid(seats.roles["d"])
    saved = await stored(h)

    async def run(command: str, member: dict[str, Any]) -> InteractionResult:
        if command.startswith("button "):
            return await press(h, command.removeprefix("button "), seats, member)
        return await h.slash(*command.split(), options=options(command, seats), user=member)

    wrong = await judge(h, table(DEFENCE), seats.roles, DEFENCE_ROLES, saved, run)
    assert not wrong, f"{len(wrong)} cells disagree with the table:\n" + "\n".join(wrong)
