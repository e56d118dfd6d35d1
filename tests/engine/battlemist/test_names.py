"""Battlemist names things in the reader's language: regions, races, cards, monsters, event outcomes and the words
the code puts into messages (terrains, phases, steps, resources) come from the catalogue, in rule errors, labels,
autocomplete and narration alike; and a name typed in any of the bot's languages is understood."""

from __future__ import annotations

import re
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core import i18n
from engine.core import orders as O
from engine.core.errors import RuleError
from engine.core.i18n import translate, words
from engine.core.models import Action, copier
from engine.core.rng import Rng
from engine.games.battlemist import battle, economy, legal, quest_state, text
from engine.games.battlemist import commands as C
from engine.games.battlemist import council as CO
from engine.games.battlemist import initiative as I
from engine.games.battlemist import movement as M
from engine.games.battlemist import quest_events as QE
from engine.games.battlemist import setup as SE
from engine.games.battlemist import upkeep as UP
from engine.games.battlemist.data import load
from engine.games.battlemist.economy import Disband, Merchant
from engine.games.battlemist.phases import PHASE_OF
from engine.games.battlemist.quest import HeroMove
from engine.games.battlemist.rules import apply
from engine.games.battlemist.state import BMOptions, BMState, Phase
from tests.engine.battlemist.council_tools import seats
from tests.engine.battlemist.helpers import position
from tests.engine.battlemist.quest_helpers import hero, step
from tests.texts import stub_catalogues

PACKAGE = Path(M.__file__).parent
copy = copier(BMState)

RUSSIAN = {
    "BM_E_MUST_STOP_TERRAIN": "Войдя в регион {region} ({terrain}), отряды должны остановиться.",
    "BM_E_MUST_STOP_ENEMY": "Войдя в регион {region}, отряды должны остановиться: там отряды расы {race}.",
    "BM_E_WRONG_PHASE": "Сейчас это невозможно: игра на этапе {phase}/{step}.",
    "BM_E_HERO_MUST_STOP": "{hero} должен был остановиться в регионе {region} ({terrain}).",
    "BM_E_LOCKED": "Вы уже зафиксировали: {what}.",
    "bm.name.region.N11": "Ровня",
    "bm.name.region.N12": "Железный пик",
    "bm.name.region.N20": "Королевское поле",
    "bm.name.race.ORC": "Орки Зула",
    "bm.name.action.AC02": "Марш-бросок",
    "bm.name.event.EV2": "Чума",
    "bm.name.monster.wolf": "Волк",
    "bm.term.terrain.mountain": "горы",
    "bm.term.phase.individual": "индивидуальные ходы",
    "bm.term.step.quest": "шаг заданий",
    "bm.term.what.initiative": "инициатива",
    "bm.term.outcome.EV2.a": "Где у игрока 7+ армейских отрядов, он убирает 2 из них.",
    "bm.term.outcome.EV2.b": "То же при 4+ отрядах.",
    "bm.text.hero": "герой {n} игрока {player}",
    "bm.button.action": "{action}: {detail}",
    "bm.action.pick_race": "Взять",
    "bm.term.detail.race": "расу {race}",
    "bm.action.upkeep": "Подтвердить содержание",
    "bm.term.detail.disband": "роспуск в регионе {region}: {units}",
    "bm.term.detail.trade": "обмен: {give} → {get}",
    "bm.res.iron": "{n} железа",
    "bm.term.resource.grain": "зерно",
    "bm.text.unit.cavalry": "{n, plural, one {# всадник} few {# всадника} many {# всадников} other {# всадника}}",
}
KOREAN = {
    "bm.name.region.N05": "세 왕자",
    "bm.name.region.N11": "동료들",
    "bm.name.race.ORC": "줄 오크",
    "bm.text.kind.archers": "궁수",
    "bm.term.resource.iron": "철",
}


@pytest.fixture
def stub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The shipped English catalogue, and a Russian and a Korean one of a few messages (the rest reads English)."""
    with stub_catalogues(tmp_path, monkeypatch, {"ru": RUSSIAN, "ko": KOREAN}, shipped=("en",)):
        yield


def refused(state: BMState, action: Action) -> RuleError:
    with pytest.raises(RuleError) as err:
        apply(state, action)
    return err.value


def moving(**fields: object) -> BMState:
    """Player 1's movement step, just opened (Knights of Daqan against the Zul Orcs)."""
    state = position(**fields)  # type: ignore[arg-type]
    M.begin_movement(state, Rng(state.rng))
    return state


