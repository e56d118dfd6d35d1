"""A small, thread-safe LRU of rendered pictures for the service, keyed by what identifies a render."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class RenderCache:
    """The last `max_items` pictures, e.g. keyed by (game id, state version, locale).

    A game's state version changes with every action, so a stale picture is never returned; old entries
    simply fall out.
    """

    def __init__(self, max_items: int = 64) -> None:
        if max_items < 1:
            raise ValueError("max_items must be at least 1")
        self.max_items = max_items
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            png = self._items.get(key)
            if png is not None:
                self._items.move_to_end(key)
            return png

    def put(self, key: Hashable, png: bytes) -> None:
        with self._lock:
            self._items[key] = png
            self._items.move_to_end(key)
            while len(self._items) > self.max_items:
                self._items.popitem(last=False)

    def get_or_render(self, key: Hashable, render: Callable[[], bytes]) -> bytes:
        """The cached picture, or `render()` stored under `key`; rendering happens outside the lock."""
        png = self.get(key)
        if png is None:
            png = render()
            self.put(key, png)
        return png
