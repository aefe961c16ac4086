"""The Half Moon engine: pure Python, no Django, no I/O."""

from .cards import SLOTS, BadCard, parse_card, pretty
from .deals import BadDealCode, BadLayout, Deal, format_code, parse_code
from .game import BLOCKED, PLAYING, WON, Game, IllegalMove, MoveResult, replay

__all__ = [
    "BLOCKED",
    "PLAYING",
    "SLOTS",
    "WON",
    "BadCard",
    "BadDealCode",
    "BadLayout",
    "Deal",
    "Game",
    "IllegalMove",
    "MoveResult",
    "format_code",
    "parse_card",
    "parse_code",
    "pretty",
    "replay",
]
