"""What a finished game costs on disk: a row a move, or packed (docs/storage.md).

    python bench/storage.py [--games 100000] [--deals 40] [--seed 1]

Fills a fresh PostgreSQL database (`halfmoon_storage_bench`, dropped and migrated
first) with `--games` finished solo games, by COPY: 70 % won (a solver's winning
line on one of `--deals` numbered deals, each pair or trio named in a random
order, at a person's pace with a person's slips taken back by an undo: the clock
of bench/fairplay_rates.py), 20 % played at random until blocked and 10 %
resigned part-way. The same games are stored twice: first as the server stores
a game in play (a `game_move` row a move, `Entry.packed_moves` empty), then as
it keeps a finished one (no `game_move` row, the moves packed by
game/engine/packing.py into `Entry.packed_moves`). After each, VACUUM ANALYZE
(what autovacuum does after a fill) and `pg_total_relation_size` (heap, indexes,
TOAST) of the tables involved. Prints and writes bench/results/storage.json:
bytes per game and per million moves of each format (the moves' own cost: the
`game_move` table, or what the packed column adds to `game_entry`), and bytes
per won game (the packed value as stored, its header included). Goal: at most
150 bytes per won game. Needs PostgreSQL (BENCH_DATABASE_ADMIN_URL).
"""

import argparse
import datetime
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench._services import bench_database  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "storage.json"
NAME = "halfmoon_storage_bench"
GOAL_BYTES = 150
START = datetime.datetime(2026, 11, 30, tzinfo=datetime.UTC)
TABLES = ("game_race", "game_entry", "game_move")


def winnable_deals(count, rng):
    """`count` numbered deals with the solver's winning line of each."""
    from game.engine import Deal, format_code
    from game.engine.solver import WINNABLE, solve

    found = []
    while len(found) < count:
        deal = Deal.from_code(format_code(rng.randrange(26**7)))
        result = solve(deal, max_seconds=0.5)
        if result.verdict == WINNABLE:
            found.append((deal, result.moves))
    return found


def random_line(deal, rng, stop):
    """Legal moves picked at random until blocked (or, with `stop`, a random share of them)."""
    from game.engine import Game

    game, moves = Game(deal), []
    while game.legal_moves() and not (stop and rng.random() < 0.03):
        moves.append(rng.choice(game.legal_moves()))
        game.remove(moves[-1])
    return moves


def one_game(deals, rng):
    """(deal index, status, rows): rows (seq, kind, slots, seconds since the start)."""
    import fairplay_rates

    index = rng.randrange(len(deals))
    deal, solver_line = deals[index]
    draw = rng.random()
    status = "won" if draw < 0.7 else "blocked" if draw < 0.9 else "resigned"
    moves = solver_line if status == "won" else random_line(deal, rng, status == "resigned")
    named = [tuple(rng.sample(move, len(move))) for move in moves]  # the order clicked
    if not named:
        return index, status, []  # a deal blocked from the start
    played, _ = fairplay_rates.person(rng).play(fairplay_rates._with_options(deal, named), rng)
    rows, line = [], []
    for seq, (at, kind, slots) in enumerate(played, start=1):
        slots = line.pop() if kind == "undo" else line.append(tuple(slots)) or tuple(slots)
        rows.append((seq, kind, slots, at))
    return index, status, rows


def games(count, deals, seed):
    """`count` games (`one_game`), each with its packed bytes."""
    from game.engine import packing

    rng = random.Random(seed)
    made = []
    for n in range(count):
        index, status, rows = one_game(deals, rng)
        ms = [(seq, kind, slots, int(at * 1000)) for seq, kind, slots, at in rows]
        data = packing.encode(deals[index][0], ms)
        if n % 100 == 0:  # the bench stores what it measures: a sample decoded back
            assert packing.decode(deals[index][0], data) == ms
        made.append((index, status, rows, data))
    return made


def fill_deals(cursor, deals):
    """The deals' rows; their ids in the order of `deals`."""
    ids = []
    for deal, _ in deals:
        cursor.execute(
            "INSERT INTO game_deal (code, source, title, notes, created_at)"
            " VALUES (%s, 'numbered', '', '', now()) RETURNING id",
            [deal.code],
        )
        ids.append(cursor.fetchone()[0])
    return ids


def fill(cursor, made, deal_ids, packed):
    """COPY one race, one entry and (unless `packed`) a row a move of every game."""
    race_columns = "id, room, deal_id, mode, host_key, status, event, created_at, started_at,"
    race_columns += " finished_at, deal_hidden, rated"
    with cursor.copy(f"COPY game_race ({race_columns}) FROM STDIN") as copy:
        for n, (index, _, rows, _) in enumerate(made, start=1):
            start = START + datetime.timedelta(seconds=n)
            end = start + datetime.timedelta(seconds=rows[-1][3] if rows else 0)
            copy.write_row(
                (n, f"{n:08x}", deal_ids[index], "solo", "k", "finished", 1, start, start, end)
                + (False, False)
            )
    _fill_entries(cursor, made, packed)
    if not packed:
        _fill_moves(cursor, made)


def _fill_entries(cursor, made, packed):
    columns = "id, race_id, player_key, name, joined_at, connected, status, score, moves,"
    columns += " cards_left, heights, seq, finished_at, undos, time_ms, review, ranked,"
    columns += " packed_moves"
    with cursor.copy(f"COPY game_entry ({columns}) FROM STDIN") as copy:
        for n, (_, status, rows, data) in enumerate(made, start=1):
            start = START + datetime.timedelta(seconds=n)
            ms = int(rows[-1][3] * 1000) if rows else 0
            moves = sum(1 if kind == "move" else -1 for _, kind, _, _ in rows)
            undos = sum(kind == "undo" for _, kind, _, _ in rows)
            copy.write_row(
                (n, n, "k" * 32, f"player {n}", start, False, status, 10 * moves, moves)
                + (0 if status == "won" else 104 - 2 * moves, "[]", len(rows))
                + (start + datetime.timedelta(milliseconds=ms), undos, ms, "clean", False)
                + (data if packed else None,)
            )


