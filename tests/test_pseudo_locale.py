"""No English reaches a player by a way around the catalogues: every game's narration, prompts, buttons, summaries,
rule errors, text board and board picture, rendered in the pseudo-locale (every catalogue letter swapped for an
accented look-alike), hold no plain ASCII word. A word that shows came from code or data, untranslated."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core.errors import RuleError
from engine.core.i18n import PSEUDO_LOCALE, words
from engine.core.models import Action, Event, GameState, Seat, to_json
from engine.core.play import play_out
from engine.games import get, specs
from renderer import draw, has_board, render_board

NAMES = ("Ñáďá", "Ƀóŕíš", "Çĥíýó", "Ďɱíţŕí", "Éúñĵí", "Ƒáŕáĥ")
"""Seat names without an ASCII letter, so that any ASCII word is the bot's."""
TOKENS = re.compile(r"<(?:@|#|t:|/)[^>]*>|\b[A-Z]-[A-Z]{3}\b|\b[A-Z]{1,4}-?[A-Z]{0,4}\d+[a-z]?\b"
                    r"|\b\d+(?:\.\d+)?[a-z]?\b")
"""What may stay ASCII: mentions of members, channels, times and commands (Discord shows a command's mention in
the reader's language), ids like N06, H-DAQ, SP01, C7, BM-CMB-3, and numbers like 1.1 or 3d."""
WORD = re.compile(r"[A-Za-z]{3,}")


def english(text: str) -> list[str]:
    return WORD.findall(TOKENS.sub(" ", text))


def shown(ruleset: Any, state: GameState, events: list[Event], players: list[int]) -> Iterator[str]:
    """Everything the rules make players read about one step, in the pseudo-locale."""
    for event in events:
        text = ruleset.narrate(event, state, PSEUDO_LOCALE)
        if text:
            yield text
    for decision in ruleset.pending(state):
        yield ruleset.prompt(decision, state, PSEUDO_LOCALE)
        for control in ruleset.controls(state, decision.player, events):
            yield words(control.label, PSEUDO_LOCALE)
            yield from (words(option.label, PSEUDO_LOCALE) for option in control.options)
    for player in players:
        yield ruleset.summary(player, events, state, PSEUDO_LOCALE)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the board pictures draw."""
    texts: list[str] = []
    original = draw.Canvas.text

    def text(self: Any, at: Any, content: str, *args: Any, **kwargs: Any) -> Any:
        texts.append(content)
        return original(self, at, content, *args, **kwargs)

    monkeypatch.setattr(draw.Canvas, "text", text)
    return texts


@pytest.mark.parametrize("game", [s.name for s in specs()])
def test_no_english_bypasses_the_catalogue(game: str, drawn: list[str]) -> None:
    ruleset = get(game)
    seats = [Seat(id=100 + k, name=NAMES[k]) for k in range(4)]
    state, opening = ruleset.new_game(seats, ruleset.options_model(), 11)
    players = [s.id for s in seats]
    policies = {s.id: ruleset.policy("random" if k % 2 else "baseline") for k, s in enumerate(seats)}
    rng = random.Random(5)
    found: dict[str, str] = {}

    def read(text: str) -> None:
        for word in english(text):
            found.setdefault(word, text)

    for text in shown(ruleset, state, list(opening), players):
        read(text)

    def step(before: GameState, action: Action, after: GameState, events: list[Event]) -> None:
        for text in shown(ruleset, after, events, players):
            read(text)
        if rng.random() < 0.2:  # the same move by someone else: the refusal a player would read
            other = rng.choice([p for p in players if p != action.player])
            try:
                ruleset.apply(before, ruleset.parse_action(to_json(action) | {"player": other}))
            except RuleError as err:
                read(err.localized(PSEUDO_LOCALE))
        if after.seq % 25 == 0:
            read(ruleset.text_board(ruleset.view(after, None), PSEUDO_LOCALE))
            if has_board(game):
                render_board(ruleset.view(after, None), events, locale=PSEUDO_LOCALE)

    final, _ = play_out(ruleset, state, policies, 3, max_actions=400, on_step=step)
    read(ruleset.text_board(ruleset.view(final, None), PSEUDO_LOCALE))
    if has_board(game):
        render_board(ruleset.view(final, None), [], locale=PSEUDO_LOCALE)
    assert drawn or not has_board(game), "the pictures were looked at"
    for text in drawn:
        read(text)
    assert not found, "English a player reads: " + "; ".join(f"{w!r} in {t[:120]!r}" for w, t in found.items())


def test_the_check_sees_english() -> None:
    assert english("Ñáďá ƀúýš Alaska (<@12> <t:99:R>) N06 SP01 BM-CMB-3 1.1") == ["Alaska"]
