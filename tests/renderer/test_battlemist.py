"""The Battlemist board picture (BM-DIG-14 … DIG-17): what it shows, size bounds, what changes it, what never does."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from itertools import combinations

import pytest
from PIL import Image, ImageChops

from engine.core.models import Event, from_json, to_json
from engine.core.views import HIDDEN
from engine.games.battlemist.pieces import CityMark, HeroToken, Stars
from engine.games.battlemist.state import BMState, Phase
from renderer import battlemist as bm
from renderer import draw
from renderer.draw import contrast, ink_for
from tests.engine.battlemist.helpers import DATA, position
from tests.renderer.colours import DISTINCT, delta_e, problems
from tests.renderer.test_texts import drawn

ALL = ("DAQ", "ORC", "ELF", "DWA", "KHR", "DRK")


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def centre(region: str) -> tuple[float, float]:
    """The hex's centre on the picture."""
    x, y = bm.geometry().centres[region]
    return x, y + bm.MAP_Y


def hex_box(region: str) -> tuple[int, int, int, int]:
    """The box round the hex, on the picture."""
    x, y = centre(region)
    w = bm.SQRT3 / 2 * bm.HEX
    return round(x - w), round(y - bm.HEX), round(x + w) + 1, round(y + bm.HEX) + 1


def plain(img: Image.Image, region: str) -> tuple[int, int, int]:
    """A pixel of the hex's plain fill, near its bottom corner, clear of its marks and its rim."""
    x, y = centre(region)
    return img.getpixel((round(x), round(y + bm.HEX - 14)))  # type: ignore[return-value]


