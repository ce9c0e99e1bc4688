"""`masis docs` on a terminal: sizes in the binary units the limits use, and names and uploaders shown as
written (escapes for what would not show as itself), never as terminal control sequences or rich markup."""

from __future__ import annotations

import io

from rich.console import Console

from masis.records.registry import DocumentInfo
from masis.render import print_documents


def table(*documents: DocumentInfo) -> str:
    out = io.StringIO()
    print_documents(Console(file=out, force_terminal=True, color_system=None, width=200), list(documents))
    return out.getvalue()


def doc(name: str = "report.md", size: int = 64 * 1024, by: str = "U123") -> DocumentInfo:
    return DocumentInfo(name=name, chunks=3, size_bytes=size, pages=None, uploaded_by=by,
                        uploaded_at="2026-01-02T03:04:05+00:00", sha256="0" * 64)


def test_sizes_are_binary_units() -> None:
    shown = table(doc(size=64 * 1024), doc(name="big.pdf", size=3 * 2**20))
    assert "64.0 KiB" in shown and "3.0 MiB" in shown
    assert " KB" not in shown


def test_an_uploader_or_name_with_escape_sequences_is_shown_escaped() -> None:
    shown = table(doc(name="[bold]x[/bold].md", by="\x1b]0;owned\x07\x1b[31mmallory"))
    assert "\x1b" not in shown and "\x07" not in shown
    assert "\\u001b]0;owned\\u0007\\u001b[31mmallory" in shown
    assert "[bold]x[/bold].md" in shown  # markup characters shown, not applied
