"""Pictures of the game (issue 23)."""

from bot.pictures.board import draw_board
from bot.pictures.canvas import Picture

__all__ = ["Picture", "draw_board"]
