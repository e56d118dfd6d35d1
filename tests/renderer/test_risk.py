"""The Risk board picture: owners' colours, readable counts, size bounds, determinism, privacy, highlights."""

from __future__ import annotations

import io
from itertools import combinations, pairwise

import pytest
from PIL import Image

from engine.core.models import Event
from engine.games.risk import events as E
from engine.games.risk.state import NEUTRAL, RiskState
from renderer import draw, render_board, risk
from renderer.draw import contrast, ink_for
from renderer.geometry import Box, load
from tests.engine.risk.helpers import IDS, P1, P2, P3, P4, P5, P6, Phase, play, position
from tests.renderer.colours import problems
from tests.renderer.test_texts import drawn

GEOMETRY = load("risk")
UNCLAIMED = ("japan", "peru", "iceland")


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB")


def at(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    """The picture's pixel at map coordinates."""
    return img.getpixel((round(x), round(y) + risk.MAP_Y))  # type: ignore[return-value]


def close(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 2) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))


def fill_anchor(tid: str) -> tuple[float, float]:
    """A point just outside the label box, away from the badge: plain fill (the label keeps clear of the edge)."""
    shape = GEOMETRY.territories[tid]
    box, badge = shape.label.box, shape.badge
    cx, cy = box.centre
    for x, y in ((box.x0 - 1, cy), (box.x1, cy), (cx, box.y0 - 1), (cx, box.y1)):
        if not Box(x0=badge.x0 - 4, y0=badge.y0 - 4, x1=badge.x1 + 4, y1=badge.y1 + 4).overlaps(
            Box(x0=round(x), y0=round(y), x1=round(x) + 1, y1=round(y) + 1)
        ):
            return x, y
    raise AssertionError(f"{tid}: no plain fill next to the label")


def badge_anchor(tid: str) -> tuple[float, float]:
    """Inside the badge's left padding, before the owner's letter: the owner's strong colour."""
    badge = GEOMETRY.territories[tid].badge
    return badge.x0 + 4, badge.centre[1]


def six_owners() -> RiskState:
    """Every colour, Neutral and unclaimed territories, counts from 1 to 4 digits."""
    players = (P1, P2, P3, P4, P5, P6, NEUTRAL)
    owner = {t: players[k % 7] for k, t in enumerate(IDS)}
    armies = {t: [1, 7, 12, 45, 99, 250, 1250][k % 7] for k, t in enumerate(IDS)}
    state = position(6, owner=owner, armies=armies, phase=Phase.ATTACK, turn=12, current=P3)
    return state.model_copy(update={
        "owner": {t: o for t, o in state.owner.items() if t not in UNCLAIMED},
        "armies": {t: a for t, a in state.armies.items() if t not in UNCLAIMED},
    })


@pytest.fixture(scope="module")
def board_state() -> RiskState:
    return six_owners()


@pytest.fixture(scope="module")
def picture(board_state: RiskState) -> Image.Image:
    return decode(risk.render(board_state))


@pytest.mark.rule("RISK-DIG-31")
def test_territories_show_their_owners_colour_at_their_anchors(board_state: RiskState, picture: Image.Image) -> None:
    looks = {p.id: risk.LOOKS[p.colour] for p in board_state.players} | {NEUTRAL: risk.NEUTRAL_LOOK}
    fills = [look.fill for look in looks.values()] + [risk.UNCLAIMED]
    assert len(set(fills)) == len(fills), "two owners share a fill"
    for tid in IDS:
        owner = board_state.owner.get(tid)
        if owner is None:
            assert close(at(picture, *fill_anchor(tid)), risk.UNCLAIMED), tid
            assert close(at(picture, *badge_anchor(tid)), risk.UNCLAIMED), f"{tid} is unclaimed: no badge"
            continue
        assert close(at(picture, *fill_anchor(tid)), looks[owner].fill), tid
        assert close(at(picture, *badge_anchor(tid)), looks[owner].badge), tid


