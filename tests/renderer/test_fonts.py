"""The shipped fonts draw every name in Latin, Cyrillic and Hangul; what they cannot draw is left out."""

from __future__ import annotations

import pytest
from PIL import ImageFont

from renderer.fonts import BOLD, ELLIPSIS, FALLBACK_BOLD, FALLBACK_REGULAR, MISSING_PROBE, REGULAR, clean, fit, font

CYRILLIC = "Владимир Владимирович"
HANGUL = "김민준"


def mask(f: ImageFont.FreeTypeFont, text: str) -> tuple[tuple[int, int], bytes]:
    m = f.getmask(text)
    return m.size, bytes(m)


def test_fonts_ship_with_the_repository_and_their_licences() -> None:
    for path in (REGULAR, BOLD, FALLBACK_REGULAR, FALLBACK_BOLD):
        assert path.is_file() and path.stat().st_size > 500_000
    assert "SIL Open Font License" in (REGULAR.parent / "NanumGothic-OFL.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera" in (REGULAR.parent / "DejaVuSans-LICENSE.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("name", [CYRILLIC, HANGUL])
def test_cyrillic_and_hangul_names_draw_real_glyphs(name: str, bold: bool) -> None:
    f = font(19, bold).primary
    box = mask(f, MISSING_PROBE)
    assert mask(f, name) != mask(f, MISSING_PROBE * len(name))
    for ch in name.replace(" ", ""):
        assert mask(f, ch) != box, f"{ch!r} would be drawn as the missing-glyph box"
    assert clean(name, font(19, bold)) == name


def test_the_missing_glyph_box_is_what_a_lacking_code_point_draws() -> None:
    f = font(19, True).primary
    assert mask(f, "\U0001f409") == mask(f, MISSING_PROBE)  # 🐉 is not in the font: the comparison can fail
    assert mask(f, "Ö") == mask(f, MISSING_PROBE), "NanumGothic has no Ö: DejaVu Sans must draw it"


@pytest.mark.parametrize("name", ["Åsa Öberg-Šimić", "Ärger Übel Weiß", "Łukasz Żółć", "Ødegård", "Dvořák"])
def test_latin_letters_nanum_lacks_come_from_the_fallback_font(name: str) -> None:
    face = font(19, True)
    assert clean(name, face) == name
    for ch in name.replace(" ", ""):
        drawn_by = face.face_for(ch)
        assert drawn_by is not None and mask(drawn_by, ch) != mask(drawn_by, MISSING_PROBE), ch


def test_emoji_controls_and_unknown_scripts_are_left_out() -> None:
    face = font(19, True)
    assert clean("🐉 Drachen\u200dreiter 🐉", face) == "Drachenreiter"
    assert clean("Tab\tand\nnewline\x00", face) == "Tab and newline"
    assert clean("\U0001f409\U0001f389", face) == ""
    for name in ["🐉 Dragon", "ℵ אבג ก ᚠ", CYRILLIC, HANGUL, "Åsa"]:
        assert all(face.face_for(ch) for ch in clean(name, face).replace(" ", "")), name


def test_long_names_are_shortened_with_an_ellipsis() -> None:
    face = font(19, True)
    name = "Friedrich Wilhelm Maximilian Alexander of Hohenzollern-Emden"
    assert len(name) == 60
    short = fit(name, face, 300)
    assert short.endswith(ELLIPSIS) and face.getlength(short) <= 300 and name.startswith(short[:-1])
    assert fit("Alice", face, 300) == "Alice"


def test_text_with_a_fallback_letter_sits_on_the_same_line() -> None:
    face = font(26, True)
    plain, _, plain_top = face.mask("Oberg", "lm")
    mixed, _, mixed_top = face.mask("Öberg", "lm")
    assert abs((plain_top + plain.height) - (mixed_top + mixed.height)) <= 1, "baselines differ"
    assert abs(plain.width - mixed.width) <= 3
