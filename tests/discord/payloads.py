"""Factories for Discord gateway/REST payloads (plain dicts, snowflake ids as strings) plus a `World` of defaults."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord

DISCORD_EPOCH_MS = 1_420_070_400_000
_BASE_MS = 1_735_689_600_000  # 2025-01-01T00:00:00Z: fake ids look recent and sort by creation order
_counter = itertools.count(1)

ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, embed_links=True, attach_files=True,
    read_message_history=True, add_reactions=True, use_application_commands=True, use_external_emojis=True,
).value

# Application-command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(
    1, 12
)
# Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Component types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8
# Message flags.
FLAG_EPHEMERAL, FLAG_LOADING = 64, 128


def number_ids_from(first: int) -> None:
    """Let the next snowflakes count on from `first`: several processes, each with a range of its own, make ids no
    other one makes (as Discord's workers do)."""
    global _counter
    _counter = itertools.count(first)


def snowflake() -> str:
    """Return a new unique snowflake id (string), increasing with every call."""
    n = next(_counter)
    return str(((_BASE_MS + n - DISCORD_EPOCH_MS) << 22) | (n & 0xFFF))


def snowflake_time(snowflake_id: str | int) -> str:
    """Return the ISO-8601 timestamp encoded in a snowflake."""
    ms = (int(snowflake_id) >> 22) + DISCORD_EPOCH_MS
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat()


def now_iso() -> str:
    """Return the current time as an ISO-8601 timestamp."""
    return datetime.now(tz=UTC).isoformat()


@dataclass(frozen=True)
class Typed:
    """An option value with an explicit option type, e.g. `Typed("12", INTEGER)` or `Typed(user_id, USER)`."""

    value: Any
    type: int


def user(name: str = "player", *, id: str | None = None, bot: bool = False, global_name: str | None = None) -> dict:
    """Return a user payload."""
    return {
        "id": id or snowflake(), "username": name.lower().replace(" ", "_"), "discriminator": "0",
        "global_name": global_name or name, "avatar": None, "bot": bot, "system": False, "public_flags": 0,
        "flags": 0, "banner": None, "accent_color": None, "avatar_decoration_data": None,
    }


def member(user_payload: dict, *, roles: Sequence[str] = (), nick: str | None = None,
           permissions: int | str | None = None, joined_at: str | None = None) -> dict:
    """Return a guild member payload; `permissions` (string) is what interactions carry, omit it for GUILD_CREATE."""
    data: dict[str, Any] = {
        "user": user_payload, "nick": nick, "avatar": None, "banner": None, "roles": [str(r) for r in roles],
        "joined_at": joined_at or snowflake_time(user_payload["id"]), "premium_since": None, "deaf": False,
        "mute": False, "flags": 0, "pending": False, "communication_disabled_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role(name: str, *, id: str | None = None, permissions: int | str = 0, position: int = 0, color: int = 0) -> dict:
    """Return a role payload (the @everyone role has the guild's id)."""
    return {
        "id": id or snowflake(), "name": name, "color": color,
        "colors": {"primary_color": color, "secondary_color": None, "tertiary_color": None}, "hoist": False,
        "icon": None, "unicode_emoji": None, "position": position, "permissions": str(permissions), "managed": False,
        "mentionable": False, "flags": 0,
    }


def text_channel(guild_id: str, name: str = "general", *, id: str | None = None, position: int = 0,
                 topic: str | None = None, parent_id: str | None = None) -> dict:
    """Return a guild text channel payload (type 0)."""
    return {
        "id": id or snowflake(), "type": 0, "guild_id": guild_id, "name": name, "position": position,
        "permission_overwrites": [], "nsfw": False, "topic": topic, "last_message_id": None,
        "rate_limit_per_user": 0, "parent_id": parent_id, "flags": 0,
    }


def dm_channel(recipient: dict, *, id: str | None = None) -> dict:
    """Return a DM channel payload (type 1) with one recipient."""
    return {"id": id or snowflake(), "type": 1, "recipients": [recipient], "last_message_id": None, "flags": 0}


def guild(guild_id: str, *, name: str, owner_id: str, roles: Sequence[dict], channels: Sequence[dict],
          members: Sequence[dict], locale: str = "en-US") -> dict:
    """Return a full GUILD_CREATE payload (members without the interaction-only `permissions` key)."""
    guild_members = [{k: v for k, v in m.items() if k != "permissions"} for m in members]
    return {
        "id": guild_id, "name": name, "icon": None, "splash": None, "discovery_splash": None, "owner_id": owner_id,
        "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "roles": list(roles), "emojis": [], "stickers": [], "features": [],
        "mfa_level": 0, "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
        "rules_channel_id": None, "public_updates_channel_id": None, "safety_alerts_channel_id": None,
        "vanity_url_code": None, "description": None, "banner": None, "premium_tier": 0,
        "premium_subscription_count": 0, "preferred_locale": locale, "nsfw_level": 0, "nsfw": False,
        "premium_progress_bar_enabled": False, "max_members": 500000, "max_video_channel_users": 25,
        "joined_at": snowflake_time(guild_id), "large": False, "unavailable": False,
        "member_count": len(guild_members), "voice_states": [], "members": guild_members,
        "channels": [{k: v for k, v in c.items() if k != "guild_id"} for c in channels], "threads": [],
        "presences": [], "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
    }


def message(channel_id: str, *, author: dict, content: str = "", id: str | None = None,
            embeds: Sequence[dict] = (), components: Sequence[dict] = (), attachments: Sequence[dict] = (),
            flags: int = 0, guild_id: str | None = None, type: int = 0, application_id: str | None = None) -> dict:
    """Return a message payload."""
    message_id = id or snowflake()
    data: dict[str, Any] = {
        "id": message_id, "type": type, "channel_id": channel_id, "content": content, "author": author,
        "mentions": [], "mention_roles": [], "mention_everyone": False, "attachments": list(attachments),
        "embeds": list(embeds), "components": list(components), "timestamp": snowflake_time(message_id),
        "edited_timestamp": None, "flags": flags, "tts": False, "pinned": False,
    }
    if guild_id is not None:
        data["guild_id"] = guild_id
    if application_id is not None:
        data["application_id"] = application_id
        data["webhook_id"] = application_id
    return data


def action_row(*components: dict) -> dict:
    """Return an action row component holding `components`."""
    return {"type": ACTION_ROW, "components": list(components)}


def button_component(custom_id: str, label: str = "", *, style: int = 1, disabled: bool = False) -> dict:
    """Return a button component payload."""
    return {"type": BUTTON, "custom_id": custom_id, "label": label, "style": style, "disabled": disabled}


def string_select_component(custom_id: str, options: Sequence[str], *, min_values: int = 1,
                            max_values: int = 1) -> dict:
    """Return a string select component payload whose option labels are also the values."""
    return {"type": STRING_SELECT, "custom_id": custom_id, "min_values": min_values, "max_values": max_values,
            "options": [{"label": o, "value": o} for o in options]}


def iter_components(components: Sequence[dict]) -> Iterator[dict]:
    """Yield every component in a (possibly nested) component list, depth first."""
    for component in components:
        yield component
        yield from iter_components(component.get("components", []))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                yield from iter_components([component[key]])


def _leaf_option(name: str, value: Any, resolved: dict[str, dict[str, Any]]) -> dict:
    """Build one non-subcommand option, adding users/members/roles/channels to `resolved`."""
    if isinstance(value, Typed):
        return {"name": name, "type": value.type, "value": value.value}
    if isinstance(value, bool):
        return {"name": name, "type": BOOLEAN, "value": value}
    if isinstance(value, int):
        return {"name": name, "type": INTEGER, "value": value}
    if isinstance(value, float):
        return {"name": name, "type": NUMBER, "value": value}
    if isinstance(value, str):
        return {"name": name, "type": STRING, "value": value}
    if isinstance(value, Mapping):
        if "user" in value and "roles" in value:  # member
            uid = value["user"]["id"]
            resolved.setdefault("users", {})[uid] = value["user"]
            resolved.setdefault("members", {})[uid] = {k: v for k, v in value.items() if k != "user"}
            return {"name": name, "type": USER, "value": uid}
        if "username" in value:
            resolved.setdefault("users", {})[value["id"]] = dict(value)
            return {"name": name, "type": USER, "value": value["id"]}
        if "type" in value:
            resolved.setdefault("channels", {})[value["id"]] = {
                "id": value["id"], "name": value.get("name"), "type": value["type"],
                "permissions": str(ALL_PERMISSIONS), "parent_id": value.get("parent_id"),
            }
            return {"name": name, "type": CHANNEL, "value": value["id"]}
        if "permissions" in value:
            resolved.setdefault("roles", {})[value["id"]] = dict(value)
            return {"name": name, "type": ROLE, "value": value["id"]}
    raise TypeError(f"cannot infer the option type of {name}={value!r}; wrap it in Typed(value, type)")


def command_options(path: Sequence[str], options: Mapping[str, Any] | None = None, *,
                    focused: str | None = None) -> tuple[list[dict], dict]:
    """Return (options, resolved) for a command; `path` lists subcommand groups then the subcommand."""
    options = dict(options or {})
    if focused is not None and focused not in options:
        raise ValueError(f"focused option {focused!r} is not among the options {sorted(options)}")
    resolved: dict[str, dict[str, Any]] = {}
    tree: list[dict] = []
    for name, value in options.items():
        option = _leaf_option(name, value, resolved)
        if name == focused:
            option["focused"] = True
        tree.append(option)
    for depth in reversed(range(len(path))):
        kind = SUB_COMMAND if depth == len(path) - 1 else SUB_COMMAND_GROUP
        tree = [{"name": path[depth], "type": kind, "options": tree}]
    return tree, resolved


def interaction(type: int, *, app_id: str, channel: dict, user: dict, data: dict | None = None,
                message: dict | None = None, guild: Mapping[str, Any] | None = None, id: str | None = None,
                token: str | None = None, app_permissions: int = ALL_PERMISSIONS, locale: str = "en-US",
                guild_locale: str = "en-US", attachment_size_limit: int = 10 * 1024 * 1024) -> dict:
    """Return an INTERACTION_CREATE payload; `user` is a member payload (guild) or a user payload (DM).

    `attachment_size_limit` is the largest file the bot may upload in answer (it depends on the server's boosts).
    """
    interaction_id = id or snowflake()
    payload: dict[str, Any] = {
        "id": interaction_id, "application_id": app_id, "type": type,
        "token": token or f"token-{interaction_id}", "version": 1, "attachment_size_limit": attachment_size_limit,
        "channel_id": channel["id"], "channel": channel, "app_permissions": str(app_permissions), "locale": locale,
        "entitlements": [], "entitlement_sku_ids": [],
    }
    guild_id = channel.get("guild_id")
    if guild_id is not None:
        payload.update(guild_id=guild_id, guild_locale=guild_locale, context=0,
                       authorizing_integration_owners={"0": guild_id})
        payload["guild"] = dict(guild or {"id": guild_id, "locale": guild_locale, "features": []})
        payload["member"] = user if "user" in user else member(user, permissions=MEMBER_PERMISSIONS)
    else:
        payload.update(context=1, authorizing_integration_owners={"0": "0"})
        payload["user"] = user.get("user", user)
    if data is not None:
        payload["data"] = data
    if message is not None:
        payload["message"] = message
    return payload


def slash_command(command: str, *path: str, app_id: str, channel: dict, user: dict,
                  options: Mapping[str, Any] | None = None, command_id: str | None = None,
                  command_guild_id: str | None = None, **extra: Any) -> dict:
    """Return a slash-command INTERACTION_CREATE (type 2), e.g. `slash_command("game", "new", options=...)`."""
    tree, resolved = command_options(path, options)
    data: dict[str, Any] = {"id": command_id or snowflake(), "name": command, "type": 1, "options": tree}
    if resolved:
        data["resolved"] = resolved
    if command_guild_id is not None:
        data["guild_id"] = command_guild_id
    return interaction(APPLICATION_COMMAND, app_id=app_id, channel=channel, user=user, data=data, **extra)


def autocomplete(command: str, *path: str, app_id: str, channel: dict, user: dict, options: Mapping[str, Any],
                 focused: str, command_id: str | None = None, command_guild_id: str | None = None,
                 **extra: Any) -> dict:
    """Return an autocomplete INTERACTION_CREATE (type 4) with `focused: true` on the named option."""
    tree, resolved = command_options(path, options, focused=focused)
    data: dict[str, Any] = {"id": command_id or snowflake(), "name": command, "type": 1, "options": tree}
    if resolved:
        data["resolved"] = resolved
    if command_guild_id is not None:
        data["guild_id"] = command_guild_id
    return interaction(AUTOCOMPLETE, app_id=app_id, channel=channel, user=user, data=data, **extra)


def component_interaction(custom_id: str, *, app_id: str, channel: dict, user: dict, message: dict,
                          component_type: int = BUTTON, values: Sequence[str] | None = None,
                          resolved: dict | None = None, **extra: Any) -> dict:
    """Return a component INTERACTION_CREATE (type 3): a button press or a select choice on `message`."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = list(values)
    if resolved:
        data["resolved"] = resolved
    return interaction(MESSAGE_COMPONENT, app_id=app_id, channel=channel, user=user, data=data, message=message,
                       **extra)


def modal_submit(custom_id: str, values: Mapping[str, str], *, app_id: str, channel: dict, user: dict,
                 message: dict | None = None, **extra: Any) -> dict:
    """Return a modal-submit INTERACTION_CREATE (type 5); `values` maps text-input custom_id to the typed text."""
    rows = [action_row({"type": TEXT_INPUT, "custom_id": cid, "value": value}) for cid, value in values.items()]
    data = {"custom_id": custom_id, "components": rows}
    return interaction(MODAL_SUBMIT, app_id=app_id, channel=channel, user=user, data=data, message=message, **extra)


class World:
    """One application, its bot user and a guild with channels, roles and members; builds consistent payloads."""

    def __init__(self, *, guild_name: str = "Test Guild", channel_name: str = "general", bot_name: str = "GameMaster",
                 app_id: str | None = None, locale: str = "en-US") -> None:
        """Create the bot user, the guild (@everyone role, one text channel) and members `owner` and `player`;
        `locale` is the guild's preferred locale and its members' clients' (an interaction may say otherwise)."""
        self.app_id = app_id or snowflake()
        self.locale = locale
        self.bot_user = user(bot_name, id=self.app_id, bot=True)
        self.guild_id = snowflake()
        self.guild_name = guild_name
        self.roles: list[dict] = [role("@everyone", id=self.guild_id, permissions=MEMBER_PERMISSIONS)]
        self.channels: list[dict] = []
        self.members: dict[str, dict] = {}
        self.dm_channels: dict[str, dict] = {}
        self.command_ids: dict[str, str] = {}
        self.guild_commands: set[str] = set()
        self.members[self.app_id] = member(self.bot_user)
        self.channel = self.add_channel(channel_name)
        self.owner = self.add_member("Owner", admin=True)
        self.player = self.add_member("Player")

    def add_channel(self, name: str, **kwargs: Any) -> dict:
        """Add a text channel to the guild and return its payload."""
        channel = text_channel(self.guild_id, name, position=len(self.channels), **kwargs)
        self.channels.append(channel)
        return channel

    def add_role(self, name: str, *, permissions: int = 0) -> dict:
        """Add a role to the guild and return its payload."""
        new_role = role(name, permissions=permissions, position=len(self.roles))
        self.roles.append(new_role)
        return new_role

    def add_member(self, name: str, *, roles: Sequence[dict] = (), admin: bool = False, nick: str | None = None,
                   id: str | None = None) -> dict:
        """Add a human member (optionally with an `Admin` role) and return the member payload."""
        role_ids = [r["id"] for r in roles]
        if admin:
            admin_role = next((r for r in self.roles if r["name"] == "Admin"), None)
            admin_role = admin_role or self.add_role("Admin", permissions=ADMINISTRATOR)
            role_ids.append(admin_role["id"])
        new_member = member(user(name, id=id), roles=role_ids, nick=nick)
        self.members[new_member["user"]["id"]] = new_member
        return new_member

    def user(self, user_id: str | int) -> dict | None:
        """Return the user payload with this id (guild members and DM recipients), or None."""
        found = self.members.get(str(user_id))
        return found["user"] if found else None

    def channel_by_id(self, channel_id: str | int) -> dict | None:
        """Return the guild or DM channel payload with this id, or None."""
        channel_id = str(channel_id)
        return next((c for c in [*self.channels, *self.dm_channels.values()] if c["id"] == channel_id), None)

    def dm_channel(self, user_payload: dict) -> dict:
        """Return (creating once) the DM channel between the bot and a user (or member) payload."""
        plain = user_payload.get("user", user_payload)
        if plain["id"] not in self.dm_channels:
            self.dm_channels[plain["id"]] = dm_channel(plain)
        return self.dm_channels[plain["id"]]

    def permissions(self, member_payload: dict) -> int:
        """Return the guild-level permission bits of a member (ALL when administrator or owner)."""
        if member_payload["user"]["id"] in (self.owner["user"]["id"], self.app_id):
            return ALL_PERMISSIONS
        role_ids = {self.guild_id, *member_payload["roles"]}
        bits = 0
        for r in self.roles:
            if r["id"] in role_ids:
                bits |= int(r["permissions"])
        return ALL_PERMISSIONS if bits & ADMINISTRATOR else bits

    def guild_payload(self) -> dict:
        """Return the GUILD_CREATE payload for the current guild state."""
        return guild(self.guild_id, name=self.guild_name, owner_id=self.owner["user"]["id"], roles=self.roles,
                     channels=self.channels, members=list(self.members.values()), locale=self.locale)

    def _actor(self, who: dict | None, channel: dict) -> dict:
        """Return the member payload (guild channel, with permissions) or user payload (DM) for an interaction."""
        who = who or self.player
        plain = who.get("user", who)
        if channel.get("guild_id") is None:
            return plain
        stored = self.members.get(plain["id"]) or member(plain)
        return {**stored, "permissions": str(self.permissions(stored))}

    def _common(self, user: dict | None, channel: dict | None) -> dict[str, Any]:
        """Return the keyword arguments shared by every interaction factory."""
        channel = channel or self.channel
        return {"app_id": self.app_id, "channel": channel, "user": self._actor(user, channel), "locale": self.locale,
                "guild_locale": self.locale}

    def _command_guild(self, command: str, guild_command: bool | None) -> str | None:
        """Return data.guild_id for a command: set for guild commands (None = synced to the guild only)."""
        if guild_command is None:
            guild_command = command in self.guild_commands
        return self.guild_id if guild_command else None

    def slash(self, command: str, *path: str, options: Mapping[str, Any] | None = None, user: dict | None = None,
              channel: dict | None = None, guild_command: bool | None = None, **extra: Any) -> dict:
        """Return a slash-command interaction from `user` (default: player) in `channel` (default: general)."""
        return slash_command(command, *path, options=options, command_id=self.command_ids.get(command),
                             command_guild_id=self._command_guild(command, guild_command),
                             **(self._common(user, channel) | extra))

    def autocomplete(self, command: str, *path: str, options: Mapping[str, Any], focused: str,
                     user: dict | None = None, channel: dict | None = None, guild_command: bool | None = None,
                     **extra: Any) -> dict:
        """Return an autocomplete interaction with `focused` marking the option being typed."""
        return autocomplete(command, *path, options=options, focused=focused, command_id=self.command_ids.get(command),
                            command_guild_id=self._command_guild(command, guild_command),
                            **(self._common(user, channel) | extra))

    def component(self, custom_id: str, *, message: dict, component_type: int | None = None,
                  values: Sequence[str] | None = None, user: dict | None = None, **extra: Any) -> dict:
        """Return a component interaction on `message`; the type is looked up in its components when omitted."""
        if component_type is None:
            found = next((c for c in iter_components(message.get("components", []))
                          if c.get("custom_id") == custom_id), None)
            component_type = found["type"] if found else (BUTTON if values is None else STRING_SELECT)
        channel = self.channel_by_id(message["channel_id"]) or self.channel
        return component_interaction(custom_id, message=message, component_type=component_type, values=values,
                                     **(self._common(user, channel) | extra))

    def modal_submit(self, custom_id: str, values: Mapping[str, str], *, user: dict | None = None,
                     channel: dict | None = None, message: dict | None = None, **extra: Any) -> dict:
        """Return a modal-submit interaction."""
        return modal_submit(custom_id, values, message=message, **(self._common(user, channel) | extra))
