"""The commands show views: the public one in public answers, the user's own in private ones (issue #15, part 5)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games import get
from engine.games.risk import RiskState
from tests.cogs.conftest import start_game, state_of, uid
from tests.discord.harness import DispatchHarness


@pytest.mark.rule("RISK-DIG-2", "RISK-DIG-6")
async def test_commands_read_views_and_never_the_whole_position(h: DispatchHarness,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    ada, bo, _ = await start_game(h, "Ada", "Bo", "Cy", mode="secret_mission")
    real = await state_of(h)
    board = get("risk").board  # type: ignore[attr-defined]
    service = h.bot.service  # type: ignore[attr-defined]
    seen: list[int | None] = []
    shown = service.view

    async def view(channel: int, viewer: int | None) -> Any:
        seen.append(viewer)
        return await shown(channel, viewer)

    async def whole(channel: int) -> Any:
        raise AssertionError("a command read the whole position, secrets and all")

    monkeypatch.setattr(service, "view", view)
    monkeypatch.setattr(service, "current", whole)
    for command, options, viewer in ((("board",), {"view": "text"}, None), (("game", "status"), {}, None),
                                     (("risk", "hand"), {}, uid(ada)), (("risk", "mission"), {}, uid(ada))):
        seen.clear()
        result = await h.slash(*command, options=options, user=ada)
        assert not result.said.startswith("⚠️"), result.said
        assert seen and set(seen) == {viewer}, f"/{' '.join(command)} read the view of {seen}"
    mission = (await h.slash("risk", "mission", user=ada)).said
    assert isinstance(real, RiskState) and board.mission[real.missions[uid(ada)]].text in mission
    theirs = board.mission[real.missions[uid(bo)]].text
    assert theirs not in mission or theirs == board.mission[real.missions[uid(ada)]].text  # both may occupy 24
