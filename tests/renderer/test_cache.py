"""The render cache the service keeps pictures in, keyed by (game, version)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from renderer.cache import RenderCache


def test_a_cached_picture_is_returned_without_rendering_again() -> None:
    cache = RenderCache(max_items=4)
    calls: list[str] = []

    def render() -> bytes:
        calls.append("render")
        return b"png-1"

    assert cache.get_or_render(("chan", 7), render) == b"png-1"
    assert cache.get_or_render(("chan", 7), render) == b"png-1"
    assert calls == ["render"]
    assert cache.get(("chan", 8)) is None, "a new version is a new picture"


def test_the_least_recently_used_picture_goes_first() -> None:
    cache = RenderCache(max_items=2)
    cache.put("a", b"A")
    cache.put("b", b"B")
    assert cache.get("a") == b"A"
    cache.put("c", b"C")
    assert cache.get("b") is None and cache.get("a") == b"A" and cache.get("c") == b"C"
    assert len(cache) == 2


def test_threads_share_the_cache_safely() -> None:
    cache = RenderCache(max_items=8)
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda k: cache.put(k % 12, bytes([k % 12])), range(400)))
    assert len(cache) == 8
    assert all(cache.get(k) in (None, bytes([k])) for k in range(12))


def test_the_cache_needs_room_for_one_picture() -> None:
    with pytest.raises(ValueError):
        RenderCache(max_items=0)