@pytest.mark.rule("RISK-DIG-31")
def test_owners_differ_by_letter_as_well_as_colour(board_state: RiskState, picture: Image.Image) -> None:
    """RISK-DIG-31: a letter per owner, for colour-blind players; it is drawn on every badge."""
    letters = [look.letter for look in risk.LOOKS.values()] + [risk.NEUTRAL_LOOK.letter]
    assert len(set(letters)) == len(letters)
    for tid in IDS:
        owner = board_state.owner.get(tid)
        if owner is None:
            continue
        look = risk.look_of(board_state, owner)
        assert look is not None
        badge = GEOMETRY.territories[tid].badge
        strip = picture.crop((badge.x0 + 6, badge.y0 + 8 + risk.MAP_Y, badge.x0 + 18, badge.y1 - 8 + risk.MAP_Y))
        assert sum(close(px, ink_for(look.badge), 40) for px in strip.get_flattened_data()) >= 8, f"no letter on {tid}"


@pytest.mark.rule("RISK-DIG-32")
def test_counts_use_the_ink_that_contrasts_with_the_badge(board_state: RiskState, picture: Image.Image) -> None:
    for look in [*risk.LOOKS.values(), risk.NEUTRAL_LOOK]:
        for background in (look.badge, look.fill):
            ink = ink_for(background)
            other = draw.LIGHT_INK if ink == draw.DARK_INK else draw.DARK_INK
            assert contrast(ink, background) >= 4.5 and contrast(ink, background) >= contrast(other, background)
    for tid in ("alaska", "china", "brazil"):
        look = risk.look_of(board_state, board_state.owner[tid])
        assert look is not None
        badge = GEOMETRY.territories[tid].badge
        digits = picture.crop((badge.x0 + 22, badge.y0 + 4 + risk.MAP_Y, badge.x1 - 4, badge.y1 - 4 + risk.MAP_Y))
        inked = sum(px == ink_for(look.badge) for px in digits.get_flattened_data())
        assert inked >= 30, f"the count on {tid} is missing or not in its contrasting ink"


def test_size_bounds_even_for_a_busy_board(board_state: RiskState) -> None:
    battles: list[Event] = [
        E.Battle(player=P1, source=a, target=b, defender=P2, attack_dice=[6, 5, 4], defence_dice=[3, 2],
                 attacker_losses=0, defender_losses=2)
        for a, b in [("alaska", "kamchatka"), ("ukraine", "ural"), ("brazil", "north_africa"), ("china", "india"),
                     ("siam", "indonesia"), ("egypt", "middle_east"), ("quebec", "greenland"), ("peru", "brazil")]
    ]
    conquests = [E.Conquered(player=P1, source="siam", target=t, previous_owner=P2) for t in IDS[::3]]
    png = risk.render(board_state, battles + conquests)
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P", "the PNG is palette-based"
    assert img.width >= 1600
    assert len(png) <= 100 * 1024


def test_the_same_state_gives_the_same_bytes(board_state: RiskState) -> None:
    events = [E.Conquered(player=P1, source="alaska", target="kamchatka", previous_owner=P2)]
    first = risk.render(board_state, events)
    assert risk.render(board_state, events) == first
    draw.text_mask.cache_clear()
    risk._badge.cache_clear()
    assert risk.render(RiskState.model_validate(board_state.model_dump()), events) == first


@pytest.mark.rule("RISK-DIG-38")
def test_private_information_is_never_drawn() -> None:
    """RISK-DIG-38: only counts are inputs: card identities, deck order, missions, plans and the dice state are not."""
    a = position(3, hands={P1: ["alaska", "wild_1"], P2: ["peru"]}, missions={P1: "M01", P2: "M02"})
    b = position(3, hands={P1: ["japan", "siam"], P2: ["wild_2"]}, missions={P1: "M07", P2: "M03"},
                 deck=list(reversed(a.deck)), seed=99)
    b = b.model_copy(update={"plans": {P1: {"alaska": 3}}, "standing_defence": {P2: 1}})
    assert a.hands != b.hands and a.deck != b.deck and a.rng != b.rng
    secret = [E.MissionDealt(mission="M01", private_to=P1), E.CardDrawn(player=P1, hand_size=2, private_to=P1)]
    assert risk.render(a) == risk.render(b) == risk.render(a, secret)
    more_cards = position(3, hands={P1: ["alaska", "wild_1", "peru"]})
    assert risk.render(more_cards) != risk.render(a), "a card count must show, so this test can tell"


