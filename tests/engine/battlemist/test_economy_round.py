"""The economy phase and maintenance end to end, the position written and read back at every step."""

from __future__ import annotations

from engine.core.models import Event, copier, from_json, to_json
from engine.core.rng import Rng
from engine.games.battlemist import economy as E
from engine.games.battlemist import upkeep as U
from engine.games.battlemist.economy import Build, EconPlay, Guild, Merchant, PlayCard, Recruit
from engine.games.battlemist.pieces import CityMark, Stars, Stock
from engine.games.battlemist.state import BMState, Phase
from tests.engine.battlemist.helpers import position

copy = copier(BMState)


def reloaded(state: BMState) -> BMState:
    """The position as the store would write and read it."""
    again = from_json(BMState, to_json(state))
    assert again == state
    return copy(again)


def step(state: BMState, action: object, handler: object) -> tuple[BMState, list[Event]]:
    state = reloaded(state)
    rng = Rng(state.rng)
    events = handler(state, action, rng)  # type: ignore[operator]
    state.rng = rng.export()
    return state, events


def test_a_round_of_economy_and_maintenance_survives_saving_at_every_step() -> None:
    state = copy(position(phase=Phase.COUNCIL, troops={"N20": {1: {"infantry": 1}}, "N22": {2: {"infantry": 2}}},
                          cities={"N20": CityMark(kind="city", since=0)}, hands={1: ["AC07", "AC12"]},
                          stock={1: {"grain": 8, "wood": 12, "iron": 12}, 2: {"grain": 7, "wood": 6, "iron": 6}},
                          stars={1: Stars(owned=1), 2: Stars(owned=1)}))
    E.begin_economy(state, Rng(state.rng))
    state, _ = step(state, E.EconStart(player=1, plays=(EconPlay(card="AC07", region="N20"),), lock=True),
                    E.econ_start)
    state, events = step(state, E.timeout_econstart(state, 2), E.econ_start)
    assert [e.type for e in events].count("harvested") == 2
    assert state.phase is Phase.ORDERS and state.stock[1] == Stock(grain=8 + 3 + 8, wood=14, iron=14)
    lines = (Recruit(unit="infantry", region="N20"), PlayCard(card="AC12"), Build(region="N20", city="large_city"),
             Merchant(give="grain", amount=9, get="iron"), Guild())
    state, _ = step(state, E.EconOrders(player=1, lines=lines[:3], lock=False), E.econ_orders)  # a first draft
    state, _ = step(state, E.EconOrders(player=1, lines=lines[:4], lock=True), E.econ_orders)
    state, _ = step(state, E.EconOrders(player=2, lines=(Recruit(unit="archers", region="H-ORC", n=2),), lock=True),
                    E.econ_orders)
    assert E.economy_finished(state)
    assert state.cities["N20"] == CityMark(kind="large_city", since=1)
    assert state.units("N20", 1).counts() == {"infantry": 2} and state.units("H-DAQ", 1).counts() == {"giant": 1}
    assert state.stock[1] == Stock(grain=19 - 9 - 3, wood=14 - 5 - 1, iron=14 + 3 - 5 - 1 - 3)
    assert E.cleanup(state, Rng(state.rng)) == []
    U.begin_upkeep(state, Rng(state.rng))
    state, _ = step(state, U.timeout_upkeep(state, 1), U.submit_upkeep)
    state, _ = step(state, U.SubmitUpkeep(player=2, lock=True), U.submit_upkeep)
    assert U.upkeep_finished(state)
    assert state.stock[1].grain == 7 - 2 - 2 and state.stock[2].grain == 7 + 3 + 2 - 1 - 2  # Hardy: 2 infantry eat 1
    reloaded(state)
