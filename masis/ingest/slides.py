"""PowerPoint (.pptx) files as sections: each slide's text under its title, then its speaker notes."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from masis.ingest.sections import Problem, Section, SectionBuilder, check_office_zip

if TYPE_CHECKING:
    from pptx.slide import Slide

OLD_OR_LOCKED = ("this is an old-style PowerPoint file (.ppt) or a password-protected one; save it as .pptx "
                 "without a password and upload again")
_DAMAGED = ("could not open this PPTX; it may be damaged or not a PowerPoint file - open and re-save it in "
            "PowerPoint, then upload again")


def load_pptx(data: bytes) -> list[Section]:
    from pptx import Presentation

    check_office_zip(data, "PPTX", "PowerPoint", OLD_OR_LOCKED)
    builder = SectionBuilder()
    # python-pptx raises zipfile, KeyError, lxml and its own errors for damaged packages, also while reading
    try:
        for number, slide in enumerate(Presentation(io.BytesIO(data)).slides, start=1):
            _add_slide(builder, number, slide)
    except Exception:
        raise Problem(_DAMAGED) from None
    return builder.sections()


def _add_slide(builder: SectionBuilder, number: int, slide: Slide) -> None:
    title_shape = slide.shapes.title
    title = " ".join(title_shape.text_frame.text.split()) if title_shape is not None else ""
    heading = f"Slide {number}: {title}" if title else f"Slide {number}"
    builder.start_section(heading)
    blocks = [block for shape in _shapes(slide.shapes)
              if title_shape is None or shape.shape_id != title_shape.shape_id
              for block in _shape_blocks(shape) if block.strip()]
    for block in blocks or [title]:  # a slide of a title alone (a divider) still says it
        builder.add_block(block)
    if slide.has_notes_slide:
        notes = slide.notes_slide.notes_text_frame
        if notes is not None and notes.text.strip():
            builder.start_section(f"{heading} (speaker notes)")
            for paragraph in notes.paragraphs:
                builder.add_block(_paragraph_text(paragraph))


def _shapes(shapes: Iterable[Any]) -> Iterator[Any]:
    """The slide's shapes in order, a group's members in its place (groups nest)."""
    from pptx.shapes.group import GroupShape

    stack = list(reversed(list(shapes)))
    while stack:
        shape = stack.pop()
        if isinstance(shape, GroupShape):
            stack.extend(reversed(list(shape.shapes)))
        else:
            yield shape


def _shape_blocks(shape: Any) -> Iterator[str]:
    """A text box's paragraphs (each bullet a block), a table's rows as `a | b`, or a chart's title."""
    if shape.has_text_frame:
        for paragraph in shape.text_frame.paragraphs:
            yield _paragraph_text(paragraph)
    elif shape.has_table:
        for row in shape.table.rows:
            cells = [" ".join(cell.text.split()) for cell in row.cells if not cell.is_spanned]
            yield " | ".join(cell for cell in cells if cell)
    elif shape.has_chart and shape.chart.has_title:
        yield shape.chart.chart_title.text_frame.text


def _paragraph_text(paragraph: Any) -> str:
    # a line break inside a paragraph (<a:br/>) comes back as a vertical tab
    return " ".join(paragraph.text.replace("\v", " ").split())
