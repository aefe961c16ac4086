"""
What a process counts for the operator's graphs: one place for every metric.

Each daphne process keeps its own figures (prometheus_client's registry of the
process) and `/metrics` (game/web/metrics.py) shows them in the Prometheus text
format; Prometheus scrapes every replica and sums or compares them
(docs/operations.md has the queries). The code that does the work only calls
`.inc()`, `.observe()` or `.set()` here: no metric is defined anywhere else.
"""

from prometheus_client import Counter, Gauge, Histogram

LATENCY_S = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
"""Buckets for a move's answer and a commit: players notice 100 ms."""

moves_acknowledged = Counter(
    "halfmoon_moves_acknowledged", "Moves and undos acknowledged (`moved` sent: committed first)"
)
ack_seconds = Histogram(
    "halfmoon_move_ack_seconds",
    "A move's frame received to its `moved` sent, queue and commit included",
    buckets=LATENCY_S,
)
refused_frames = Counter(
    "halfmoon_refused_frames",
    "Frames answered `rejected` or `error`, by frame and code (busy: the server's queue)",
    ["frame", "code"],
)
sockets_open = Gauge("halfmoon_sockets_open", "Race sockets open on this process (seated)")
races_open = Gauge(
    "halfmoon_races_open", "Races with at least one socket on this process (any status)"
)
"""Both read when scraped, from the registers of game/realtime (`set_function`)."""
commit_batch_moves = Histogram(
    "halfmoon_commit_batch_moves",
    "Moves in one group-commit transaction (game/race/moves.py)",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 200),
)
commit_seconds = Histogram(
    "halfmoon_commit_seconds",
    "One group commit: its lane's connection (opened if need be) to the batch's results"
    " (failed ones too)",
    buckets=LATENCY_S,
)
commit_failures = Counter(
    "halfmoon_commit_failures", "Group commits that failed (their moves get server_error)"
)
pool_wait_seconds = Histogram(
    "halfmoon_db_pool_wait_seconds",
    "A group commit's wait for its lane's connection (HALFMOON_MOVE_CONNECTIONS, held open):"
    " its opening, or nothing while held (named after the pool it replaced)",
    buckets=LATENCY_S,
)
heartbeat_seconds = Histogram(
    "halfmoon_heartbeat_seconds",
    "One presence heartbeat: marks and leases renewed, races whose attendance changed visited",
    buckets=LATENCY_S,
)
restart_closes = Counter(
    "halfmoon_restart_closes", "Race sockets closed with 1012 when this process was stopping"
)
pages_sent_elsewhere = Counter(
    "halfmoon_pages_sent_elsewhere",
    "HTTP requests answered 307 to their own address when this process was stopping",
)
state_reads = Counter(
    "halfmoon_state_reads",
    "Snapshots (`state`) for a socket's arrival or `sync`, by way: `read` on the event loop"
    " (nothing to change: game/race/arrival.py) or `careful` (a locked transaction)",
    ["way"],
)
