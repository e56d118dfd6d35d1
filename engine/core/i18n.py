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
    merged: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / locale).glob("*.json")):
        part = json.loads(path.read_text(encoding="utf-8"))
        clash = merged.keys() & part.keys()
        if clash:
            raise ValueError(f"{path}: message ids defined twice: {sorted(clash)}")
        merged.update(part)
    return merged


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
