"""
Shared runs as stored: a finished game someone shared, under a token of its own.

The link a player shares names this token, never the deal's code nor the room: the
code may still be secret (today's daily deal), and a token is unguessable where a
room of six letters is not. One token a game, so sharing it again gives the same link.
The rules on it are game/runs/shares.py's.
"""

from django.db import models

from game.models.races import Entry

TOKEN_LENGTH = 22
"""`secrets.token_urlsafe(16)`: 128 random bits in 22 characters."""


class SharedRun(models.Model):
    token = models.CharField(max_length=TOKEN_LENGTH, unique=True)
    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, related_name="shared", help_text="the game shared"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.token} ({self.entry_id})"
