"""
Weekly leagues: each week every account that plays meets ~30 of its tier, and the
week's points move the top up and the bottom down — a board anyone can win (docs/leagues.md).
"""
