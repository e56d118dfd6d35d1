"""The async game service: one game per channel, loaded, changed and saved one action at a time.

One module per concern (games, lobby, play, clocks, table, records, board, posts); `GameService` is all of them.
"""

from engine.replays import TURN_EVENT
from engine.service.clocks import Clocks
from engine.service.games import Renderer, lobby_of, parse_state
from engine.service.lobby import AI_NAMES, LOBBY_DAYS, Lobbies
from engine.service.models import Alarm, Entry, Game, HistoryPage, Outcome, Post, Queued, Step, VoteTally
from engine.service.play import MAX_AI_STEPS, Play
from engine.service.posts import Posts
from engine.service.records import Records
from engine.service.table import Tables


class GameService(Lobbies, Play, Clocks, Tables, Records, Posts):
    """Turns player commands into rule actions on the channel's game, safely and exactly once."""


__all__ = ["AI_NAMES", "LOBBY_DAYS", "MAX_AI_STEPS", "TURN_EVENT", "Alarm", "Entry", "Game", "GameService",
           "HistoryPage", "Outcome", "Post", "Queued", "Renderer", "Step", "VoteTally", "lobby_of", "parse_state"]
