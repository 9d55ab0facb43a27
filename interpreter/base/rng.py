"""A small seedable PRNG whose whole state is two integers stored inside the game state.

xorshift128+ (64-bit words): fast in pure Python, and its state is plain data, so save/load and
replay are exact. Nothing in Tabula calls the global `random` module.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> list[int]:
    """Derive a non-zero generator state from any integer seed (splitmix64)."""
    words: list[int] = []
    x = seed & _MASK
    for _ in range(2):
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        words.append(z ^ (z >> 31))
    if words == [0, 0]:
        words = [1, 2]
    return words


def next_u64(rng: list[int]) -> int:
    """Advance `rng` in place and return the next 64-bit output."""
    s1, s0 = rng
    s1 ^= (s1 << 23) & _MASK
    s1 ^= s0 ^ (s1 >> 17) ^ (s0 >> 26)
    rng[0] = s0
    rng[1] = s1
    return (s1 + s0) & _MASK


def below(rng: list[int], n: int) -> int:
    """A uniform integer in [0, n) (n > 0): next_u64's word modulo n (written out: a bot's draw
    at every step)."""
    s1, s0 = rng
    s1 ^= (s1 << 23) & _MASK
    s1 ^= s0 ^ (s1 >> 17) ^ (s0 >> 26)
    rng[0] = s0
    rng[1] = s1
    return ((s1 + s0) & _MASK) % n


def shuffle(rng: list[int], items: list[int]) -> None:
    """Fisher-Yates shuffle of `items` in place (next_u64 written out: one step per item)."""
    s1, s0 = rng
    for i in range(len(items) - 1, 0, -1):
        s1 ^= (s1 << 23) & _MASK
        s1 ^= s0 ^ (s1 >> 17) ^ (s0 >> 26)
        j = ((s1 + s0) & _MASK) % (i + 1)
        s1, s0 = s0, s1  # the generator is now [old s0, new word]
        items[i], items[j] = items[j], items[i]
    rng[0] = s1
    rng[1] = s0
