"""A finished game's moves, packed into a few bytes (docs/storage.md is the spec).

A live game keeps one database row per move; once it is over nothing can change,
so its rows are replaced by one value made here. Like Lichess's games, a move is
stored as its index among `Game.legal_moves()` of the position before it: the
decoder replays the deal and knows those moves, and how many there are, so the
index costs log2 of that count, coded as the optimal prefix code for it
(truncated binary: docs/storage.md measures why this beats one Huffman table). The
order the player named the slots in, and each row's time as a varint delta of
milliseconds from the race's start, are kept: replays, splits and fair play read
them, and a finished game's retried move is recognised by its exact slots.
"""

from itertools import permutations

from .game import Game

VERSION = 1
SIGNED = 0x80
"""Header flag: the time deltas are zigzag-coded (some row came before the one before it)."""
MOVE, UNDO = "move", "undo"


class PackingError(ValueError):
    """Rows that cannot be packed, or bytes that are not a packed game."""


def encode(deal, rows):
    """The packed bytes of `rows`: (seq, kind, slots, ms) of each stored move and undo
    in order, seqs consecutive, ms the row's milliseconds since the race's start; an
    undo's slots are those of the move it takes back (so they cost nothing)."""
    rows = list(rows)
    deltas = _deltas([ms for *_, ms in rows])
    signed = any(delta < 0 for delta in deltas)
    out = bytearray([VERSION | (SIGNED if signed else 0)])
    first = rows[0][0] if rows else 1
    _varint(out, first)
    _varint(out, len(rows))
    for delta in deltas:
        _varint(out, (delta << 1) ^ (delta >> 63) if signed else delta)
    bits = _Bits()
    game = Game(deal)
    for number, (seq, kind, slots, _) in enumerate(rows):
        if seq != first + number:
            raise PackingError(f"seq {seq} after {first + number - 1}: seqs must follow each other")
        _encode_row(bits, game, kind, tuple(slots))
    return bytes(out + bits.done())


def _encode_row(bits, game, kind, slots):
    """One row's code: its index among the legal moves (or undo's), then the slot order."""
    legal = game.legal_moves()
    choices = len(legal) + (1 if game.undoable else 0)
    if kind == UNDO:
        if not game.undoable:
            raise PackingError("an undo with nothing to undo")
        bits.truncated(len(legal), choices)
        if game.undo().slots != slots:
            raise PackingError("an undo that names other slots than the move it takes back")
        return
    try:
        index = legal.index(_canonical(slots, legal))
    except ValueError:
        raise PackingError(f"{'+'.join(slots)} is not a legal move here") from None
    bits.truncated(index, choices)
    orders = list(permutations(legal[index]))
    bits.truncated(orders.index(slots), len(orders))
    game.remove(slots)


def _canonical(slots, legal):
    """`slots` as `legal_moves` orders them (lower rank first), or `slots` if not legal."""
    wanted = frozenset(slots)
    return next((move for move in legal if frozenset(move) == wanted), slots)


def decode(deal, data):
    """The rows `encode` packed: (seq, kind, slots, ms), slots a tuple (an undo's: the
    slots of the move it took back, as the server stores them)."""
    try:
        return _decode(deal, bytes(data))
    except (IndexError, ValueError) as exc:
        raise PackingError(f"not a packed game: {exc}") from None


def seqs(data):
    """The seqs of the rows packed in `data`, from its first bytes alone (no deal needed:
    what a bench counting stored moves reads)."""
    try:
        first, at = _read_varint(bytes(data), 1)
        return range(first, first + _read_varint(bytes(data), at)[0])
    except IndexError:
        raise PackingError("not a packed game: it ends early") from None


def _decode(deal, data):
    header = data[0]
    if header & ~SIGNED != VERSION:
        raise PackingError(f"unknown version {header & ~SIGNED}")
    first, at = _read_varint(data, 1)
    count, at = _read_varint(data, at)
    times, ms = [], 0
    for _ in range(count):
        delta, at = _read_varint(data, at)
        ms += (delta >> 1) ^ -(delta & 1) if header & SIGNED else delta
        times.append(ms)
    bits, game, rows = _Reader(data, at), Game(deal), []
    for number, ms in enumerate(times):
        kind, slots = _decode_row(bits, game)
        rows.append((first + number, kind, slots, ms))
    if bits.left_over():
        raise PackingError("bytes left over after the last row")
    return rows


def _decode_row(bits, game):
    legal = game.legal_moves()
    index = bits.truncated(len(legal) + (1 if game.undoable else 0))
    if index == len(legal):
        return UNDO, game.undo().slots
    orders = list(permutations(legal[index]))
    slots = orders[bits.truncated(len(orders))]
    game.remove(slots)
    return MOVE, slots


def _deltas(times):
    return [later - earlier for earlier, later in zip([0, *times], times, strict=False)]


def _varint(out, number):
    """LEB128: seven bits a byte, least significant first, the high bit says more follow."""
    while number >= 0x80:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    out.append(number)


def _read_varint(data, at):
    number = shift = 0
    while True:
        byte = data[at]
        at += 1
        number |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return number, at


class _Bits:
    """Bits written most significant first, the last byte padded with zeros."""

    def __init__(self):
        self.value, self.length = 0, 0

    def write(self, value, width):
        self.value = self.value << width | value
        self.length += width

    def truncated(self, value, size):
        """`value` of `size` equally likely ones in truncated binary: the optimal prefix
        code, floor(log2 size) bits for the first ones, one more for the rest (none if 1)."""
        if size <= 1:
            return
        width = size.bit_length() - 1
        short = (1 << (width + 1)) - size
        if value < short:
            self.write(value, width)
        else:
            self.write(value + short, width + 1)

    def done(self):
        pad = -self.length % 8
        return (self.value << pad).to_bytes((self.length + pad) // 8, "big")


class _Reader:
    def __init__(self, data, at):
        self.value = int.from_bytes(data[at:], "big")
        self.left = (len(data) - at) * 8

    def read(self, width):
        if width > self.left:
            raise PackingError("the moves end early")
        self.left -= width
        return self.value >> self.left & ((1 << width) - 1)

    def truncated(self, size):
        if size <= 1:
            return 0
        width = size.bit_length() - 1
        short = (1 << (width + 1)) - size
        value = self.read(width)
        if value < short:
            return value
        return (value << 1 | self.read(1)) - short

    def left_over(self):
        """Whether more than the last byte's zero padding is left."""
        return self.left >= 8 or self.value & ((1 << self.left) - 1) != 0
