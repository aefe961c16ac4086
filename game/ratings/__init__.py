"""Ratings as pure maths: Glicko-2, a race's pairwise results, rank names.
No Django, no I/O (game/results/rated.py stores what these compute)."""
