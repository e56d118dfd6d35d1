"""Fonts shipped in data/fonts/, loaded by path, and text made safe for them.

NanumGothic draws Latin, Cyrillic and Hangul; DejaVu Sans fills in, character by character, the Latin letters
NanumGothic lacks (Ä, Ö, Å, Š, Ę, Ő …). What neither draws is dropped before drawing (emoji, other scripts),
so a missing-glyph box is never drawn.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parents[1] / "data" / "fonts"
REGULAR = FONT_DIR / "NanumGothic.ttf"
BOLD = FONT_DIR / "NanumGothicBold.ttf"
FALLBACK_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FALLBACK_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
FALLBACK_SCALE = 0.96
"""DejaVu at 96 % of the size has NanumGothic's cap height."""
ELLIPSIS = "…"
MISSING_PROBE = "\U0010fffd"
"""A code point no font has, to learn what a font's missing-glyph box looks like."""

FREETYPE_LOCK = threading.RLock()
"""FreeType faces are not thread-safe and renders run in worker threads: use them under this lock."""


def _mask_bytes(f: ImageFont.FreeTypeFont, text: str) -> tuple[tuple[int, int], bytes]:
    with FREETYPE_LOCK:
        mask = f.getmask(text)
    return mask.size, bytes(mask)


@cache
def _box_glyph(f: ImageFont.FreeTypeFont) -> tuple[tuple[int, int], bytes]:
    return _mask_bytes(f, MISSING_PROBE)


@cache
def has_glyph(f: ImageFont.FreeTypeFont, ch: str) -> bool:
    """Whether `f` draws `ch` as itself rather than as its missing-glyph box."""
    return _mask_bytes(f, ch) != _box_glyph(f)


class Typeface:
    """One size and weight: NanumGothic, with DejaVu Sans for the characters NanumGothic lacks."""

    def __init__(self, size: int, bold: bool) -> None:
        self.size = size
        self.primary = ImageFont.truetype(str(BOLD if bold else REGULAR), size)
        self.fallback = ImageFont.truetype(str(FALLBACK_BOLD if bold else FALLBACK_REGULAR),
                                           round(size * FALLBACK_SCALE))

    def face_for(self, ch: str) -> ImageFont.FreeTypeFont | None:
        """The font that draws `ch`, or None if neither does."""
        if has_glyph(self.primary, ch):
            return self.primary
        if has_glyph(self.fallback, ch):
            return self.fallback
        return None

    def runs(self, text: str) -> list[tuple[str, ImageFont.FreeTypeFont]]:
        """`text` cut into pieces that one font draws; spaces go with the text around them."""
        out: list[tuple[str, ImageFont.FreeTypeFont]] = []
        for ch in text:
            face = self.face_for(ch) if not ch.isspace() else (out[-1][1] if out else self.primary)
            face = face or self.primary
            if out and out[-1][1] is face:
                out[-1] = (out[-1][0] + ch, face)
            else:
                out.append((ch, face))
        return out

    def getlength(self, text: str) -> float:
        runs = self.runs(text)
        with FREETYPE_LOCK:
            return sum(face.getlength(part) for part, face in runs)

    def mask(self, text: str, anchor: str) -> tuple[Image.Image, int, int]:
        """The text's coverage and its top-left corner relative to the anchor point (Pillow anchor semantics).

        Vertical anchors follow NanumGothic's metrics, so a fallback letter sits on the same baseline.
        """
        runs = self.runs(text)
        with FREETYPE_LOCK:
            if len(runs) == 1 and runs[0][1] is self.primary:
                x0, y0, x1, y1 = self.primary.getbbox(text, anchor=anchor)
                mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)))
                ImageDraw.Draw(mask).text((-x0, -y0), text, font=self.primary, fill=255, anchor=anchor)
                return mask, x0, y0
            ascent, descent = self.primary.getmetrics()
            widths = [face.getlength(part) for part, face in runs]
            pad = self.size
            strip = Image.new("L", (round(sum(widths)) + 2 * pad, ascent + descent + 2 * pad))
            pen = ImageDraw.Draw(strip)
            x = float(pad)
            for (part, face), width in zip(runs, widths, strict=True):
                pen.text((x, pad + ascent), part, font=face, fill=255, anchor="ls")
                x += width
        box = strip.getbbox() or (0, 0, 1, 1)
        origin_x = pad + {"l": 0.0, "m": sum(widths) / 2, "r": sum(widths)}[anchor[0]]
        origin_y = pad + {"a": 0.0, "t": 0.0, "m": (ascent + descent) / 2, "s": ascent, "b": ascent + descent,
                          "d": ascent + descent}[anchor[1]]
        return strip.crop(box), box[0] - round(origin_x), box[1] - round(origin_y)


@cache
def font(size: int, bold: bool = False) -> Typeface:
    return Typeface(size, bold)


@lru_cache(maxsize=4096)
def clean(text: str, face: Typeface) -> str:
    """`text` as `face` can draw it: accents it lacks dropped (ǅ → D), emoji, other scripts and controls left out."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        category = unicodedata.category(ch)
        if category[0] == "Z" or ch in "\t\n\r":
            out.append(" ")
        elif category[0] == "C":
            continue
        elif face.face_for(ch):
            out.append(ch)
        elif (base := unicodedata.normalize("NFD", ch)[0]) != ch and face.face_for(base):
            out.append(base)
    return " ".join("".join(out).split())


def fit(text: str, face: Typeface, width: float) -> str:
    """`text`, shortened with an ellipsis if it is wider than `width` pixels."""
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if face.getlength(text[:mid].rstrip() + ELLIPSIS) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS
