"""The Wizard's Quest board picture (WQ-DIG-4): colours at anchors, marks, size, determinism, privacy, highlights."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from unittest.mock import patch

import pytest
from PIL import Image

from engine.core.models import Event
from engine.games.wizards_quest import events as E
from engine.games.wizards_quest.state import WQState
from renderer import draw, has_board, render_board
from renderer import wizards_quest as wq
from renderer.draw import PLAYER_LOOKS, Canvas, arrow_footprint, cover
from renderer.fonts import font
from renderer.geometry import Box, WQGeometry, load_wizards_quest
from tests.engine.wizards_quest.helpers import MAP, P1, P2, P3, P4, P5, P6, Phase, Treasure, Turn, play, position
from tests.renderer.colours import problems

GEOMETRY = load_wizards_quest()
PLAYERS = (P1, P2, P3, P4, P5, P6)
EMPTY = ("1.3", "2.2", "3.5", "5.5", "6.4", "C6")
ORC_HELD = {"1.2": 1, "2.5": 2, "4.2": 3, "5.2": 4, "C5": 4, "6.3": 4}
TREASURES = [
    Treasure(owner=P1, kind="crown", hider=P2, location="2.2"),
    Treasure(owner=P2, kind="chest", hider=P3, location="5.2"),
    Treasure(owner=P3, kind="ring", hider=P1, location="6.4"),
    Treasure(owner=P4, kind="crown", hider=P1),
]


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def at(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    """The picture's pixel at map coordinates."""
    return img.getpixel((round(x), round(y) + wq.MAP_Y))  # type: ignore[return-value]


def on_map(box: Box) -> tuple[int, int, int, int]:
    return box.x0, box.y0 + wq.MAP_Y, box.x1, box.y1 + wq.MAP_Y


