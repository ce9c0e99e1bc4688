"""Negation: a question about what did *not* happen is answered only by a quote that says so.

SQuAD 2.0's adversarial questions turn an indexed sentence around: "Who never captured Fort Beauséjour?" over
"Colonel Monckton … captured Fort Beauséjour in June 1755", "What group's membership does not reflect the balance
of parties?" over "Committees …, with membership reflecting the balance of parties". Every other word of the
question is in the quote, so its words cannot tell; the negation can. A quote answers a negated question only when
it holds a negation or a word that denies ("unable", "failed", "lacks", "except", an "un-" or "non-" word:
"unsupported", "noninvolvement"; a listed "in-" word: "insignificance").

The denial must be in the quote that answers — the one holding most of the question's words — not in a quote
beside it: "What question has not led to criticism?" is not answered by "This phenomenon is known as the West
Lothian question and has led to criticism" because the sentence quoted before it says MPs "are unable to vote".
"""

from __future__ import annotations

import re

from masis.judge.answer_type import LEFT_OUT
from masis.judge.contrast import negating_prefix
from masis.judge.stopwords import CHAT_NEGATIONS
from masis.judge.support import answering

# "not only … but also", "whether or not" and "no longer"-free phrasing do not deny what is asked about
_NOT_DENYING = re.compile(r"\bnot\s+(?:only|just|merely)\b|\bwhether\s+or\s+not\b", re.IGNORECASE)
_NEGATION = re.compile(
    r"\b(?:not|never|no|none|neither|nor|nobody|nothing|nowhere|cannot)\b|n[’']t\b"
    # chat's negations typed without their apostrophe: "which dns backend doesnt look at /etc/hosts" ("cant" is a BM25
    # stop word already, so not one of the chat negations the question's terms keep)
    rf"|\b(?:{'|'.join(sorted(CHAT_NEGATIONS | {'cant'}))})\b",
    re.IGNORECASE,
)
_DENYING = re.compile(
    r"\b(?:unable|fail(?:s|ed|ing|ure)?|refus(?:e|es|ed|ing|al)|lack(?:s|ed|ing)?|absent|without|except|excluding"
    r"|instead|unknown|neglected|ignored|rejected|denied|prevented|avoided|excluded"
    # what software documentation says for "not": "Setting this to os.devnull disables the loading of …", "(these are
    # omitted by default)"
    r"|disabl(?:e|es|ed|ing)|omit(?:s|ted|ting)?|suppress(?:es|ed|ing)?)\b",
    re.IGNORECASE,
)


# words that negate by their prefix: "How were the British unable to …?", "… what insignificant company?"
_PREFIXED = re.compile(
    r"\b(?:unable|insignifican\w*|irrelevan\w*|irregular\w*|invalid|inactive|incorrect\w*|impossibl\w*"
    r"|ineffective\w*|insufficient\w*|inadequate\w*)\b",
    re.IGNORECASE,
)


def negated(question: str) -> bool:
    """Whether the question asks about what is not, or never was, the case."""
    text = LEFT_OUT.sub(" ", _NOT_DENYING.sub(" ", question))  # "when no encoding is given" asks for a default
    return bool(_NEGATION.search(text) or _PREFIXED.search(text)) or negating_prefix(text)


def denies(text: str) -> bool:
    """Whether `text` says that something is not, or was not, the case."""
    return negated(text) or bool(_DENYING.search(text))


def unmet(question: str, quotes: list[str]) -> bool:
    """A negated question whose answering quotes (at least one) all state the positive: they answer the question
    turned around."""
    return bool(quotes) and negated(question) and not any(denies(quote) for quote in answering(question, quotes))
