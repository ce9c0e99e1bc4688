"""Checks on a ZIP container (a .docx) made from its directory alone, before any member is inflated.

A zip bomb is a small file whose members inflate to gigabytes. Python's zipfile never returns more bytes
for a member than its directory entry declares, so checking the declared sizes bounds what reading can
produce: many entries, a huge total, or an extreme compression ratio are refused before reading.
"""

from __future__ import annotations

import io
import zipfile

MAX_ENTRIES = 2_000
MAX_TOTAL_BYTES = 200 * 1024 * 1024
MAX_RATIO = 200  # ordinary Office XML compresses 5-20x; long runs of one character reach ~100x
_RATIO_FLOOR_BYTES = 1024 * 1024  # small members may have any ratio


class ArchiveRefused(Exception):
    """Why the archive was not opened; phrased for the user."""


def check_zip(data: bytes) -> None:
    """Raise ArchiveRefused when the archive's directory describes a zip bomb; do nothing for a bad zip
    (the reader that follows reports damage in its own words)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return
    if len(entries) > MAX_ENTRIES:
        raise ArchiveRefused(f"it holds {len(entries)} parts (at most {MAX_ENTRIES} are read)")
    total = sum(entry.file_size for entry in entries)
    if total > MAX_TOTAL_BYTES:
        raise ArchiveRefused(f"it would unpack to {total / 2**20:,.0f} MB (at most {MAX_TOTAL_BYTES / 2**20:g} MB)")
    for entry in entries:
        if entry.file_size > _RATIO_FLOOR_BYTES and entry.file_size > MAX_RATIO * max(entry.compress_size, 1):
            raise ArchiveRefused(
                f"one part is compressed {entry.file_size // max(entry.compress_size, 1):,}x, "
                "the mark of a zip bomb"
            )
