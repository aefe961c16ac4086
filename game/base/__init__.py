"""
Shared ground for every layer above: the one error registry, the UTC day, input read
once, room codes, Redis-or-memory stores, presence marks and per-client limits.
"""
