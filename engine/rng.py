"""The game's random generators (X5): every die, shuffle and random pick of a game.

Two schemes, named in the state (``GameState.dice``):

* **keyed** (:data:`KEYED`, every new game): a stream anybody can check after the game
  (docs/fair_dice.md). A secret 256-bit *server seed* and one seed per human seat (fixed
  before the first shuffle) make the key :func:`stream_key`; block ``i`` of the stream is
  ``BLAKE2b-512(key, i)`` (counter mode), 64 bytes that many draws share. A draw below ``n``
  takes the fewest whole bytes that hold ``n`` values and rejects the values above the last
  multiple of ``n`` (exact, no modulo bias); a shuffle is Fisher-Yates. The state keeps the
  seeds and one integer, the bytes drawn so far, so a stored game and its replay go on with
  the same dice. SHA-256 of the server seed (:func:`commitment`) is public from the start;
  the seed itself only once the game is over.
* **splitmix64** (``dice`` absent: games stored before the keyed stream, format-1 replay
  records, and the AI's sampled worlds): SplitMix64, whose whole state is ``GameState.rng``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, MutableSequence
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1

#: The scheme of new games: its name is in the state and the replay record.
KEYED = "blake2b-ctr-1"
#: The old scheme: a state without ``dice``.
SPLITMIX64 = "splitmix64"
#: Bytes in one block of the keyed stream (BLAKE2b's longest digest).
BLOCK = 64
#: What the key derivation hashes before the seat seeds (a new scheme gets a new label).
_LABEL = b"anima dice 1\n"
#: The longest seat seed accepted (a seat seed is a player's, not a document).
MAX_SEAT_SEED = 200


# ---------------------------------------------------------------------- SplitMix64 (old games)


def next_state(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) without modulo bias (rejection sampling)."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_state(state)
        if value < limit:
            return state, value % n


def shuffle(state: int, items: MutableSequence[T]) -> int:
    """Fisher-Yates shuffle in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


# ---------------------------------------------------------------------- the keyed stream


def commitment(server_seed: str) -> str:
    """The public commitment to a server seed (hex): SHA-256 of its 32 bytes, in hex."""
    return _commitment(server_seed)


@lru_cache(maxsize=64)
def _commitment(server_seed: str) -> str:  # a table view asks for it at every state
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def derived_server_seed(seed: int) -> str:
    """A server seed made from a game's integer seed: for simulations, tests and the terminal
    game, where nothing is to be proved. Anybody who knows ``seed`` knows it: a front end
    that wants the proof passes a secret one (``secrets.token_hex(32)``)."""
    return hashlib.sha256(f"anima server seed {seed}".encode()).hexdigest()


def check_server_seed(server_seed: str) -> str:
    """``server_seed`` as 64 lower-case hex digits (256 bits); ValueError otherwise."""
    text = server_seed.lower()
    if len(text) != 2 * 32 or any(c not in "0123456789abcdef" for c in text):
        raise ValueError("the server seed must be 256 bits: 64 hexadecimal digits")
    return text


def stream_key(server_seed: str, seat_seeds: Mapping[str, str]) -> bytes:
    """The stream's key: BLAKE2b-512 keyed with the server seed over the label and the seat
    seeds sorted by seat, as compact JSON in UTF-8 ``[[seat, seed], ...]``
    (docs/fair_dice.md)."""
    pairs = [[seat, seat_seeds[seat]] for seat in sorted(seat_seeds)]
    text = json.dumps(pairs, ensure_ascii=False, separators=(",", ":")).encode()
    return hashlib.blake2b(_LABEL + text, key=bytes.fromhex(server_seed)).digest()


def block(key: bytes, index: int) -> bytes:
    """Block ``index`` of the stream: BLAKE2b-512 keyed with ``key`` over ``index`` (8 bytes,
    little-endian)."""
    return hashlib.blake2b(index.to_bytes(8, "little"), key=key).digest()


def _width(n: int) -> tuple[int, int]:
    """The bytes a draw below ``n`` takes, and the values under which a draw is kept (the
    largest multiple of ``n`` those bytes hold)."""
    size = max(1, ((n - 1).bit_length() + 7) // 8)
    span = 1 << (8 * size)
    return size, span - span % n


#: ``_width`` of the small numbers, which are nearly every draw (a die, a deck, a hand).
_WIDTHS = [(1, 1)] + [_width(n) for n in range(1, 257)]


class KeyedStream:
    """The keyed stream of one game: its key and the block last read (a cache: the state
    holds only ``drawn``, the bytes used so far)."""

    __slots__ = ("_block", "_index", "key")

    def __init__(self, key: bytes) -> None:
        self.key = key
        self._index = -1
        self._block = b""

    def below(self, drawn: int, n: int) -> tuple[int, int]:
        """A uniform integer in [0, n) read at byte ``drawn``: (new ``drawn``, the value).
        A draw never straddles two blocks: the rest of a block too short for it is skipped."""
        if n < 1:
            raise ValueError(f"no integer below {n}")
        size, limit = _WIDTHS[n] if n <= 256 else _width(n)
        while True:
            index, offset = divmod(drawn, BLOCK)
            if offset + size > BLOCK:
                index, offset = index + 1, 0
            if index != self._index:
                self._block = block(self.key, index)
                self._index = index
            drawn = index * BLOCK + offset + size
            if size == 1:
                value = self._block[offset]
            else:
                value = int.from_bytes(self._block[offset : offset + size], "big")
            if value < limit:
                return drawn, value % n

    def shuffle(self, drawn: int, items: MutableSequence[T]) -> int:
        """Fisher-Yates in place, from the last place down; returns the new ``drawn``."""
        below_ = self.below
        for i in range(len(items) - 1, 0, -1):
            drawn, j = below_(drawn, i + 1)
            items[i], items[j] = items[j], items[i]
        return drawn
