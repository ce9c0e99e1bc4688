"""Large documents made quickly: a varied PDF (fpdf2's `text` per pre-wrapped line; `multi_cell` is ~30x slower),
and a text whose every paragraph can be found by its own token and names its version."""

from __future__ import annotations

import random

from fpdf import FPDF

LINES_PER_PAGE = 60


def make_big_pdf(pages: int, seed: int = 7) -> bytes:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(3000)]
    pdf = FPDF()
    pdf.set_font("Helvetica", size=9)
    for page in range(1, pages + 1):
        pdf.add_page()
        pdf.text(10, 10, f"Page {page} of the annual archive.")
        for line in range(1, LINES_PER_PAGE):
            pdf.text(10, 10 + line * 4.5, " ".join(rng.choice(words) for _ in range(14)) + ".")
    return bytes(pdf.output())


def paragraphs(word: str, count: int) -> list[str]:
    """`count` paragraphs of ~700 characters, each with its own token `tally<i>` and the version's `word`."""
    return [
        f"The {word} ledger entry tally{i:04d} records that the {word} team filed report number {i}. "
        f"It covers budgets, launches, hiring plans and travel for quarter {i % 4 + 1} of year {2020 + i % 9}. "
        "Reviewers asked for the supporting spreadsheets, the signed approvals and a summary of the risks. "
        "The committee noted that the figures were provisional and would be audited before the board met. "
        "Several items were deferred to the next cycle because the owners were away during the review week. "
        f"The {word} archive keeps every earlier draft so that changes can be traced back to their authors."
        for i in range(count)
    ]


def document(word: str, count: int) -> bytes:
    return "\n\n".join(paragraphs(word, count)).encode()
