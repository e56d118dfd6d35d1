"""What the banner and the legend say: every field the spec asks for (RISK-DIG-34, RISK-DIG-35)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest.mock import patch

import pytest

from engine.games.risk import RiskState
from renderer import risk
from renderer.draw import Canvas
from tests.engine.risk.helpers import IDS, P1, P2, P3, P4, Phase, position


@contextmanager
def drawn() -> Iterator[list[str]]:
    """Record every string the renderer draws."""
    texts: list[str] = []
    original = Canvas.text

    def spy(self: Canvas, xy: tuple[float, float], s: str, *args: object, **kwargs: object) -> object:
        texts.append(s)
        return original(self, xy, s, *args, **kwargs)  # type: ignore[arg-type]

    with patch.object(Canvas, "text", spy):
        yield texts


def game() -> RiskState:
    australia = {t: P1 for t in ("indonesia", "new_guinea", "western_australia", "eastern_australia")}
    owner = {t: (P2 if k % 2 else P3) for k, t in enumerate(IDS)} | australia
    return position(4, owner=owner, phase=Phase.REINFORCE, current=P2, pool=5, sets_traded=3,
                    hands={P1: ["alaska"], P2: ["peru", "japan"], P3: [], P4: []}, eliminated=(P4,), turn=12,
                    fortify_mode="connected")


@pytest.mark.rule("RISK-DIG-35")
def test_the_banner_shows_turn_player_phase_pool_sets_deck_and_options() -> None:
    state = game()
    with drawn() as texts:
        risk.render(state)
    joined = "\n".join(texts)
    assert "Turn 12" in texts and "Player2" in texts and "Reinforcement" in joined
    assert "Armies to place: 5" in texts
    assert "Sets traded: 3 · next set: 10" in joined
    assert f"Cards in deck: {len(state.deck)}" in joined
    assert "Standard" in joined and "Fortify: connected" in joined


@pytest.mark.rule("RISK-DIG-34")
def test_the_legend_shows_each_player_their_counts_continents_outlook_and_who_is_out() -> None:
    state = game()
    with drawn() as texts:
        risk.render(state)
    joined = "\n".join(texts)
    for pid, name in ((P1, "Player1"), (P2, "Player2"), (P3, "Player3"), (P4, "Player4")):
        assert name in texts
        owned = state.territories_of(pid)
        cards = len(state.hands.get(pid, []))
        assert f"Territories {len(owned)} · Armies {sum(state.armies[t] for t in owned)} · Cards {cards}" in joined
    assert "Next turn +5" in texts, "Player1: 4 territories → 3, plus Australia's 2"
    assert "AU" in texts, "continents held are shown"
    assert "Eliminated" in texts


@pytest.mark.rule("RISK-DIG-36")
def test_a_key_under_the_legend_explains_the_arrows_the_outlines_and_the_moving_in_badge() -> None:
    with drawn() as texts:
        risk.render(game())
    for text in ("Last turn:", "attack", "fortify move", "conquered", "fortified",
                 "armies about to move in after a conquest: at least 3, the attacker picks how many"):
        assert text in texts
