"""One translation function for every player-facing string, keyed by message id.

A catalogue message is text with `{name}` parameters and ICU-style choices:
`{n, plural, one {# army} other {# armies}}` picks the plural category of `n` in the locale (`=0 {…}` matches a
number exactly; `#` is the number), and `{kind, select, boat {…} other {…}}` picks by a parameter's value.
Braces in a message's text (outside a choice) are written `{{` and `}}`.

The messages are chat text (Discord's markdown). A parameter is inserted as it is; text that a player typed or
chose (a name, a typed word) goes through `inert` first, so it never acts as markup or a mention, and nothing
a player typed is ever looked up as a message id: a message quotes another only through `Msg`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

LOCALES_DIR = Path(__file__).resolve().parents[2] / "data" / "locales"
DEFAULT_LOCALE = "en"
LANGUAGES = ("en", "de", "ru", "ko")
"""The languages the bot speaks, each with a complete catalogue; any other locale reads English."""
PLURAL_FORMS = {"en": ("one", "other"), "de": ("one", "other"), "ru": ("one", "few", "many", "other"),
                "ko": ("other",)}
"""The CLDR plural categories of each language (as `plural_category` gives them for the bot's numbers)."""


PSEUDO_LOCALE = "qps"
"""A pseudo-locale: English with every letter of the catalogue's text swapped for an accented look-alike, so that
any plain ASCII word a player would read shows text that bypassed the catalogue (names from data, words from code)."""
_PSEUDO_LETTERS = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                "áƀçďéƒĝĥíĵķĺɱñóƥʠŕšţúʋŵẋýžÁßÇĎÉƑĜĤÍĴĶĹṀÑÓƤǪŔŠŢÚṼŴẊÝŽ")


def language_of(locale: str | None) -> str:
    """The language of the bot's that a Discord locale (`ko`, `en-US`, `pt-BR`) reads: its own, else English."""
    language = (locale or "").split("-")[0].lower()
    return language if language in LANGUAGES else DEFAULT_LOCALE