# ---------------------------------------------------------------------------------------------------- rule errors


@pytest.mark.usefixtures("stub")
def test_a_rule_error_names_the_region_its_terrain_and_a_race_in_the_readers_language() -> None:
    state = moving(troops={"N20": {1: {"cavalry": 2}}, "N11": {2: {"infantry": 1}}})
    terrain = refused(state, M.Move(player=1, n=1, unit="cavalry", origin="N20", path=("N12", "N04")))
    assert terrain.message == "Units must stop on entering N12 Ironpeak (mountain)."
    assert terrain.localized("ru") == "Войдя в регион N12 Железный пик (горы), отряды должны остановиться."
    enemy = refused(state, M.Move(player=1, n=1, unit="cavalry", origin="N20", path=("N11", "N04")))
    assert enemy.message == "Units must stop on entering N11 The Peers: Zul Orcs units are there."
    assert enemy.localized("ru") == "Войдя в регион N11 Ровня, отряды должны остановиться: там отряды расы Орки Зула."


@pytest.mark.usefixtures("stub")
def test_the_wrong_phase_names_its_phase_and_step_in_the_readers_language() -> None:
    err = refused(position(phase=Phase.QUEST, troops={"N20": {1: {"infantry": 1}}}),
                  M.Move(player=1, n=1, unit="infantry", origin="N20", path=("N11",)))
    assert err.message == "That is not possible now: the game is in individual/quest."
    assert err.localized("ru") == "Сейчас это невозможно: игра на этапе индивидуальные ходы/шаг заданий."


@pytest.mark.usefixtures("stub")
def test_a_hero_and_a_locked_initiative_are_named_by_the_catalogue() -> None:
    knights = step(heroes=[hero(1, 1, "H-DAQ")], quests={1: "QA01"})
    err = refused(knights, HeroMove(player=1, hero=1, path=["N12", "N11"]))
    assert err.message == "P1's hero 1 had to stop on entering N12 (mountain)."
    assert err.localized("ru") == "герой 1 игрока P1 должен был остановиться в регионе N12 (горы)."
    book = O.lock(O.submit(O.Orders(seats=[1, 2]), 1, 0), 1)
    rolled = position(phase=Phase.INITIATIVE, initiative=I.InitiativeState(rolls={1: 3, 2: 4}, large={1: 1, 2: 1},
                                                                           choices=book))
    with pytest.raises(RuleError) as locked:
        I.choose_initiative(copy(rolled), I.InitiativeMod(player=1, change=1), Rng(rolled.rng))
    assert locked.value.message == "You already locked your initiative."
    assert locked.value.localized("ru") == "Вы уже зафиксировали: инициатива."


def _steps_named_in_code() -> set[str]:
    """Every step a BM_E_WRONG_PHASE can name: the phases, the stages of the quest step, a battle and the economy,
    and the words the rules pass to `wrong_phase` (a council choice names its action's type)."""
    found = {p.value for p in Phase} | {"plague_losses", "uprising_payment"}
    for stage in (quest_state.Stage, battle.Stage, economy.Step):
        found |= set(typing.get_args(stage))
    for path in PACKAGE.glob("*.py"):
        found |= set(re.findall(r'wrong_phase\(state\.phase, (?:[^"()]* if [^"()]* else )?"([^"]+)"',
                                path.read_text(encoding="utf-8")))
    return found


def test_every_step_and_phase_a_wrong_phase_names_has_a_message() -> None:
    steps = _steps_named_in_code()
    assert {"place_tile", "pick_race", "discard", "vote", "encounter", "battle", "-"} <= steps
    english = i18n.catalogue("en")
    assert not {s for s in steps if f"bm.term.step.{s}" not in english}
    assert all(f"bm.term.phase.{p}" in english for p in PHASE_OF.values())


def test_the_event_outcomes_are_the_data_files_words() -> None:
    """The English of `bm.term.outcome.…` is what data/battlemist/cards.json prints on each event card."""
    for card in load().cards.events:
        assert translate(f"bm.term.outcome.{card.id}.a") == card.a
        assert translate(f"bm.term.outcome.{card.id}.b") == card.b


