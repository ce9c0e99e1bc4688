"""A large, varied PDF made quickly (fpdf2's `text` per pre-wrapped line; `multi_cell` is ~30x slower)."""

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