@dataclass(frozen=True, slots=True)
class Msg:
    """Another catalogue message as a parameter, translated in the locale of the message that quotes it."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)


@cache
def catalogue(locale: str) -> dict[str, str]:
    """Every message of `locale`: the union of `data/locales/<locale>/*.json` (one file per game or area)."""
    if locale == PSEUDO_LOCALE:
        pseudo = {key: _serialise(_pseudo(_parse(text))) for key, text in catalogue(DEFAULT_LOCALE).items()}
        return pseudo | {f"language.{PSEUDO_LOCALE}": "Ƥšéúďó"}  # its own name, should a game speak it
    merged: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / locale).glob("*.json")):
        part = json.loads(path.read_text(encoding="utf-8"))
        clash = merged.keys() & part.keys()
        if clash:
            raise ValueError(f"{path}: message ids defined twice: {sorted(clash)}")
        merged.update(part)
    return merged


def option_value(value: Any) -> Msg | str:
    """A game option's value as `/new` offers it (`cmd.choice.<value>`): a choice's name, yes or no, or the
    number."""
    if isinstance(value, bool):
        return msg("option.yes" if value else "option.no")
    if isinstance(value, str) and f"cmd.choice.{value}" in catalogue(DEFAULT_LOCALE):
        return msg(f"cmd.choice.{value}")
    return inert(str(value))


def in_every_language(message: Msg) -> tuple[str, ...]:
    """A message's text (a name) in each language the bot speaks, English first, without repeats: what a player
    may type for it."""
    found = (catalogue(language).get(message.key) for language in LANGUAGES)
    return tuple(dict.fromkeys(text for text in found if text))


def words(message: Msg | str, locale: str = DEFAULT_LOCALE) -> str:
    """A message built ahead (`msg(...)`) rendered in `locale`; text that is already rendered stays as it is."""
    return message if isinstance(message, str) else translate(message.key, locale, **message.params)


def translate(key: str, locale: str = DEFAULT_LOCALE, **params: Any) -> str:
    """Render message `key` in `locale`, falling back to English, then to the key itself.

    A `Msg` parameter is translated in the same locale; a list parameter is rendered item by item and joined
    with commas. A parameter the message names but the caller did not give shows as `{name}`.
    """
    template = catalogue(locale).get(key) or catalogue(DEFAULT_LOCALE).get(key) or key
    return _render(_parse(template), params, locale, None)


def _value(value: Any, locale: str) -> str:
    if isinstance(value, Msg):
        return translate(value.key, locale, **value.params)
    if isinstance(value, list | tuple):
        return ", ".join(_value(v, locale) for v in value)
    return _number(value)


NAMED = 3
"""A summary names at most this many things of a kind (conquests, captures), and only counts more."""


def and_list(items: list[str], locale: str = DEFAULT_LOCALE) -> str:
    """`a`, `a and b`, `a, b and c` in the locale's own words (CLDR's list patterns, in the catalogue)."""
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return translate("list.two", locale, a=items[0], b=items[1])
    text = translate("list.end", locale, a=items[-2], b=items[-1])
    for item in reversed(items[:-2]):
        text = translate("list.middle", locale, a=item, b=text)
    return text


# -- plural categories (CLDR, integers and decimals as the bot uses them)


def plural_category(locale: str, n: float) -> str:
    """The CLDR plural category of `n` in `locale`: one, few, many or other."""
    language = locale.split("-")[0].lower()
    whole = float(n).is_integer()
    i = abs(int(n))
    if language in ("ko", "ja", "zh"):
        return "other"
    if language in ("ru", "uk"):
        if not whole:
            return "other"
        if i % 10 == 1 and i % 100 != 11:
            return "one"
        if 2 <= i % 10 <= 4 and not 12 <= i % 100 <= 14:
            return "few"
        return "many"
    return "one" if whole and i == 1 else "other"


# -- the message syntax


@dataclass(frozen=True, slots=True)
class _Arg:
    name: str


@dataclass(frozen=True, slots=True)
class _Choice:
    name: str
    kind: str
    """"plural" or "select"."""
    branches: dict[str, tuple[Any, ...]]


_Node = str | _Arg | _Choice
_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*")
_SELECTOR = re.compile(r"\s*(=?[A-Za-z0-9_.-]+)\s*")


class _Reader:
    """A cursor over a message's text while it is parsed."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def nodes(self, in_branch: bool) -> tuple[_Node, ...]:
        out: list[_Node] = []
        plain: list[str] = []
        while self.at < len(self.text):
            c = self.text[self.at]
            if not in_branch and self.text.startswith(("{{", "}}"), self.at):
                plain.append(c)
                self.at += 2
            elif c == "}" and in_branch:
                break
            elif c == "{":
                node = self.placeholder()
                if isinstance(node, str):
                    plain.append(node)
                    continue
                if plain:
                    out.append("".join(plain))
                    plain = []
                out.append(node)
            elif c == "#" and in_branch:
                if plain:
                    out.append("".join(plain))
                    plain = []
                out.append(_Arg("#"))
                self.at += 1
            else:
                plain.append(c)
                self.at += 1
        if plain:
            out.append("".join(plain))
        return tuple(out)

    def placeholder(self) -> _Node:
        """`{name}` or `{name, plural|select, …}` at the cursor; text that is neither stays text."""
        start = self.at
        name = _NAME.match(self.text, start + 1)
        if name is None:
            self.at += 1
            return "{"
        self.at = name.end()
        if self.text.startswith("}", self.at):
            self.at += 1
            return _Arg(name.group(1))
        kind = _NAME.match(self.text, self.at + 1) if self.text.startswith(",", self.at) else None
        if kind is None or kind.group(1) not in ("plural", "select") or not self.text.startswith(",", kind.end()):
            self.at = start + 1
            return "{"
        self.at = kind.end() + 1
        branches: dict[str, tuple[Any, ...]] = {}
        while True:
            selector = _SELECTOR.match(self.text, self.at)
            if selector is None or not self.text.startswith("{", selector.end()):
                break
            self.at = selector.end() + 1
            branches[selector.group(1)] = self.nodes(in_branch=True)
            if not self.text.startswith("}", self.at):
                raise ValueError(f"unclosed choice in message: {self.text!r}")
            self.at += 1
        rest = re.compile(r"\s*}").match(self.text, self.at)
        if rest is None or "other" not in branches:
            raise ValueError(f"a choice needs an `other` branch and a closing brace: {self.text!r}")
        self.at = rest.end()
        return _Choice(name.group(1), kind.group(1), branches)


