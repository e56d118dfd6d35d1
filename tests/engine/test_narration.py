"""Narration lines: battles on one front share a line, each game saying what a next battle adds (its `sequel`)."""

from __future__ import annotations

from engine.games.risk import RULESET as RISK
from engine.games.risk import events as RE
from engine.games.wizards_quest import RULESET as WQ
from engine.games.wizards_quest import events as WE
from engine.service.news import narrate
from tests.engine.risk.helpers import P1, P2
from tests.engine.risk.helpers import position as risk_position
from tests.engine.wizards_quest.helpers import position as wq_position


def risk_battle(target: str, attack: list[int], defence: list[int]) -> RE.Battle:
    lost = sum(a <= d for a, d in zip(sorted(attack, reverse=True), defence, strict=False))
    return RE.Battle(player=P1, source="alaska", target=target, defender=P2, attack_dice=attack,
                     defence_dice=defence, attacker_losses=lost, defender_losses=len(defence) - lost)


def test_risk_rounds_on_one_front_share_a_line() -> None:
    s = risk_position()
    events = [risk_battle("kamchatka", [1, 1, 1], [6, 6]), risk_battle("kamchatka", [6, 6, 6], [1, 1]),
              RE.Conquered(player=P1, source="alaska", target="kamchatka", previous_owner=P2),
              risk_battle("northwest_territory", [5], [6])]
    lines = narrate(RISK, s, events)
    assert lines[0] == ("⚔️ Alaska → Kamchatka: the attacker rolls 1-1-1, the defender 6-6; the attacker loses "
                        "2 armies. · the attacker rolls 6-6-6, the defender 1-1; the defender loses 2 armies.")
    assert len(lines) == 3 and lines[2].startswith("⚔️ Alaska → Northwest Territory: the attacker rolls 5,")


def test_wizards_quest_battles_of_one_attack_share_a_line() -> None:
    s = wq_position(2)

    def battle(n: int, roll: int, won: bool, target: str = "1.2") -> WE.Battle:
        return WE.Battle(player=P1, number=n, source="1.1", target=target, against="player", defender=P2,
                         roll=roll, d=3, attacker_won=won, attacker_left=4, defender_left=1)

    lines = narrate(WQ, s, [battle(1, 2, False), battle(2, 5, True), battle(1, 6, True, "1.4")])
    assert lines[0] == ("Battle 1: 🎲 2, not above the defence of 3 → the defender holds; Player1 loses 1 (4 left)."
                        " · 🎲 5, above the defence of 3 → the attacker wins (4 left, defender 1).")
    assert lines[1].startswith("Battle 1: 🎲 6,") and len(lines) == 2
