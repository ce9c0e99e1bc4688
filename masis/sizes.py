"""Byte counts as people read limits: binary units, as the limits are set (20 MiB = 20 × 2**20 bytes)."""

from __future__ import annotations


def human_size(n: int | float) -> str:
    """`20 * 2**20` -> "20.0 MiB", `64 * 1024` -> "64.0 KiB", `512` -> "512 bytes"."""
    if n >= 2**30:
        return f"{n / 2**30:.1f} GiB"
    if n >= 2**20:
        return f"{n / 2**20:.1f} MiB"
    if n >= 2**10:
        return f"{n / 2**10:.1f} KiB"
    return f"{int(n)} bytes"
