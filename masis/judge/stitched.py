"""An answer stitched from documents: the question's constraints held only across them, by none alone.

"Which version of the Contributor Covenant is the Node.js Code of Conduct based on?" is not answered by pyenv's code
of conduct ("adapted from the Contributor Covenant, version 1.4") quoted beside a sentence of Node.js's own: each
document holds a part of the question, none holds it all, so the version given is another project's. The retry that
the anchor floor asks for ("the quoted passages do not mention 'Node.js'") is what brings the second document in.
The quotes of one document are read together, each in its passage and its document, as the anchor floor reads them
(`anchors.missing`). A question about two named things at once ("the Falcon X2 and the Heron S1") is left alone:
there each document may hold one of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from masis.judge import anchors, several
from masis.state import EvidenceChunk


def stitched(
    question: str,
    quotes: Sequence[tuple[str, EvidenceChunk]],
    wanted: Sequence[str] | None = None,
    names: Sequence[str] = (),
) -> list[str]:
    """The question's anchors (or `wanted`, with the `names` it writes as plain words) that the quotes of the
    answer's lead document (its first quote's: what the reader takes for the answer) leave to another document's
    quotes; [] when the lead document's quotes hold them all, when the quotes come from one document, or when no
    quote holds some anchor (the anchor floor's case). "This project follows a 90 day disclosure timeline" of
    certifi's policy, quoted first, does not become argcomplete's because argcomplete's policy is quoted after it."""
    constraints = list(anchors.anchors(question) if wanted is None else wanted)
    constraints += [name for name in names if name not in constraints]
    by_document: dict[str, list[tuple[str, EvidenceChunk]]] = {}
    for quote, chunk in quotes:
        by_document.setdefault(chunk["doc_name"], []).append((quote, chunk))
    if len(by_document) < 2 or not constraints or several.parts(question) or anchors.missing(constraints, quotes):
        return []
    return anchors.missing(constraints, by_document[quotes[0][1]["doc_name"]])