def pixels_of(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> int:
    return sum(px == colour for px in (img.crop(box) if box else img).get_flattened_data())


@pytest.mark.rule("RISK-DIG-36")
def test_last_turn_attacks_are_arrows_and_conquests_are_outlined(board_state: RiskState, picture: Image.Image) -> None:
    """RISK-DIG-36, including the Alaska–Kamchatka arrow drawn off both edges of the map."""
    battle = E.Battle(player=P1, source="alaska", target="kamchatka", defender=P2, attack_dice=[6, 4, 2],
                      defence_dice=[5, 4], attacker_losses=1, defender_losses=1)
    won = E.Conquered(player=P1, source="alaska", target="kamchatka", previous_owner=P2)
    after = decode(risk.render(board_state, [battle, won]))
    top, bottom = risk.MAP_Y, risk.MAP_Y + GEOMETRY.height
    assert pixels_of(picture, risk.ATTACK_ARROW, (0, top, 1600, bottom)) == 0
    assert pixels_of(picture, risk.ATTACK_ARROW, (0, bottom, 1600, picture.height)) > 100, "the key shows the arrow"
    assert pixels_of(after, risk.ATTACK_ARROW, (0, top, 12, bottom)) > 10, "no arrow at the left edge"
    assert pixels_of(after, risk.ATTACK_ARROW, (1588, top, 1600, bottom)) > 10, "no arrow at the right edge"
    kamchatka = GEOMETRY.territories["kamchatka"].bbox
    region = (kamchatka.x0, kamchatka.y0 + top, kamchatka.x1, kamchatka.y1 + top)
    assert pixels_of(picture, risk.CONQUERED, region) == 0
    assert pixels_of(after, risk.CONQUERED, region) > 300, "the conquered territory is not outlined"


@pytest.mark.rule("RISK-DIG-36")
@pytest.mark.parametrize("backwards", [False, True])
def test_arrows_never_cover_a_name_or_an_army_count(board_state: RiskState, picture: Image.Image,
                                                    backwards: bool) -> None:
    """The last turn's arrows for every linked pair at once, either way round: each label and badge (2 px around
    them, and the badge's ring, included) is drawn exactly as without them, and every arrow shows."""
    pairs = [(e.b, e.a) if backwards else (e.a, e.b) for e in risk.board().data.edges]
    battles = [E.Battle(player=P1, source=a, target=b, defender=P2, attack_dice=[6], defence_dice=[1],
                        attacker_losses=0, defender_losses=1) for a, b in pairs]
    after = decode(risk.render(board_state, battles))
    for tid, shape in GEOMETRY.territories.items():
        for what, box, grow in (("name", shape.label.box, 2), ("army count", shape.badge, risk.BADGE_RING + 2)):
            region = (box.x0 - grow, box.y0 - grow + risk.MAP_Y, box.x1 + grow, box.y1 + grow + risk.MAP_Y)
            assert after.crop(region).tobytes() == picture.crop(region).tobytes(), f"an arrow covers {tid}'s {what}"
    for a, b in pairs:
        tip = GEOMETRY.arrow(a, b)[-1][1]
        near = (tip[0] - 12, tip[1] - 12 + risk.MAP_Y, tip[0] + 12, tip[1] + 12 + risk.MAP_Y)
        assert pixels_of(after, risk.ATTACK_ARROW, near) > 20, f"no arrowhead for {a} → {b}"


@pytest.mark.rule("RISK-DIG-36")
def test_fortify_moves_are_arrows_too(board_state: RiskState, picture: Image.Image) -> None:
    fortify = E.Moved(player=P1, source="ontario", target="quebec", count=3, kind="fortify")
    occupy = E.Moved(player=P1, source="ontario", target="quebec", count=3, kind="occupy")
    assert risk.render(board_state, [occupy]) == risk.render(board_state)
    after = decode(risk.render(board_state, [fortify]))
    quebec = GEOMETRY.territories["quebec"].bbox
    region = (quebec.x0, quebec.y0 + risk.MAP_Y, quebec.x1, quebec.y1 + risk.MAP_Y)
    assert pixels_of(after, risk.FORTIFIED, region) > pixels_of(picture, risk.FORTIFIED, region) + 300


@pytest.mark.rule("RISK-CONQ-2")
def test_a_conquest_awaiting_its_move_in_shows_the_armies_that_must_move_in() -> None:
    """RISK-CONQ-5 says a territory is never empty, but the state holds 0 armies there until the move-in: the
    board shows the conqueror's minimum as "3+" on a hollow badge of their colour, never a 0."""
    before = position(6, phase=Phase.ATTACK, owner={"ontario": P1, "quebec": P2}, armies={"ontario": 10, "quebec": 2})
    attack = ("attack", P1, {"source": "ontario", "target": "quebec", "dice": 3, "until": "conquer"})
    pending, events = play(before, attack, dice=[6, 6, 6, 1, 1])
    assert pending.interrupt is not None and pending.interrupt.kind == "occupy" and pending.armies["quebec"] == 0
    red = risk.LOOKS["red"]
    risk._badge.cache_clear()
    with drawn() as texts:
        img = decode(risk.render(pending, events))
    assert "3+" in texts and "0" not in texts
    badge = GEOMETRY.territories["quebec"].badge
    assert close(at(img, *fill_anchor("quebec")), red.fill), "the conqueror's fill"
    assert at(img, *badge_anchor("quebec")) == draw.LIGHT_INK, "a hollow badge"
    assert at(img, badge.x0 + 1, badge.centre[1]) == red.badge, "ringed in the conqueror's colour"
    digits = img.crop((badge.x0 + 22, badge.y0 + 4 + risk.MAP_Y, badge.x1 - 4, badge.y1 - 4 + risk.MAP_Y))
    assert pixels_of(digits, draw.DARK_INK) >= 30, "the count, in dark ink on white"
    moved, _ = play(pending, ("move", P1, {"count": 5}))
    assert at(decode(risk.render(moved)), *badge_anchor("quebec")) == red.badge, "once moved in, a plain badge"


@pytest.mark.rule("RISK-DIG-36", "RISK-FORT-3")
def test_a_connected_fortify_is_drawn_link_by_link_through_the_movers_territories() -> None:
    """Eastern United States to Alaska is no link: the arrows follow P1's chain through Ontario and the
    Northwest Territory (not through P2's Alberta), each across its border, clear of the names."""
    chain = ("eastern_united_states", "ontario", "northwest_territory", "alaska")
    state = position(3, owner=dict.fromkeys(chain, P1) | {"alberta": P2}, fortify_mode="connected")
    move = E.Moved(player=P1, source=chain[0], target=chain[-1], count=2, kind="fortify")
    img = decode(risk.render(state, [move]))
    for a, c in pairwise(chain):
        (x0, y0), (x1, y1) = GEOMETRY.arrow(a, c)[0]
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        assert at(img, *middle) == risk.FORTIFY_ARROW, f"no fortify arrow from {a} to {c}"
    for a, c in (("western_united_states", "alberta"), ("alberta", "alaska")):
        (x0, y0), (x1, y1) = GEOMETRY.arrow(a, c)[0]
        assert at(img, (x0 + x1) / 2, (y0 + y1) / 2) != risk.FORTIFY_ARROW, f"{a} → {c} is not on P1's chain"
    back = E.Battle(player=P1, source="northwest_territory", target="ontario", defender=P2, attack_dice=[6],
                    defence_dice=[1], attacker_losses=0, defender_losses=1)
    (x0, y0), (x1, y1) = GEOMETRY.arrow("ontario", "northwest_territory")[0]
    link = (min(x0, x1) - 16, min(y0, y1) - 16 + risk.MAP_Y, max(x0, x1) + 16, max(y0, y1) + 16 + risk.MAP_Y)
    outlined = [pixels_of(decode(risk.render(state, events)), draw.DARK_INK, link) for events in ([back], [back, move])]
    assert outlined[0] == outlined[1], "where an attack took the link the other way, only the attack's arrow shows"


def test_banner_marks_armies_to_place_only_when_there_are_some() -> None:
    banner = (0, 0, 1600, risk.BANNER_H)
    idle = decode(risk.render(position(3, phase=Phase.ATTACK)))
    placing = decode(risk.render(position(3, phase=Phase.REINFORCE, pool=7)))
    assert pixels_of(idle, risk.PLACE_HIGHLIGHT, banner) == 0
    assert pixels_of(placing, risk.PLACE_HIGHLIGHT, banner) > 500


def test_legend_grows_a_row_for_neutral_and_more_than_four_entries() -> None:
    four = decode(risk.render(position(4)))
    with_neutral = decode(risk.render(position(4, owner={"alaska": NEUTRAL})))
    six = decode(risk.render(position(6)))
    assert four.height < with_neutral.height == six.height


def test_names_in_any_script_render_and_odd_names_do_not_break_the_picture() -> None:
    names = ["Владимир Владимирович", "김민준", "Friedrich Wilhelm Maximilian Alexander of Hohenzollern-Emden",
             "🐉🐉🐉", "Åsa Öberg-Šimić", "\u200b"]
    state = position(6)
    state = state.model_copy(update={"players": [p.model_copy(update={"name": n})
                                                 for p, n in zip(state.players, names, strict=True)]})
    png = render_board(state)
    assert decode(png).width >= 1600 and png != risk.render(position(6))


def test_render_board_dispatches_on_the_game() -> None:
    state = position(3)
    assert render_board(state) == risk.render(state)
    with pytest.raises(ValueError, match="no board renderer"):
        render_board(state.model_copy(update={"game": "chess"}))


def test_every_colour_pair_at_an_edge_has_in_between_shades() -> None:
    palette = risk.board().palette
    assert len(palette.colours) <= 256
    looks = [*risk.LOOKS.values(), risk.NEUTRAL_LOOK]
    for a, b in combinations(looks, 2):
        assert a.badge != b.badge and a.fill != b.fill
    for look in looks:
        assert len(set(palette.levels(look.fill, ink_for(look.fill)))) == draw.STEPS + 2
        assert len(set(palette.levels(look.badge, ink_for(look.badge)))) == draw.STEPS + 2


@pytest.mark.rule("RISK-DIG-31")
def test_the_six_player_colours_read_as_six_players_and_none_as_neutral_ground() -> None:
    """Fills and badges differ from one another, from Neutral and from unclaimed ground, and none is a grey
    (a dark grey "black" looked like neutral or disabled ground); Neutral itself stays grey."""
    assert risk.LOOKS.keys() == set(risk.board().data.colours)
    fills = {c: look.fill for c, look in risk.LOOKS.items()}
    assert problems(fills, {"neutral": risk.NEUTRAL_LOOK.fill, "unclaimed": risk.UNCLAIMED}) == []
    badges = {c: look.badge for c, look in risk.LOOKS.items()}
    assert problems(badges, {"neutral": risk.NEUTRAL_LOOK.badge}) == []
    assert problems({"neutral": risk.NEUTRAL_LOOK.badge}, {}) != [], "Neutral is grey (RISK-DIG-31)"


def test_an_absent_seat_is_marked_in_the_legend() -> None:
    """RISK-DIG-34 status markers: a seat an AI plays for says so in the legend; nothing else changes."""
    from engine.core.models import Seat
    from engine.games.risk import RULESET, RiskOptions
    from renderer import render_board

    seats = [Seat(id=i, name=f"P{i}") for i in (1, 2, 3)]
    state, _ = RULESET.new_game(seats, RiskOptions(setup="random_deal"), 3)
    plain = render_board(state)
    marked = render_board(state, away=frozenset({2}))
    assert plain != marked and render_board(state, away=frozenset({2})) == marked
    assert render_board(state, away=frozenset({99})) == plain  # only seats in the game are marked
