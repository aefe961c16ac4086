"""
Infrastructure, no game data: the one error registry, the UTC day, input read once,
room codes, links, Redis-or-memory stores, presence marks, per-client limits, metrics.
"""