# ---------------------------------------------------------------------------------------------------- labels


@pytest.mark.usefixtures("stub")
def test_buttons_and_menus_name_what_they_do_in_the_readers_language() -> None:
    take = legal.describe(position(phase=Phase.DRAFT), SE.PickRace(player=1, race="ORC"))
    assert (words(take, "en"), words(take, "ru")) == ("Take race ORC", "Взять: расу ORC")
    plan = UP.SubmitUpkeep(player=1, trades=(Merchant(give="iron", amount=3, get="grain"),),
                           disband=(Disband(region="N20", what="cavalry", n=2),))
    shown = legal.describe(position(phase=Phase.UPKEEP), plan)
    assert words(shown, "en") == "Confirm maintenance trade 3 iron for grain, disband 2 cavalry in N20"
    assert words(shown, "ru") == "Подтвердить содержание: обмен: 3 железа → зерно, роспуск в регионе N20: 2 всадника"
    forced = legal.describe(moving(troops={"N20": {1: {"infantry": 1}}}, hands={1: ["AC02"]}),
                            M.MovePlay(player=1, card="AC02", region="N20"))
    assert words(forced, "en") == "Forced March (AC02) on the units starting in N20 Kingsfield"
    assert words(forced, "ru").startswith("Марш-бросок (AC02)") and "N20 Королевское поле" in words(forced, "ru")


@pytest.mark.usefixtures("stub")
def test_autocomplete_shows_regions_by_their_name_and_finds_them_in_any_language() -> None:
    state = moving(troops={"N20": {1: {"infantry": 1}}})
    choice = next(c for c in legal.choices(state, 1, "move.path", unit="infantry", origin="N20") if c.value == "N11")
    assert (words(choice.label, "en"), words(choice.label, "ko")) == ("N11 The Peers", "N11 동료들")
    assert {"the peers", "동료들", "ровня"} <= set(choice.aliases)
    draft = SE.new_game(load(), seats(2), BMOptions(races="draft"), 5)[0]
    picker = SE.drafting(draft)
    assert picker is not None
    race = next(c for c in legal.choices(draft, picker, "pick_race.race") if c.value == "ORC")
    assert words(race.label, "ko") == "ORC" and {"zul orcs", "줄 오크"} <= set(race.aliases)


# ---------------------------------------------------------------------------------------------------- narration


@pytest.mark.usefixtures("stub")
def test_narration_names_cards_their_outcomes_and_monsters_in_the_readers_language() -> None:
    s = position()
    told = text.narrate(CO.CouncilDiscussion(card="EV2"), s, "ru")
    assert told is not None and "Чума" in told and "Где у игрока 7+ армейских отрядов" in told
    assert "Plague" in (text.narrate(CO.CouncilDiscussion(card="EV2"), s) or "")
    fight = text.narrate(QE.EncounterStarted(player=1, hero=1, foes=["Wolf", "Bandit"]), s, "ru")
    assert fight is not None and "Волк" in fight and "Wolf" not in fight
    assert "N12 Железный пик" in text.text_board(position(troops={"N12": {1: {"infantry": 1}}}), "ru")


# ---------------------------------------------------------------------------------------------------- typed


@pytest.mark.usefixtures("stub")
def test_names_typed_in_any_language_are_understood() -> None:
    assert M.resolve_region("세 왕자") == "N05" and M.resolve_region("Королевское ПОЛЕ") == "N20"
    assert M.resolve_region("Three Princes") == "N05" and C.path("N20, 세 왕자") == ["N20", "N05"]
    with pytest.raises(RuleError) as unknown:
        M.resolve_region("세 공주")
    assert unknown.value.code == "BM_E_UNKNOWN_REGION"
    assert (M.resolve_unit("궁수"), M.resolve_unit("cav"), M.resolve_unit("말")) == ("archers", "cavalry", None)
    assert (C.resource("철"), C.resource("Зерно"), C.resource("wood")) == ("iron", "grain", "wood")
    assert C.casualties(position(), 1, "2 궁수", "").kills == {"archers": 2}
    assert (C.race_id("줄 오크"), C.race_id("orc"), C.race_id("Zul Orcs"), C.race_id("elves?")) == (
        "ORC", "ORC", "ORC", "elves?")
