"""
After the race: a finished game's stored moves, standings, records, ratings applied,
verification and fair play; below the live race (game/race/), above the deals.
"""
