"""The command tree in every language the bot speaks: names, descriptions and choices, from the catalogues.

discord.py asks the translator for each string of the tree when it syncs. A string made with `described(key)`
carries its catalogue id; any other is found by where it stands: `cmd.<command path>.name`,
`cmd.<command path>.description`, `cmd.<command path>.<option>.name` and `….description`, and
`cmd.choice.<value>` for a choice. `commands.json` in the English catalogue holds the English of those, made
from the tree itself (`english`), so each language translates them like any other message. A language's own
name (a choice of `language:`) is never translated: readers look for it in their own words.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from engine.core.i18n import DEFAULT_LOCALE, LANGUAGES, catalogue, language_of, translate

ENDONYMS = frozenset(LANGUAGES)
"""Choice values that are languages, named in their own words in every locale."""
LANGUAGE_CHOICES = tuple(app_commands.Choice(name=translate("language.own", code), value=code) for code in LANGUAGES)
"""The bot's languages as the choices of a `language:` option (a reader finds theirs whatever the locale)."""


def described(key: str, **params: Any) -> app_commands.locale_str:
    """A description from the catalogue: English in the tree, translated by its id for other locales."""
    return app_commands.locale_str(translate(key, **params), key=key, params=params)


def path(command: app_commands.Command[Any, ..., Any] | app_commands.Group | str) -> str:
    """The catalogue prefix of a command's strings (`risk attack` → `cmd.risk.attack`), from it or its name."""
    name = command if isinstance(command, str) else command.qualified_name
    return "cmd." + name.replace(" ", ".")


def key_of(string: app_commands.locale_str, context: app_commands.TranslationContext[Any, Any]) -> str | None:
    """The catalogue id of one string of the tree (None: a string that is never translated)."""
    if "key" in string.extras:
        return str(string.extras["key"])
    data = context.data
    if context.location in (Where.command_name, Where.group_name):
        return f"{path(data)}.name"
    if context.location in (Where.command_description, Where.group_description):
        return f"{path(data)}.description"
    if context.location is Where.parameter_name:
        return f"{path(data.command)}.{data.name}.name"
    if context.location is Where.parameter_description:
        return f"{path(data.command)}.{data.name}.description"
    if context.location is Where.choice_name and data.value not in ENDONYMS:
        return f"cmd.choice.{data.value}"
    return None


class CatalogueTranslator(app_commands.Translator):
    """Looks each string of the command tree up in the catalogue of the locale Discord asks for."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        language = language_of(locale.value)
        if language == DEFAULT_LOCALE:
            return None  # the tree's own English
        key = key_of(string, context)
        text = catalogue(language).get(key) if key is not None else None
        if text is None:
            return None
        params = string.extras.get("params") or {}
        return translate(key, language, **params) if params else text


def english(tree: app_commands.CommandTree[Any]) -> dict[str, str]:
    """The English of every string of `tree` that is found by where it stands (the content of `commands.json`)."""
    found: dict[str, str] = {}
    for command in tree.walk_commands():
        base = path(command)
        found[f"{base}.name"] = command.name
        own: app_commands.locale_str | None = getattr(command, "_locale_description", None)
        if own is None or "key" not in own.extras:
            found[f"{base}.description"] = command.description
        if isinstance(command, app_commands.Group):
            continue
        for parameter in command.parameters:
            found[f"{base}.{parameter.name}.name"] = parameter.name
            if "key" not in parameter.locale_description.extras:
                found[f"{base}.{parameter.name}.description"] = parameter.description
            for choice in parameter.choices:
                if str(choice.value) not in ENDONYMS:
                    found[f"cmd.choice.{choice.value}"] = choice.name
    return dict(sorted(found.items()))


QUOTED_COMMAND = re.compile(r"`/([a-z][\w-]*(?: [^`\s]+)*)`")
"""A command quoted in a message, with or without its options: `/risk attack`, `/risk attack source target`."""
OPTION_WORD = re.compile(r"^([<\[]?)([a-z][\w-]*)(.*)$")
"""An option as a message quotes it: `count`, `<region>`, `[count]`, `kills:…`."""


class CommandLinks:
    """Turns each quoted command of a message into Discord's mention of it, which every reader sees under the name
    their own language gives it and can click; the options quoted after it are named as that language names
    them. Before the commands are synced, text is unchanged."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.options: dict[str, frozenset[str]] = {}
        """Every command path of the tree (not a group) with the names of its options."""

    def learn(self, tree: app_commands.CommandTree[Any], synced: list[app_commands.AppCommand]) -> None:
        """The ids Discord gave the commands it synced, and every command path of the tree with its options."""
        self.ids = {command.name: command.id for command in synced}
        self.options = {c.qualified_name: frozenset(p.name for p in c.parameters) for c in tree.walk_commands()
                        if not isinstance(c, app_commands.Group)}

    def __call__(self, text: str, language: str = DEFAULT_LOCALE) -> str:
        if not self.ids:
            return text

        def mention(quoted: re.Match[str]) -> str:
            words = quoted.group(1).split(" ")
            known = self.ids.get(words[0])
            if known is None:
                return quoted.group(0)
            for cut in range(min(3, len(words)), 0, -1):  # the longest command path the quote starts with
                command = " ".join(words[:cut])
                if command in self.options:
                    rest = " ".join(self.option(command, word, language) for word in words[cut:])
                    return f"</{command}:{known}>" + (f" `{rest}`" if rest else "")
            return quoted.group(0)

        return QUOTED_COMMAND.sub(mention, text)

    def option(self, command: str, word: str, language: str) -> str:
        """One quoted word after a command: an option of it named in `language`, or the word as it is."""
        parts = OPTION_WORD.match(word)
        if parts is None or parts.group(2) not in self.options[command]:
            return word
        named = catalogue(language).get(f"{path(command)}.{parts.group(2)}.name", parts.group(2))
        return parts.group(1) + named + parts.group(3)