def count(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> int:
    return sum(1 for px in img.crop(box).get_flattened_data() if px == colour)


@contextmanager
def recorded() -> Iterator[list[str]]:
    """Every string drawn, those inside badges and on the kept map picture too (both are cached once drawn)."""
    bm.badge.cache_clear()
    bm._map_picture.cache_clear()
    with drawn() as texts:
        yield texts


def start() -> BMState:
    """Round 1 as setup leaves it (BM-SET-9 … 11): 1 Star, Hero no. 1 and the starting units in each homeland."""
    units = dict(DATA.rules.start_units)
    return position(ALL, phase=Phase.COUNCIL, round=1,
                    troops={f"H-{race}": {pid: units} for pid, race in enumerate(ALL, 1)},
                    heroes=[HeroToken(owner=pid, number=1, region=f"H-{race}", life=DATA.rules.hero.life)
                            for pid, race in enumerate(ALL, 1)],
                    stock={pid: dict(DATA.rules.race[race].start) for pid, race in enumerate(ALL, 1)})


def busy() -> BMState:
    """Round 4's movement step: units of several races (two of them sharing regions), cities and a large city,
    an occupied homeland, heroes, spent Stars, artifacts and hands."""
    troops = {
        "H-DAQ": {1: {"infantry": 4, "archers": 2}},
        "N12": {1: {"infantry": 3, "archers": 1, "cavalry": 2, "giant": 1}},
        "N20": {1: {"cavalry": 2}, 2: {"infantry": 5, "dragon": 1}},
        "N10": {2: {"infantry": 6, "archers": 2}},
        "H-ELF": {2: {"infantry": 2}},
        "N18": {3: {"archers": 4, "infantry": 2}},
        "N08": {4: {"infantry": 10, "archers": 10, "cavalry": 10}},
        "N14": {5: {"cavalry": 4}},
        "N16": {6: {"infantry": 7, "giant": 1, "firebreather": 1}},
        "N01": {6: {"infantry": 2}, 5: {"infantry": 3}},
    }
    return position(ALL, phase=Phase.MOVEMENT, round=4, troops=troops,
                    stock={1: {"grain": 6, "wood": 12, "iron": 3}, 2: {"grain": 2, "iron": 11}},
                    cities={"N12": CityMark(kind="city", since=2), "N08": CityMark(kind="large_city", since=3),
                            "N10": CityMark(kind="city", since=1)},
                    occupied={"H-ELF": 2},
                    stars={1: Stars(owned=3, spent=1), 2: Stars(owned=4, spent=2), 3: Stars(), 4: Stars(owned=1),
                           5: Stars(owned=2, spent=2), 6: Stars(owned=5)},
                    heroes=[HeroToken(owner=1, number=1, region="N12", life=5),
                            HeroToken(owner=1, number=2, region="H-DAQ", life=3),
                            HeroToken(owner=2, number=1, region="N12", life=4),
                            HeroToken(owner=3, number=1, region="N25", life=5)],
                    artifacts={1: ["AR1", "AR5"], 3: ["AR2"]},
                    hands={1: ["AC01"] * 4, 2: ["AC02"] * 2, 3: [], 4: ["AC03"] * 7, 5: [], 6: []},
                    active=2, order=[2, 1, 4, 3, 6, 5], events=["EV1"])


@pytest.fixture(scope="module")
def busy_png() -> bytes:
    return bm.render(busy())


@pytest.mark.rule("BM-DIG-14")
@pytest.mark.parametrize("make", [start, busy])
def test_a_start_and_a_busy_position_render_within_the_size_bounds(make: Callable[[], BMState]) -> None:
    png = bm.render(make())
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P", "the PNG is palette-based"
    assert img.width >= 1600
    assert len(png) <= 100 * 1024


@pytest.mark.rule("BM-DIG-14")
def test_hexes_sit_at_their_axial_coordinates_in_terrain_and_race_colours(busy_png: bytes) -> None:
    img = decode(busy_png)
    for region in DATA.map.regions:
        colour = bm.race_looks()[region.race].fill if region.race else bm.TERRAIN[region.terrain]
        assert plain(img, region.id) == colour, region.id
    (x0, y0), (x1, y1) = centre("N01"), centre("N02")
    assert x1 - x0 == pytest.approx(3 ** 0.5 * bm.HEX) and y1 == y0, "a step in q is √3 hex sizes to the right"
    (x2, y2) = centre("N07")
    assert (x2 - x0, y2 - y0) == pytest.approx((3 ** 0.5 / 2 * bm.HEX, 1.5 * bm.HEX)), "a step in r goes down"


@pytest.mark.rule("BM-DIG-14")
def test_each_region_shows_its_id_name_and_yield_doubled_by_a_city() -> None:
    state = busy()
    with recorded() as texts:
        bm.render(state)
    for region in DATA.map.regions:
        assert region.id in texts
    assert "Ironpeak" in texts and "Godstone" in texts and "Mountains" in texts, "a long name takes two lines"
    assert "Knights of Daqan" in texts, "a homeland is named by its race"
    plain_state = replace(state, cities={})
    with recorded() as without:
        bm.render(plain_state)
    # N12 Ironpeak yields 2 iron, 4 with its city; N08 Golden Vale 2 grain, 4 with its large city
    assert texts.count("4") == without.count("4") + 3 and without.count("2") == texts.count("2") + 3


@pytest.mark.rule("BM-DIG-14")
def test_a_city_changes_the_picture_at_its_hex_only() -> None:
    state = busy()
    before = decode(bm.render(state))
    built = decode(bm.render(replace(state, cities={**state.cities, "N02": CityMark(kind="city", since=4)})))
    changed = ImageChops.difference(before, built).getbbox()
    assert changed is not None, "the city shows"
    x0, _, x1, _ = hex_box("N02")
    _, cy = centre("N02")
    assert x0 <= changed[0] and changed[2] <= x1 and cy - bm.HEX / 2 <= changed[1] and changed[3] <= cy, \
        "the yield row changes, and nothing else"
    large = decode(bm.render(replace(state, cities={**state.cities, "N12": CityMark(kind="large_city", since=4)})))
    assert ImageChops.difference(before, large).getbbox() is not None, "a large city looks different from a city"


@pytest.mark.rule("BM-DIG-14")
def test_a_unit_count_changes_the_badge_in_its_hex_only() -> None:
    state = busy()
    before = decode(bm.render(state))
    more = replace(state, troops={**state.troops, "N10": {2: state.units("N10", 2).plus("infantry", 1)}})
    after = decode(bm.render(more))
    changed = ImageChops.difference(before, after).getbbox()
    assert changed is not None
    x0, _, x1, y1 = hex_box("N10")
    _, cy = centre("N10")
    assert x0 <= changed[0] and changed[2] <= x1 and cy - 10 <= changed[1] and changed[3] <= y1, \
        "only the badge, in the hex's lower half, changes"
    row = (x0, changed[1] - 6, x1, changed[3] + 6)
    assert count(after, bm.race_looks()["ORC"].badge, row) > 300, "the count is on the Orcs' badge"


@pytest.mark.rule("BM-DIG-14")
def test_badges_read_like_I3_A1_C2_M1_per_race_in_the_race_colour() -> None:
    state = busy()
    with recorded() as texts:
        img = decode(bm.render(state))
    assert "I3 A1 C2 M1" in texts, "N12: infantry, archers, cavalry and the giant"
    assert "C2" in texts and "I5 M1" in texts, "N20 holds two races: a badge each"
    assert "I7 M2" in texts, "monsters of two kinds count together"
    assert "I10 A10 C10" in texts
    for region, race in (("N12", "DAQ"), ("N10", "ORC"), ("N16", "DRK"), ("N18", "ELF")):
        assert count(img, bm.race_looks()[race].badge, hex_box(region)) > 300, f"{region}: a {race} badge"
    for look in bm.race_looks().values():
        assert contrast(look.badge, ink_for(look.badge)) >= 4.5
    disc = bm.badge(bm.race_looks()["ELF"], "I2", bm.TERRAIN["forest"], 28, 19)[0].crop((4, 4, 24, 24))
    dark = bm.palette()[draw.DARK_INK]
    assert sum(1 for v in disc.tobytes() if v == dark) > 20, "the Elves' letter is dark on its white disc"


@pytest.mark.rule("BM-DIG-14")
def test_race_colours_and_letters_tell_the_six_races_apart() -> None:
    looks = bm.race_looks()
    assert {race: look.badge for race, look in looks.items()} and len({look.letter for look in looks.values()}) == 6
    assert all(delta_e(a.badge, b.badge) >= DISTINCT for a, b in combinations(looks.values(), 2))
    assert problems({r: look.badge for r, look in looks.items() if r != "DRK"}, {}) == [], "the Dark Lord's is grey"
    for fill in [*bm.TERRAIN.values(), *(look.fill for look in looks.values())]:
        assert contrast(fill, ink_for(fill)) >= 4.5, f"text on {fill} is hard to read"


@pytest.mark.rule("BM-DIG-14", "BM-STAR-1")
def test_homelands_show_their_owners_stars_with_the_spent_ones_greyed() -> None:
    state = busy()
    box = hex_box("H-DAQ")
    fresh = decode(bm.render(replace(state, stars={**state.stars, 1: Stars(owned=3)})))
    spent = decode(bm.render(state))
    gold, grey = count(fresh, bm.STAR, box), count(fresh, bm.SPENT, box)
    assert gold > 3 * 30 and grey == 0
    assert count(spent, bm.SPENT, box) > 30 and count(spent, bm.STAR, box) == pytest.approx(gold * 2 / 3, rel=0.1)


@pytest.mark.rule("BM-DIG-14")
def test_an_occupied_homeland_is_marked_with_its_occupier() -> None:
    state = busy()
    with recorded() as texts:
        img = decode(bm.render(state))
    assert "Occupied: P2" in texts
    x, y = centre("H-ELF")
    rim = img.getpixel((round(x - bm.SQRT3 / 2 * bm.HEX + 5), round(y)))
    assert rim == bm.race_looks()["ORC"].badge, "the homeland's rim in the occupier's colour"
    free = decode(bm.render(replace(state, occupied={})))
    assert free.getpixel((round(x - bm.SQRT3 / 2 * bm.HEX + 5), round(y))) == bm.race_looks()["ELF"].fill


@pytest.mark.rule("BM-DIG-14")
def test_heroes_show_their_number_and_life() -> None:
    with recorded() as texts:
        bm.render(busy())
    assert texts.count("1♥5") >= 2 and "1♥4" in texts and "2♥3" in texts


@pytest.mark.rule("BM-DIG-14")
def test_the_legend_shows_turn_order_phase_active_player_round_and_stars() -> None:
    with recorded() as texts:
        bm.render(busy())
    joined = "\n".join(texts)
    assert "Round 4" in texts and "· Movement step" in texts and "Turn of" in texts
    assert "Turn order" in texts
    order = [t for t in texts if t in {"1.", "2.", "3.", "4.", "5.", "6."}]
    assert order == ["1.", "2.", "3.", "4.", "5.", "6."]
    for stars in ("2/4", "2/3", "1/1", "0/0", "5/5", "0/2"):
        assert stars in texts
    assert "Star pool: 19" in joined and "Events this round: Cataclysmic Tremors" in joined


@pytest.mark.rule("BM-DIG-16")
def test_the_side_panel_lists_resources_votes_hand_sizes_heroes_artifacts_and_income() -> None:
    state = busy()
    with recorded() as texts:
        bm.render(state)
    joined = "\n".join(texts)
    assert "12" in texts and "11" in texts, "stocks"
    assert "Votes 2 · Cards 4 · Regions 1" in texts, "P1: the Seal of the Council is a vote; N20 is shared"
    assert "Votes 2 · Cards 7 · Regions 1" in texts, "P4: a large city is a vote"
    assert "Heroes: 1♥5 N12, 2♥3 H-DAQ" in texts and "Heroes: none" in texts
    assert "Artifacts: Blade of Dawn, Seal of the Council" in texts and "Artifacts: Amulet of Vigor" in joined
    # P1 holds N12 (2 iron, doubled by its city) and his homeland (3 grain, 2 wood, 2 iron)
    assert bm.income(state, 1) == {"grain": 3, "wood": 2, "iron": 6}
    # P3's homeland is occupied: no homeland income (BM-HOM-3), and N18 gives 2 wood
    assert bm.income(state, 3) == {"grain": 0, "wood": 2, "iron": 0}
    assert "+6" in texts and "+0" in texts


@pytest.mark.rule("BM-DIG-16", "BM-DIG-2")
def test_hands_show_by_their_size_only() -> None:
    state = busy()
    seen = replace(state, hands={pid: [HIDDEN] * len(cards) for pid, cards in state.hands.items()})
    other = replace(state, hands={pid: ["AC09"] * len(cards) for pid, cards in state.hands.items()})
    assert bm.render(seen) == bm.render(state) == bm.render(other)
    assert bm.render(replace(state, hands={**state.hands, 3: ["AC01"]})) != bm.render(state)


@pytest.mark.rule("BM-DIG-15", "BM-DIG-1")
def test_quest_targets_and_the_decks_are_never_drawn() -> None:
    state = busy()
    adventures = [a.id for a in DATA.quests.adventures]
    with_quests = replace(state, quests={1: adventures[0], 2: adventures[1], 4: adventures[2]},
                          quest_deck=adventures[3:], deck=["AC01", "AC02"], quest_discard=adventures[:1])
    without = replace(state, quests={}, quest_deck=[], deck=[], quest_discard=[])
    assert bm.render(with_quests) == bm.render(without)


@pytest.mark.rule("BM-DIG-17")
def test_the_battle_log_is_not_drawn() -> None:
    """Battles are told in separate messages: the events given with the state leave the picture as it is."""
    state = busy()

    events = [Event(type="battle"), Event(type="hero_duel"), Event(type="rally", private_to=1)]
    with recorded() as plain_texts:
        png = bm.render(state)
    with recorded() as texts:
        assert bm.render(state, events) == png
    assert texts == plain_texts


@pytest.mark.rule("BM-DIG-14")
def test_a_two_player_game_draws_no_void_homeland() -> None:
    state = position(("DRK", "DAQ"), phase=Phase.COUNCIL)
    with recorded() as texts:
        img = decode(bm.render(state))
    void = [r.id for r in DATA.map.regions if r.race and r.race not in ("DRK", "DAQ")]
    assert len(void) == 4
    for region in void:
        assert region not in texts
        x0, y0, x1, y1 = hex_box(region)
        inner = (x0 + 20, y0 + 50, x1 - 20, y1 - 50)
        assert count(img, bm.SEA, inner) == (inner[2] - inner[0]) * (inner[3] - inner[1]), f"{region} is sea"
    assert "H-DRK" in texts and "H-DAQ" in texts and plain(img, "H-DAQ") == bm.race_looks()["DAQ"].fill


def test_the_same_state_gives_the_same_bytes() -> None:
    state = busy()
    first = bm.render(state)
    draw.text_mask.cache_clear()
    bm.badge.cache_clear()
    bm.icon.cache_clear()
    assert bm.render(from_json(BMState, to_json(state))) == first


def test_an_absent_seat_is_marked_in_the_panel() -> None:
    state = busy()
    with recorded() as texts:
        marked = bm.render(state, away=frozenset({3}))
    assert "Away: an AI plays until they are back" in texts and marked != bm.render(state)


def test_names_in_any_script_render_and_odd_names_do_not_break_the_picture() -> None:
    names = ["Владимир Владимирович", "김민준", "Friedrich Wilhelm Maximilian Alexander of Hohenzollern-Emden",
             "🐉🐉🐉", "Åsa Öberg-Šimić", "\u200b"]
    state = busy()
    state.players = [replace(p, name=n) for p, n in zip(state.players, names, strict=True)]
    png = bm.render(state)
    assert decode(png).width >= 1600 and len(png) <= 100 * 1024 and png != bm.render(busy())


def test_a_game_over_names_the_winners() -> None:
    state = replace(busy(), phase=Phase.GAME_OVER, winners=[2])
    with recorded() as texts:
        bm.render(state)
        bm.render(replace(state, winners=[2, 4]))
    assert "Game over" in texts and "P2 wins" in texts and "P2, P4 share the victory" in texts


def late_game() -> BMState:
    """Round 12 of six players with long names: 34 regions held, 7 of them shared mid-combat, 15 heroes, 16 cities,
    two occupations: about the busiest board a game reaches."""
    ids = DATA.map.ids
    troops: dict[str, dict[int, dict[str, int]]] = {}
    for k, region in enumerate(ids[:34]):
        troops[region] = {1 + k % 6: {"infantry": 1 + k % 9, "archers": k % 4, "cavalry": k % 3,
                                      "giant": int(k % 7 == 0)}}
        if k % 5 == 0:
            troops[region][1 + (k + 2) % 6] = {"infantry": 4, "cavalry": 2, "dragon": 1}
    state = position(ALL, phase=Phase.COMBAT, round=12, troops=troops,
                     heroes=[HeroToken(owner=1 + k % 6, number=1 + k // 6, region=ids[(k * 7) % 39], life=1 + k % 5)
                             for k in range(15)],
                     cities={r: CityMark(kind="large_city" if k % 3 == 0 else "city", since=1)
                             for k, r in enumerate(ids[6::2])},
                     occupied={"H-ELF": 2, "H-DRK": 1}, stars={k: Stars(owned=k, spent=k // 2) for k in range(1, 7)},
                     artifacts={k: ["AR1", "AR2", "AR3"][: k % 4] for k in range(1, 7)}, events=["EV1", "EV3"],
                     stock={k: {"grain": 12 * k, "wood": 9 + k, "iron": 105} for k in range(1, 7)}, active=4)
    names = ["Владимир Владимирович", "김민준", "Friedrich Wilhelm Maximilian Alexander", "🐉🐉🐉", "Åsa Öberg-Šimić",
             "\u200b"]
    state.players = [replace(p, name=n) for p, n in zip(state.players, names, strict=True)]
    return state


@pytest.mark.rule("BM-DIG-14")
def test_the_busiest_likely_board_stays_within_the_size_bound() -> None:
    png = bm.render(late_game())
    assert decode(png).width >= 1600 and len(png) <= 100 * 1024


def test_a_seat_still_drafting_its_race_is_drawn_without_one() -> None:
    state = position(("DAQ", "ORC"), phase=Phase.DRAFT, round=0)
    state.players = [state.players[0], replace(state.players[1], race=None)]
    state.regions = [r for r in state.regions if r != "H-ORC"]
    with recorded() as texts:
        bm.render(state)
    assert "Setup" in texts and "no race yet" in texts and bm.income(state, 2) == {"grain": 0, "wood": 0, "iron": 0}


@pytest.mark.parametrize("phase", list(Phase))
def test_every_phase_has_a_name_in_the_banner(phase: Phase) -> None:
    state = replace(busy(), phase=phase, winners=[1] if phase is Phase.GAME_OVER else None)
    with recorded() as texts:
        bm.render(state)
    if phase is not Phase.GAME_OVER:
        assert "· " + bm.phase_name(state, "en") in texts
    assert not any(t.startswith(("· bm.", "bm.")) for t in texts), "a message id instead of its text"


def test_the_banner_names_the_step_within_the_phase() -> None:
    """BM-DIG-14's "current phase/step": the economy's step, the event the Council votes on."""
    from engine.games.battlemist.council import CouncilState
    from engine.games.battlemist.economy import Economy

    state = busy()
    with recorded() as texts:
        bm.render(replace(state, phase=Phase.ORDERS, economy=Economy(step="orders")))
        bm.render(replace(state, phase=Phase.COUNCIL, council=CouncilState(card="EV2", order=[1, 2], needed=4)))
        bm.render(replace(state, phase=Phase.QUEST, economy=Economy(step="resolved")))
    assert "· Economy: orders" in texts and "· Wizards' Council: vote on Plague" in texts
    assert "· Quest step" in texts and not any("revealed" in t for t in texts)  # the turns are not the economy


@pytest.mark.rule("BM-DIG-14")
def test_a_map_being_built_shows_the_tiles_where_they_were_laid() -> None:
    """Build mode [OPT] (BM-BRD-3): the tiles laid so far, at their hexes, centred; the others are not drawn."""
    from engine.core.rng import Rng
    from engine.games.battlemist.board import hex_of
    from engine.games.battlemist.build import begin_build
    from engine.games.battlemist.state import BMOptions

    state = position(("DAQ", "ORC"), phase=Phase.DRAFT, round=0, options=BMOptions(board="build"))
    rng = Rng(state.rng)
    begin_build(state, rng)
    assert state.build is not None and len(state.regions) == 3
    with recorded() as texts:
        img = decode(bm.render(state))
    laid = set(state.regions)
    assert laid <= set(texts) and not ({r.id for r in DATA.map.regions} - laid) & set(texts)
    assert state.build.turn is not None and bm.current(state) == state.build.turn
    assert texts[texts.index("Turn of") + 2] == f"P{state.build.turn}", "the placer's turn"
    g = bm.geometry(bm.layout_of(state))
    for region in laid:
        q, r = hex_of(state, region)
        x, y = g.centres[region]
        colour = bm.TERRAIN[DATA.map.by_id[region].terrain]
        assert img.getpixel((round(x), round(y + bm.MAP_Y + bm.HEX - 14))) == colour, (region, q, r)
    xs = [g.centres[r][0] for r in laid]
    assert min(xs) > 200 and max(xs) < g.width - 200, "the tiles sit in the middle of the map's area"


def test_a_built_map_bigger_than_the_fixed_one_grows_the_picture() -> None:
    """A sprawling built map is drawn whole: the map's area, and so the picture, grow to hold it."""
    from engine.games.battlemist.board import adjacency
    from engine.games.battlemist.build import BuildState

    row = list(DATA.map.neutral[:12])
    positions = {rid: (q - 6, 0) for q, rid in enumerate(row)}
    state = position(("DAQ", "ORC"), phase=Phase.BUILD, round=0)
    state.build = BuildState(positions=positions, adjacency=adjacency(positions))
    state.regions = sorted(positions)
    with recorded() as texts:
        img = decode(bm.render(state))
    assert set(row) <= set(texts)
    g = bm.geometry(bm.layout_of(state))
    assert img.width == g.width + bm.panel_width() > 1600 and img.height == decode(bm.render(busy())).height
    for rid in row:
        x, y = g.centres[rid]
        assert img.getpixel((round(x), round(y + bm.MAP_Y + bm.HEX - 14))) == bm.TERRAIN[DATA.map.by_id[rid].terrain]