def _fill_moves(cursor, made):
    with cursor.copy("COPY game_move (entry_id, seq, kind, slots, at) FROM STDIN") as copy:
        for n, (_, _, rows, _) in enumerate(made, start=1):
            start = START + datetime.timedelta(seconds=n)
            for seq, kind, slots, at in rows:
                slots = json.dumps(list(slots))
                copy.write_row((n, seq, kind, slots, start + datetime.timedelta(seconds=at)))


def sizes(connection):
    """Each table's `pg_total_relation_size` (heap, indexes, TOAST), after VACUUM ANALYZE."""
    connection.execute("VACUUM ANALYZE")
    return {
        table: connection.execute("SELECT pg_total_relation_size(%s)", [table]).fetchone()[0]
        for table in TABLES
    }


def stored(url, made, deal_ids, packed):
    """The tables' sizes with the games stored one way."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("TRUNCATE game_race, game_entry, game_move CASCADE")
        with connection.transaction(), connection.cursor() as cursor:
            fill(cursor, made, deal_ids, packed)
        found = sizes(connection)
        won = connection.execute(
            "SELECT avg(pg_column_size(packed_moves)), avg(octet_length(packed_moves)),"
            " max(pg_column_size(packed_moves)) FROM game_entry WHERE status = 'won'"
        ).fetchone()
    return found, won


def report(made, rows_sizes, packed_sizes, won):
    """The figures: the moves' own bytes in each format, a game and a million moves."""
    count = len(made)
    moves = sum(len(rows) for _, _, rows, _ in made)
    won_games = [rows for _, status, rows, _ in made if status == "won"]
    row_bytes = rows_sizes["game_move"]
    packed_bytes = packed_sizes["game_entry"] - rows_sizes["game_entry"]
    per_row = row_bytes / moves
    return {
        "games": count,
        "won_games": len(won_games),
        "rows": moves,
        "rows_per_won_game": round(sum(map(len, won_games)) / len(won_games), 1),
        "tables_rows_format": rows_sizes,
        "tables_packed_format": packed_sizes,
        "rows_format": {
            "bytes_per_game": round(row_bytes / count, 1),
            "bytes_per_million_moves": round(row_bytes / moves * 1e6),
            "bytes_per_won_game": round(per_row * sum(map(len, won_games)) / len(won_games), 1),
            "all_tables_bytes_per_game": round(sum(rows_sizes.values()) / count, 1),
        },
        "packed_format": {
            "bytes_per_game": round(packed_bytes / count, 1),
            "bytes_per_million_moves": round(packed_bytes / moves * 1e6),
            "bytes_per_won_game": round(float(won[0]), 1),
            "packed_bytes_per_won_game": round(float(won[1]), 1),
            "largest_won_game_bytes": won[2],
            "all_tables_bytes_per_game": round(sum(packed_sizes.values()) / count, 1),
        },
        "goal_bytes_per_won_game": GOAL_BYTES,
    }


def print_report(figures, seconds):
    print(f"{figures['games']:,} games ({figures['won_games']:,} won), {figures['rows']:,} rows")
    print(f"{'':26}{'rows':>14}{'packed':>14}")
    for name in ("bytes_per_game", "bytes_per_million_moves", "bytes_per_won_game"):
        rows, packed = figures["rows_format"][name], figures["packed_format"][name]
        print(f"{name:26}{rows:>14,}{packed:>14,}")
    name = "all_tables_bytes_per_game"
    rows, packed = figures["rows_format"][name], figures["packed_format"][name]
    print(f"{'race+entry+moves per game':26}{rows:>14,}{packed:>14,}")
    won = figures["packed_format"]["bytes_per_won_game"]
    verdict = "within" if won <= GOAL_BYTES else "OVER"
    print(f"a won game packed: {won} bytes on disk, {verdict} the goal of {GOAL_BYTES}")
    print(f"timings: {seconds}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    url = bench_database(NAME)
    if url is None:
        return
    sys.path.insert(0, str(ROOT / "bench"))  # fairplay_rates: a person's clock
    figures, seconds = measure(url, args)
    figures["seconds"] = seconds
    print_report(figures, seconds)
    RESULTS.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"written {RESULTS.relative_to(ROOT)}")


def measure(url, args):
    import psycopg

    seconds, began = {}, time.perf_counter()
    deals = winnable_deals(args.deals, random.Random(args.seed))
    made = games(args.games, deals, args.seed)
    seconds["generate_and_pack"] = round(time.perf_counter() - began, 1)
    with psycopg.connect(url, autocommit=True) as connection, connection.cursor() as cursor:
        deal_ids = fill_deals(cursor, deals)
    began = time.perf_counter()
    rows_sizes, _ = stored(url, made, deal_ids, packed=False)
    seconds["fill_rows"] = round(time.perf_counter() - began, 1)
    began = time.perf_counter()
    packed_sizes, won = stored(url, made, deal_ids, packed=True)
    seconds["fill_packed"] = round(time.perf_counter() - began, 1)
    return report(made, rows_sizes, packed_sizes, won), seconds


if __name__ == "__main__":
    main()