def count(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> int:
    return sum(px == colour for px in (img.crop(box) if box else img).get_flattened_data())


def busy(**changes: object) -> WQState:
    """Six players holding most of the board, orcs (one stack frenzy-ready), empty places, both leaders of
    two players, the Dragon, the Great Mage in region 4, placed treasures and one still held by its hider."""
    held = [loc for loc in MAP.ids if loc not in EMPTY and loc not in ORC_HELD]
    owner = {loc: PLAYERS[k % 6] for k, loc in enumerate(held)}
    men = {loc: [1, 7, 12, 45, 99, 250][k % 6] for k, loc in enumerate(held)}
    hero = {P1: next(loc for loc in held if owner[loc] == P1), P2: next(loc for loc in held if owner[loc] == P2)}
    sorcerer = {P1: [loc for loc in held if owner[loc] == P1][1], P3: next(loc for loc in held if owner[loc] == P3)}
    fields: dict = {"owner": owner, "men": men, "orcs": ORC_HELD, "hero": hero, "sorcerer": sorcerer,
                    "dragon": "3.5", "mage": "4.1", "treasures": TREASURES, "retrieved": {P2: ["ring"]},
                    "hands": {P1: ["levy-1"], P2: ["levy-2", "extra_campaign-1"]}, "boats": {P3: ["levy-3"]},
                    "round": 7, "current": P2, "phase": Phase.REINFORCE, "pool": 6, "homes": False}
    fields.update(changes)
    return position(6, **fields)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def state() -> WQState:
    return busy()


@pytest.fixture(scope="module")
def picture(state: WQState) -> Image.Image:
    return decode(wq.render(state))


@contextmanager
def drawn() -> Iterator[list[str]]:
    """Record every string the renderer draws (its cached badges and tokens are drawn afresh)."""
    for cached in (wq._badge, wq._orc_badge, wq._token, wq._leader_alone):
        cached.cache_clear()
    texts: list[str] = []
    original = Canvas.text

    def spy(self: Canvas, xy: tuple[float, float], s: str, *args: object, **kwargs: object) -> object:
        texts.append(s)
        return original(self, xy, s, *args, **kwargs)  # type: ignore[arg-type]

    with patch.object(Canvas, "text", spy):
        yield texts


@pytest.mark.rule("WQ-DIG-4")
def test_each_location_shows_its_holders_colour_the_orcs_or_its_regions_tint(state: WQState,
                                                                             picture: Image.Image) -> None:
    looks = {pid: PLAYER_LOOKS[state.player(pid).colour] for pid in PLAYERS}  # type: ignore[union-attr]
    fills = [look.fill for look in looks.values()] + [wq.ORC_FILL] + [t for t, _ in wq.REGION_LOOKS.values()]
    assert len(set(fills)) == len(fills), "two kinds of holder share a fill"
    for loc, place in GEOMETRY.locations.items():
        if loc in state.owner:
            wanted = looks[state.owner[loc]].fill
        elif loc in ORC_HELD:
            wanted = wq.ORC_FILL
        else:
            wanted = wq.REGION_LOOKS[MAP.region_of[loc]][0]
        assert at(picture, *place.fill_at) == wanted, loc


@pytest.mark.rule("WQ-DIG-4")
def test_the_player_colours_read_as_distinct_players_and_not_as_orcs_or_empty_ground() -> None:
    """Nor as the golden outline of the protected region, which runs round their locations."""
    colours = wq.board().data.params.colours
    grounds = {"orcs": wq.ORC_FILL, "protected": wq.PROTECTED}
    grounds |= {f"region {r}": tint for r, (tint, _) in wq.REGION_LOOKS.items()}
    assert problems({c: PLAYER_LOOKS[c].fill for c in colours}, grounds) == []
    assert problems({c: PLAYER_LOOKS[c].badge for c in colours}, {"orcs": wq.ORC, "protected": wq.PROTECTED}) == []


@pytest.mark.rule("WQ-DIG-4")
def test_badges_show_the_holders_colour_and_letter_or_the_orcs(state: WQState, picture: Image.Image) -> None:
    """The holder's colour on each badge, and every holder's letter too, for colour-blind players."""
    letters = [look.letter for look in PLAYER_LOOKS.values()]
    assert len(set(letters)) == len(letters)
    with drawn() as texts:
        wq.render(state)
    for pid in PLAYERS:
        assert PLAYER_LOOKS[state.player(pid).colour].letter in texts  # type: ignore[union-attr]
    for loc, place in GEOMETRY.locations.items():
        x0, y0, x1, y1 = on_map(place.badge)
        strip = picture.crop((x0, y0, x1, y1))
        if loc in state.owner:
            look = PLAYER_LOOKS[state.player(state.owner[loc]).colour]  # type: ignore[union-attr]
            assert count(strip, look.badge) > 300, f"no badge of the holder's colour on {loc}"
        elif loc in ORC_HELD:
            assert count(strip, wq.ORC) > 300, loc
        else:
            assert count(strip, draw.DARK_INK) == 0, f"{loc} is empty: no badge"


@pytest.mark.rule("WQ-DIG-4")
def test_leaders_beasts_frenzy_ready_orcs_and_treasures_are_marked(state: WQState, picture: Image.Image) -> None:
    with drawn() as texts:
        wq.render(state)
    assert texts.count("H") == 2 + 2 and texts.count("S") == 2 + 1, \
        "one disc per leader on the board, plus the key's (and its leader with no men)"
    assert texts.count("D") == 1 + 1 and texts.count("★") == 1 + 1, "the Dragon and the Mage, plus the key"
    for loc, n in ORC_HELD.items():
        ring = count(picture.crop(on_map(GEOMETRY.locations[loc].badge)), wq.FRENZY)
        assert (ring > 50) == (n >= 4), f"{loc}: {n} orcs"
    for t in TREASURES:
        if t.location is None:
            continue
        tokens = picture.crop(on_map(GEOMETRY.locations[t.location].tokens))  # type: ignore[arg-type]
        assert count(tokens, PLAYER_LOOKS[state.player(t.owner).colour].badge) > 100, t  # type: ignore[union-attr]


@pytest.mark.rule("WQ-DIG-4")
def test_the_protected_region_has_a_golden_outline_and_tab(state: WQState, picture: Image.Image) -> None:
    with drawn() as texts:
        wq.render(state)
    assert "4 · Eastvale · Protected" in texts and "3 · Westmoor" in texts
    x0, y0, _, y1 = on_map(GEOMETRY.regions["4"].box)
    assert count(picture, wq.PROTECTED, (x0 - 4, y0 + 40, x0 + 4, y1 - 40)) > 0.9 * 8 * (y1 - y0 - 80)
    assert count(decode(wq.render(busy(mage=None))), wq.PROTECTED) == 0


@pytest.mark.rule("WQ-DIG-4", "WQ-DEF-2")
def test_a_location_held_by_a_leader_alone_shows_the_leader_and_no_count(state: WQState) -> None:
    """A leader with no men showed as "B 0" and a disc: now the owner's letter and the disc inside the badge."""
    hero_at = state.hero[P1]
    alone = state.model_copy(update={"men": state.men | {hero_at: 0}})
    with drawn() as texts:
        img = decode(wq.render(alone))
    assert "0" not in texts and texts.count("H") == 2 + 2
    look = PLAYER_LOOKS[alone.player(P1).colour]  # type: ignore[union-attr]
    x0, y0, x1, y1 = on_map(GEOMETRY.locations[hero_at].badge)
    pill = (round((x0 + x1 - 120) / 2), y0, round((x0 + x1 + 120) / 2), y1)
    assert count(img.crop(pill), look.badge) > 1000, "the owner's badge"
    beside = (pill[2] + 2, y0, x1, y1)
    assert count(img.crop(beside), draw.DARK_INK) == 0, "no disc beside it: the leader is in the badge"
    assert count(img.crop(pill), draw.LIGHT_INK) > count(decode(wq.render(state)).crop(pill), draw.LIGHT_INK)


@pytest.mark.rule("WQ-CAP-1")
def test_a_location_being_captured_shows_the_attacker_moving_in() -> None:
    """Once a battle empties the target, the capture decision is pending and the target holds nothing: it shows
    the attacker's fill and a hollow "1+" badge of their colour, not an empty location."""
    s = position(2, owner={"1.1": P1, "1.2": P2}, men={"1.1": 4, "1.2": 1})
    s, _ = play(s, ("attack", P1, {"source": "1.1", "target": "1.2"}))
    s, _ = play(s, ("roll", P1), dice=[5])
    assert s.todo[0].kind == "capture" and "1.2" not in s.owner
    with drawn() as texts:
        img = decode(wq.render(s))
    assert "1+" in texts
    look = PLAYER_LOOKS[s.player(P1).colour]  # type: ignore[union-attr]
    place = GEOMETRY.locations["1.2"]
    assert at(img, *place.fill_at) == look.fill
    x0, y0, x1, y1 = on_map(place.badge)
    assert img.getpixel(((x0 + x1) // 2 - 20, (y0 + y1) // 2)) == draw.LIGHT_INK, "a hollow badge"
    assert count(img.crop((x0, y0, x1, y1)), look.badge) > 200, "ringed in the attacker's colour"
    captured, _ = play(s, ("capture", P1, {"count": 2}))
    assert at(decode(wq.render(captured)), *place.fill_at) == look.fill


@pytest.mark.rule("WQ-DIG-4")
def test_the_key_explains_the_tunnel_a_lone_leader_the_arrows_and_a_capture_in_progress(state: WQState) -> None:
    with drawn() as texts:
        wq.render(state)
    for text in ("T ⇄ 6.5", "Great Tunnel: 1.2 and 6.5 are adjacent", "a leader with no men", "attack", "orc frenzy",
                 "Forced March", "attack by boat", "being captured: at least 1 moving in", "1+"):
        assert text in texts


def shore_pairs() -> list[tuple[str, str]]:
    """Every two locations that border the same water: a Boat Privilege lets one attack the other."""
    return [(a, b) for a in MAP.ids for b in MAP.ids if a != b and MAP.shared_water(a, b)]


def crossed(route: list[tuple[float, float]]) -> set[int]:
    """The index-image values (locations, waters) under an arrow drawn along the route."""
    covered, (x0, y0, x1, y1) = cover([arrow_footprint(route)])
    index = GEOMETRY.index_image().crop((x0, y0 - wq.MAP_Y, x1, y1 - wq.MAP_Y))
    return {v for v, n in enumerate(index.histogram(mask=covered)) if n}


WATERS = {0, *WQGeometry.WATER_VALUES.values()}


@pytest.mark.rule("WQ-BOAT-3")
def test_every_boat_route_keeps_to_the_water_and_its_two_shores() -> None:
    """A boat attack is drawn through the water the two locations share, never across other locations."""
    board = wq.board()
    for a, b in shore_pairs():
        route = wq.boat_route(board, a, b)
        ends = {GEOMETRY.locations[a].index, GEOMETRY.locations[b].index}
        assert crossed(route) <= ends | WATERS, f"{a} → {b} by boat crosses other locations"


@pytest.mark.rule("WQ-BOAT-3", "WQ-DIG-4")
def test_a_boat_attack_is_drawn_along_the_water_not_across_the_land_between(state: WQState) -> None:
    """1.1 → 2.3 by boat: the red arrow runs round by the sea, over no location but the two, and ends at 2.3."""
    declared = E.AttackDeclared(player=P1, kind="campaign", source="1.1", target="2.3", defender=P2, boat=True)
    battle = E.Battle(player=P1, number=1, source="1.1", target="2.3", against="player", defender=P2, roll=5, d=3,
                      attacker_won=True, attacker_left=4, defender_left=0)
    img = decode(wq.render(state, [declared, battle]))
    board = img.crop((0, wq.MAP_Y, wq.WIDTH, wq.MAP_Y + GEOMETRY.height))
    red = Image.frombytes("L", board.size, bytes(255 if px == wq.ATTACK_ARROW else 0
                                                 for px in board.get_flattened_data()))
    under = {v for v, n in enumerate(GEOMETRY.index_image().histogram(mask=red)) if n}
    assert under <= {GEOMETRY.locations["1.1"].index, GEOMETRY.locations["2.3"].index} | WATERS
    x0, y0, x1, y1 = on_map(GEOMETRY.locations["2.3"].badge)
    assert count(img, wq.ATTACK_ARROW, (x0 - 30, y0 - 30, x1 + 30, y1 + 30)) > 100, "the head reaches 2.3"
    by_land = decode(wq.render(state, [declared.model_copy(update={"boat": False}), battle]))
    assert count(by_land, wq.ATTACK_ARROW, on_map(GEOMETRY.locations["1.2"].bbox)) > 0, "a land arrow is straight"


def test_size_bounds_even_for_a_busy_board(state: WQState) -> None:
    events: list[Event] = [
        E.Battle(player=P1, number=1, source=a, target=b, against="player", defender=P2, roll=4, d=3,
                 attacker_won=True, attacker_left=5, defender_left=0)
        for a, b in [("1.1", "1.2"), ("3.6", "4.4"), ("1.2", "6.5"), ("C7", "3.3"), ("5.6", "6.4"), ("2.3", "2.6")]
    ]
    events += [E.Captured(player=P1, source="1.1", target=t, count=2) for t in MAP.ids[::4]]
    events += [E.Frenzy(source="5.2", target="5.3", defender=P3, d=3, rolls=[4, 2], orc_losses=1,
                        defender_losses=1, captured=True, moved=3)]
    png = wq.render(state, events)
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P", "the PNG is palette-based"
    assert img.width == 1600 and img.height < 1700
    assert len(png) <= 150 * 1024


def test_the_same_state_gives_the_same_bytes(state: WQState) -> None:
    events = [E.Captured(player=P1, source="1.1", target="1.4", count=2)]
    first = wq.render(state, events)
    assert wq.render(state, events) == first
    draw.text_mask.cache_clear()
    wq._badge.cache_clear()
    wq._token.cache_clear()
    assert wq.render(WQState.model_validate(state.model_dump()), events) == first


@pytest.mark.rule("WQ-DIG-4")
def test_hidden_information_is_never_drawn() -> None:
    """WQ-DIG-1, WQ-TRS-9: hand contents, deck order, dice state, a treasure its hider still holds, and marker
    kinds under the decoy variant never change the picture; hand sizes and public kinds do."""
    a = busy(hands={P1: ["levy-1"], P2: ["levy-2", "extra_campaign-1"]}, decoy=True)
    b = busy(hands={P1: ["orcbane-1"], P2: ["famine-1", "plague-1"]}, decoy=True, seed=99)
    swapped = [t.model_copy(update={"kind": {"crown": "decoy", "chest": "ring", "ring": "crown"}[t.kind]})
               for t in TREASURES]
    b = b.model_copy(update={"treasures": swapped, "deck": list(reversed(b.deck))})
    assert a.hands != b.hands and a.deck != b.deck and a.rng != b.rng and a.treasures != b.treasures
    secret = [E.CardReceived(card="levy-1", private_to=P1),
              E.TreasureHidden(hider=P2, owner=P1, territory="2.2", kind="crown", private_to=P2)]
    assert wq.render(a) == wq.render(b) == wq.render(a, secret)
    held = a.model_copy(update={"treasures": [*a.treasures[:3], a.treasures[3].model_copy(update={"kind": "ring"})]})
    assert wq.render(held) == wq.render(a), "a treasure not yet hidden is not on the board"
    public = busy(hands={P1: ["levy-1"], P2: ["levy-2", "extra_campaign-1"]})
    assert wq.render(public) != wq.render(public.model_copy(update={"treasures": swapped})), "kinds show without decoy"
    assert wq.render(a) != wq.render(busy(hands={P1: [], P2: ["levy-2", "extra_campaign-1"]}, decoy=True)), \
        "hand sizes are public, so this test can tell"
    with drawn() as texts:
        wq.render(a)
    assert texts.count("?") == 3 + 1, "each placed marker is a '?' under the decoy variant (and in the key)"


@pytest.mark.rule("WQ-DIG-4")
def test_last_turn_attacks_captures_and_beasts_are_highlighted(state: WQState, picture: Image.Image) -> None:
    declared = E.AttackDeclared(player=P2, kind="campaign", source="3.6", target="4.4", defender=P4)
    battle = E.Battle(player=P2, number=1, source="3.6", target="4.4", against="player", defender=P4, roll=5, d=4,
                      attacker_won=True, attacker_left=3, defender_left=0)
    won = E.Captured(player=P2, source="3.6", target="4.4", count=2)
    dragon = E.DragonLanded(reason="phase", dice=[3, 5], territory="3.5")
    mage = E.MageMoved(reason="phase", dice=[4, 1], territory="4.1", region=4)
    after = decode(wq.render(state, [dragon, mage, declared, battle, won]))
    board = (0, wq.MAP_Y, wq.WIDTH, wq.MAP_Y + GEOMETRY.height)
    assert count(picture, wq.ATTACK_ARROW, board) == 0
    assert count(picture, wq.ATTACK_ARROW) > 100, "the key shows the attack arrow"
    channel = (GEOMETRY.water["river"][0].x0, wq.MAP_Y, GEOMETRY.water["river"][0].x1, wq.MAP_Y + GEOMETRY.height)
    assert count(after, wq.ATTACK_ARROW, channel) > 50, "no arrow across the bridge"
    for loc, colour in (("4.4", wq.CAPTURED), ("3.5", wq.DRAGON), ("4.1", wq.MAGE)):
        box = on_map(GEOMETRY.locations[loc].bbox)
        assert count(after, colour, box) > count(picture, colour, box) + 500, loc
    with drawn() as texts:
        wq.render(state, [battle])
    assert "Last battle 3.6 → 4.4: rolled 5, above the defence of 4: attacker wins" in texts


@pytest.mark.rule("WQ-DIG-4")
def test_banner_and_legend_show_round_player_step_pool_and_each_players_counts(state: WQState) -> None:
    with drawn() as texts:
        wq.render(state)
    joined = "\n".join(texts)
    assert "Round 7" in texts and "Player2" in texts and "· Reinforcement" in texts and "Men to place: 6" in texts
    assert "Protected: region 4 Eastvale" in joined and f"Deck {len(state.deck)} · discard 0" in joined
    for pid in PLAYERS:
        held = state.locations_of(pid)
        men = sum(state.men[loc] for loc in held)
        cards, boats = len(state.hands.get(pid, [])), len(state.boats.get(pid, []))
        assert f"Locations {len(held)} · Men {men} · Cards {cards} · Boats {boats}" in texts, pid
    assert f"Hero {state.hero[P1]} · Sorcerer {state.sorcerer[P1]}" in joined
    assert "Hero off · Sorcerer off" in joined
    assert "1/3" in texts and texts.count("0/3") == 5


def test_eliminated_players_and_the_winner_are_marked() -> None:
    over = busy(phase=Phase.GAME_OVER, eliminated=(P5,), turn=Turn())
    over = over.model_copy(update={"winners": [P2], "retrieved": {P2: ["crown", "chest", "ring"]}})
    with drawn() as texts:
        wq.render(over)
    assert "Game over" in texts and "Player2 wins" in texts and "Eliminated" in texts and "Winner" in texts
    nobody = over.model_copy(update={"winners": []})
    with drawn() as texts:
        wq.render(nobody)
    assert "Nobody wins: the orcs take the island" in texts


def test_names_in_any_script_are_drawn_with_real_glyphs(state: WQState) -> None:
    names = ["Владимир Владимирович", "김민준", "Friedrich Wilhelm Maximilian Alexander of Hohenzollern-Emden",
             "🐉 Drachenreiter 🐉", "Åsa Öberg-Šimić", "\u200b"]
    named = state.model_copy(update={"players": [p.model_copy(update={"name": n})
                                                 for p, n in zip(state.players, names, strict=True)]})
    with drawn() as texts:
        png = render_board(named)
    assert {"Владимир Владимирович", "김민준", "Drachenreiter", "Åsa Öberg-Šimić", "Player 6"} <= set(texts)
    assert any(t.startswith("Friedrich Wilhelm") and t.endswith("…") for t in texts)
    face = font(19, bold=True)
    for text in texts:
        missing = [ch for ch in text if not ch.isspace() and face.face_for(ch) is None]
        assert not missing, f"{text!r} would draw {missing} as boxes"
    assert decode(png).width == 1600


def test_render_board_draws_wizards_quest(state: WQState) -> None:
    assert has_board("wizards_quest") and has_board("wizards-quest")
    assert render_board(state) == wq.render(state)


def test_a_setup_position_renders() -> None:
    setup = position(3, phase=Phase.SETUP_CLAIM, round=0, homes=True)
    with drawn() as texts:
        png = wq.render(setup)
    assert "Setup" in texts and "No region protected yet" in "\n".join(texts)
    assert decode(png).height < decode(wq.render(busy())).height, "one legend row for three players"


def test_an_absent_seat_is_marked_in_the_legend() -> None:
    from engine.core.models import Seat
    from engine.games.wizards_quest import RULESET
    from renderer import render_board

    seats = [Seat(id=i, name=f"P{i}") for i in (1, 2, 3)]
    state, _ = RULESET.new_game(seats, RULESET.options_model(), 3)
    plain = render_board(state)
    marked = render_board(state, away=frozenset({2}))
    assert plain != marked and render_board(state, away=frozenset({99})) == plain