def shape(template: str) -> dict[str, str | frozenset[str]]:
    """What a message needs of its caller: each parameter it names, as "text", "select", or the set of plural
    branches it offers (`#` counts as none). Two translations of one message have the same parameters."""
    found: dict[str, str | frozenset[str]] = {}

    def walk(nodes: tuple[_Node, ...]) -> None:
        for node in nodes:
            if isinstance(node, _Arg) and node.name != "#":
                found.setdefault(node.name, "text")
            elif isinstance(node, _Choice):
                found[node.name] = frozenset(node.branches) if node.kind == "plural" else "select"
                for branch in node.branches.values():
                    walk(branch)

    walk(_parse(template))
    return found


def _pseudo(nodes: tuple[_Node, ...]) -> tuple[_Node, ...]:
    """The message's own words in look-alike letters; parameters and choices stay what they are."""
    return tuple(node.translate(_PSEUDO_LETTERS) if isinstance(node, str) else
                 _Choice(node.name, node.kind, {k: _pseudo(v) for k, v in node.branches.items()})
                 if isinstance(node, _Choice) else node for node in nodes)


def _serialise(nodes: tuple[_Node, ...], in_branch: bool = False) -> str:
    """A parsed message as message text again (`_parse` reads it back as the same nodes)."""
    out: list[str] = []
    for node in nodes:
        if isinstance(node, str):
            out.append(node if in_branch else node.replace("{", "{{").replace("}", "}}"))
        elif isinstance(node, _Arg):
            out.append("#" if node.name == "#" else "{" + node.name + "}")
        else:
            branches = " ".join(f"{k} {{{_serialise(v, True)}}}" for k, v in node.branches.items())
            out.append(f"{{{node.name}, {node.kind}, {branches}}}")
    return "".join(out)


@cache
def _parse(template: str) -> tuple[_Node, ...]:
    return _Reader(template).nodes(in_branch=False)


def _render(nodes: tuple[_Node, ...], params: dict[str, Any], locale: str, number: Any) -> str:
    out: list[str] = []
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, _Arg):
            if node.name == "#":
                out.append(_number(number))
            elif node.name in params:
                out.append(_value(params[node.name], locale))
            else:
                out.append("{" + node.name + "}")
        else:
            value = params.get(node.name)
            if node.kind == "plural":
                count = value if isinstance(value, int | float) else 0
                exact, category = f"={_number(count)}", plural_category(locale, count)
                branch = node.branches.get(exact, node.branches.get(category, node.branches["other"]))
                out.append(_render(branch, params, locale, count))
            else:
                out.append(_render(node.branches.get(str(value), node.branches["other"]), params, locale, number))
    return "".join(out)


def _number(n: Any) -> str:
    """A value as text; a float without a needless `.0`."""
    return f"{n:g}" if isinstance(n, float) else str(n)


def mention(user_id: int) -> str:
    """A member as chat shows them (their name, clickable); it pings only where the post allows it."""
    return f"<@{user_id}>"


def timestamp(when: float, style: str = "R") -> str:
    """A moment as chat shows it: each reader sees it in their own time zone, and it never goes stale."""
    return f"<t:{int(when)}:{style}>"


# -- text a player typed

_MARKUP = re.compile(r"([\\*_~|`\[<@])|^([#>-])")
"""Characters that start markup, a mention or a link anywhere, and a heading, a quote or a list at the start."""


def inert(text: str) -> str:
    """`text` (a name, something typed) escaped so that chat shows it literally: no markup, no mention."""
    return _MARKUP.sub(lambda m: "\\" + m.group(0), text)
