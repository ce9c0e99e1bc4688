"""Terminal rendering of an Outcome: numbered citations, a Sources list, confidence and scores."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from masis.ingest.pipeline import visible_name
from masis.judge.citations import renumber
from masis.judge.scoring import SCORE_KEYS
from masis.outcome import Citation, Clarification, Outcome
from masis.records.registry import DocumentInfo
from masis.sizes import human_size


def numbered(answer: str, citations: list[Citation]) -> str:
    """Replace each `[chunk_id]` with its reference number `[n]`; unknown ids are left visible."""
    return renumber(answer, {c.chunk_id: c.number for c in citations})


def source_label(citation: Citation) -> str:
    """`doc, p. 3 · Section`: the section says what a quote under it is about ("Heron S1")."""
    parts = (f"p. {citation.page}" if citation.page else "", citation.section or "")
    where = " · ".join(part for part in parts if part)
    return f"{citation.doc_name}, {where}" if where else citation.doc_name


def scores_line(evaluation: dict | None, confidence: float | None) -> str:
    parts = [f"confidence {confidence:.2f}"] if confidence is not None else []
    if evaluation:
        parts += [f"{key.replace('_', ' ')} {float(evaluation.get(key, 0)):.2f}" for key in SCORE_KEYS]
        parts.append(f"overall {float(evaluation.get('overall_score', 0)):.2f}")
    return " · ".join(parts)


def print_outcome(console: Console, outcome: Outcome) -> None:
    if outcome.reading:
        console.print(Text(f"Reading this as: {outcome.reading}", style="italic"))
    if outcome.status == "cancelled":
        console.print("[yellow]Cancelled.[/yellow]" + (f" {outcome.warning}" if outcome.warning else ""))
        return
    if outcome.status == "needs_clarification" and outcome.clarification is not None:
        print_clarification(console, outcome.clarification, outcome.citations)
        return
    console.print(Panel(Text(numbered(outcome.answer or "", outcome.citations)), title="Answer", expand=False))
    if outcome.citations:
        console.print("[bold]Sources[/bold]")
        for citation in outcome.citations:
            console.print(f"  [{citation.number}] {source_label(citation)}", highlight=False)
    console.print(scores_line(outcome.evaluation, outcome.confidence), style="dim", highlight=False)
    if outcome.warning:
        console.print(f"[yellow]⚠ {outcome.warning}[/yellow]")
    console.print(
        f"llm calls {outcome.metrics.get('llm_calls', 0)} · attempts {outcome.metrics.get('attempts', 0)} · "
        f"{outcome.metrics.get('total_ms', 0):.0f} ms",
        style="dim",
        highlight=False,
    )


def print_clarification(console: Console, clarification: Clarification, citations: list[Citation]) -> None:
    console.print(Panel(Text(clarification.question), title=f"Question for you ({clarification.kind})", expand=False))
    if clarification.draft:
        console.print("[bold]Best draft — unverified[/bold]")
        console.print(Text(numbered(clarification.draft, citations)), style="dim")
        console.print(
            scores_line(clarification.draft_evaluation, clarification.draft_confidence), style="dim", highlight=False
        )


DOCUMENT_COLUMNS = ("name", "chunks", "size_bytes", "pages", "uploaded_at", "uploaded_by")


def print_documents(console: Console, documents: list[DocumentInfo]) -> None:
    """A table on a terminal; otherwise tab-separated lines with whole names, for other programs."""
    if not documents:
        console.print("No documents in this workspace yet.")
        return
    if not console.is_terminal:
        lines = ["\t".join(DOCUMENT_COLUMNS)]
        lines += [
            "\t".join(visible_name(str(value)) if value is not None else "" for value in
                      (d.name, d.chunks, d.size_bytes, d.pages, d.uploaded_at, d.uploaded_by))
            for d in documents
        ]
        console.file.write("\n".join(lines) + "\n")
        return
    table = Table("name", "chunks", "size", "pages", "uploaded", "by")
    for doc in documents:
        # Text, not markup: a name or uploader is shown as written, escapes and all, never styled or run
        table.add_row(
            Text(visible_name(doc.name)),
            str(doc.chunks),
            human_size(doc.size_bytes),
            str(doc.pages or "—"),
            Text(visible_name(doc.uploaded_at)),
            Text(visible_name(doc.uploaded_by)),
        )
    console.print(table)
