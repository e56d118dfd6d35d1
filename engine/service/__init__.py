"""The async game service: one game per channel, loaded, changed and saved one action at a time.

One module per concern (games, lobby, play, clocks, table, records, board); `GameService` is all of them.
"""

from engine.replays import TURN_EVENT
from engine.service.board import Boards
from engine.service.clocks import Clocks
from engine.service.games import Renderer, lobby_of, parse_state
from engine.service.lobby import AI_NAMES, LOBBY_DAYS, Lobbies
from engine.service.models import Alarm, HistoryPage, Outcome, Step, VoteTally
from engine.service.play import MAX_AI_STEPS, Play
from engine.service.records import Records
from engine.service.table import Tables


class GameService(Lobbies, Play, Clocks, Tables, Records, Boards):
    """Turns player commands into rule actions on the channel's game, safely and exactly once."""


__all__ = ["AI_NAMES", "LOBBY_DAYS", "MAX_AI_STEPS", "TURN_EVENT", "Alarm", "GameService", "HistoryPage", "Outcome",
           "Renderer", "Step", "VoteTally", "lobby_of", "parse_state"]
