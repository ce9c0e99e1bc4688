"""Untrusted document text on its way into a prompt: fenced as data, unable to forge the fence.

Evidence goes to a model between two markers carrying a per-request random token
(`secrets.token_hex`). A document cannot know the token, and anything in it shaped like such a marker
is rewritten first, so document text can neither close the fence nor open a fake one. Slack control
sequences (`<!channel>`, `<!here>`, `<@U…>`, `<#C…>`, `<!subteam^…>`) become inert plain text, and
citation-like brackets become parentheses (`citations.neutralise_markers`), so a document can smuggle
neither a ping nor a citation into an answer.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from masis.judge.citations import neutralise_markers

# Anything shaped like a fence or passage marker, forged or guessed: <evidence-…>, </EVIDENCE_…>, </passage>.
_FENCE_LIKE = re.compile(r"<\s*/?\s*(?:evidence|passage)(?:\b|[_-])[^<>\n]{0,200}>", re.IGNORECASE)
# Slack's control syntax: <!channel>, <!here|here>, <!subteam^S123>, <@U123>, <@W123|name>, <#C123|general>.
_SLACK_CONTROL = re.compile(r"<([!@#])([^<>\n]{0,120})>")


def neutralise_slack(text: str) -> str:
    """`<!channel>` -> `@channel`, `<@U123>` -> `@U123`, `<#C1|general>` -> `#general`: shown, never executed."""

    def plain(match: re.Match[str]) -> str:
        sigil, body = match.group(1), match.group(2)
        label = body.split("|", 1)[-1] if "|" in body else body
        return ("@" if sigil == "!" else sigil) + label.lstrip("!@#")

    return _SLACK_CONTROL.sub(plain, text)


def clean(text: str) -> str:
    """Document text made safe to place inside an evidence fence."""
    return neutralise_markers(clean_draft(text))


def clean_draft(text: str) -> str:
    """A draft answer (model output that may quote documents) made safe to fence: its citations stay."""
    return neutralise_slack(_FENCE_LIKE.sub("(marker removed)", text))


@dataclass(frozen=True)
class Fence:
    """One request's evidence boundary."""

    token: str

    @classmethod
    def new(cls) -> Fence:
        return cls(secrets.token_hex(12))

    @property
    def open(self) -> str:
        return f"<evidence-{self.token}>"

    @property
    def close(self) -> str:
        return f"</evidence-{self.token}>"

    def wrap(self, body: str) -> str:
        return f"{self.open}\n{body}\n{self.close}"
