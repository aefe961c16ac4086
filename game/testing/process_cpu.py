"""
Where a command's CPU goes, by kind of process: `python -m game.testing.process_cpu CMD...`
(`make test-cpu` runs the suite under it).

The suite is bound by the machine's CPU as a whole, and `times` counts only the
processes pytest waits for: Chromium's renderers (children of its zygote), the shared
PostgreSQL and Redis are not among them. This reads every process of the machine from
/proc every `EVERY` seconds while the command runs, then prints by kind (Chromium's
renderers, browsers and GPU processes, Playwright's drivers, the tests' daphne servers,
`manage.py` commands and their forks, solver forkservers, pytest's workers, PostgreSQL,
...) how many processes ran and the CPU-seconds they used during the command. A process
that ends between two readings loses at most its last `EVERY` seconds; one that was
running before the command counts only what it used after the first reading.
"""

import os
import re
import subprocess
import sys
import threading

EVERY = 0.2
TICKS = os.sysconf("SC_CLK_TCK")

KINDS = [
    ("Chromium renderers", re.compile(r"chromium.*--type=renderer")),
    ("Chromium GPU", re.compile(r"chromium.*--type=gpu-process")),
    ("Chromium zygotes and utilities", re.compile(r"chromium.*--type=")),
    ("Chromium browsers", re.compile(r"chromium")),
    ("Playwright drivers", re.compile(r"playwright/driver")),
    ("node (tests/js)", re.compile(r"^\S*node\b")),
    # Before daphne's: forks.py's commands' processes are forks of its set-up process,
    # its command line theirs too; they name themselves (`[hm-commands]`, see _read).
    ("manage.py commands", re.compile(r"manage\.py|game\.testing\.commands|^\[hm-commands\]")),
    ("daphne servers", re.compile(r"daphne|game\.testing\.forks")),  # forks: forks.py
    ("solver forkservers and workers", re.compile(r"multiprocessing")),
    ("pytest workers", re.compile(r"exec\(eval\(sys\.stdin")),
    ("pytest", re.compile(r"pytest")),
    ("PostgreSQL", re.compile(r"^(\S*/)?postgres\b")),
    ("Redis", re.compile(r"^(\S*/)?redis")),
    ("nginx", re.compile(r"^(\S*/)?nginx\b")),
]
"""The first that matches a process's command line names its kind."""


def kind(command_line):
    """The kind of a process, by its command line (its name if no kind matches)."""
    for name, pattern in KINDS:
        if pattern.search(command_line):
            return name
    return f"other: {os.path.basename(command_line.split(' ', 1)[0]) or '?'}"


def _read(pid):
    """(start time, CPU ticks, command line) of a process, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            command_line = cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()
        with open(f"/proc/{pid}/comm") as comm:
            name = comm.read().strip()
    except OSError:
        return None
    if name.startswith("hm-") and command_line:  # a fork that named itself (forks.py)
        command_line = f"[{name}] {command_line}"
    return fields[19], int(fields[11]) + int(fields[12]), command_line


class Readings:
    """Every process seen: its kind, its ticks at the first reading, its last ticks."""

    def __init__(self):
        self.seen, self.first = {}, True
        self.own = os.getpid()

    def read(self):
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == self.own:
                continue
            found = _read(entry)
            if found is None or not found[2]:  # gone, or a kernel thread
                continue
            started, ticks, command_line = found
            key = (entry, started)
            if key in self.seen:  # its kind again: a fork names itself once it runs
                self.seen[key][0], self.seen[key][2] = kind(command_line), ticks
            else:  # a process running before the command counts from here
                self.seen[key] = [kind(command_line), ticks if self.first else 0, ticks]
        self.first = False

    def by_kind(self):
        """{kind: (processes, CPU-seconds)}, the most CPU first."""
        totals = {}
        for name, first, last in self.seen.values():
            count, ticks = totals.get(name, (0, 0))
            totals[name] = (count + (last > first), ticks + last - first)
        used = {name: (n, ticks / TICKS) for name, (n, ticks) in totals.items() if ticks}
        return dict(sorted(used.items(), key=lambda item: -item[1][1]))


def measure(command):
    """Run `command`, reading /proc meanwhile: (its exit status, `Readings.by_kind()`)."""
    readings, done = Readings(), threading.Event()
    readings.read()

    def keep_reading():
        while not done.wait(EVERY):
            readings.read()

    reader = threading.Thread(target=keep_reading, daemon=True)
    reader.start()
    try:
        status = subprocess.call(command)
    finally:
        done.set()
        reader.join()
    readings.read()
    return status, readings.by_kind()


def table(used):
    """The figures as lines: kind, processes that used CPU, CPU-seconds; then the total."""
    lines = [f"{'CPU by kind of process':34} {'processes':>9} {'CPU-s':>9}"]
    lines += [f"{name:34} {count:9d} {seconds:9.1f}" for name, (count, seconds) in used.items()]
    total = sum(seconds for _, seconds in used.values())
    return [*lines, f"{'all':34} {sum(n for n, _ in used.values()):9d} {total:9.1f}"]


def main(argv):
    if not argv:
        print("usage: python -m game.testing.process_cpu COMMAND [ARGS...]", file=sys.stderr)
        return 2
    status, used = measure(argv)
    print("\n".join(table(used)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
