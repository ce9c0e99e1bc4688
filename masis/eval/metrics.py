"""Evaluation metrics as pure functions: ranking (nDCG, recall, hit, average precision) and SQuAD-style
answer scoring (normalisation, exact match, token F1, containment).

Rankings are lists of document ids, best first, without repeats. Judgements map a document id to its
graded relevance; a grade of 0 or less is not relevant.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

Judgements = Mapping[str, int]


def _relevant(judgements: Judgements) -> set[str]:
    return {doc for doc, grade in judgements.items() if grade > 0}


def dcg(gains: Iterable[float]) -> float:
    """Discounted cumulative gain with linear gains (trec_eval's `ndcg_cut`, as BEIR reports it)."""
    return sum(gain / math.log2(rank + 2) for rank, gain in enumerate(gains))


def ndcg_at_k(ranking: Sequence[str], judgements: Judgements, k: int = 10) -> float:
    ideal = dcg(sorted((g for g in judgements.values() if g > 0), reverse=True)[:k])
    if ideal <= 0:
        return 0.0
    return dcg(max(judgements.get(doc, 0), 0) for doc in ranking[:k]) / ideal


def recall_at_k(ranking: Sequence[str], judgements: Judgements, k: int) -> float:
    relevant = _relevant(judgements)
    if not relevant:
        return 0.0
    return len(relevant.intersection(ranking[:k])) / len(relevant)


def hit_at_k(ranking: Sequence[str], judgements: Judgements, k: int) -> float:
    """1.0 when any relevant document is in the top `k`, else 0.0."""
    relevant = _relevant(judgements)
    return 1.0 if relevant.intersection(ranking[:k]) else 0.0


def average_precision(ranking: Sequence[str], judgements: Judgements) -> float:
    """Precision at each relevant document retrieved, summed and divided by all relevant documents
    (a relevant document never retrieved contributes 0, as in trec_eval's `map`)."""
    relevant = _relevant(judgements)
    if not relevant:
        return 0.0
    found, total = 0, 0.0
    for rank, doc in enumerate(ranking, start=1):
        if doc in relevant:
            found += 1
            total += found / rank
    return total / len(relevant)


def mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


# --- answers (the official SQuAD v1.1 evaluation script's rules) -----------------------------------------

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = frozenset(string.punctuation)


def normalize_answer(text: str) -> str:
    """Lower-case, drop punctuation, drop the articles a/an/the, collapse whitespace."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(prediction: str, golds: Sequence[str]) -> float:
    target = normalize_answer(prediction)
    return 1.0 if any(target == normalize_answer(gold) for gold in golds) else 0.0


def _f1(prediction: str, gold: str) -> float:
    predicted, expected = normalize_answer(prediction).split(), normalize_answer(gold).split()
    common = sum((Counter(predicted) & Counter(expected)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(expected)
    return 2 * precision * recall / (precision + recall)


def f1_score(prediction: str, golds: Sequence[str]) -> float:
    """Token-overlap F1 against the best-matching reference answer."""
    return max((_f1(prediction, gold) for gold in golds), default=0.0)


# typographic quotes go as SQuAD's ASCII ones do ("“1m” is taken to mean “31d”" holds "31d"), and so do trademark
# signs ("Preferred Networks™" holds "Preferred Networks"); a double quote parts words
# ('set_tracking_uri("http://localhost:5000")' holds "http://localhost:5000")
_WORD_BREAKS = str.maketrans({"—": " ", "–": " ", "=": " ", ":": " ", '"': " ", "“": None, "”": None, "„": None,
                              "‘": None, "’": None, "‚": None, "«": None, "»": None, "™": None, "®": None, "©": None,
                              "´": None})  # man pages rendered to text quote with an acute accent: ´if_fast_else_fail'
# so does an opening bracket before a word ("load_dotenv(override=False)" holds "override=False", "Literal['float',
# 'decimal']" holds "'float', 'decimal'"), not before a figure: a man page's section ("xargs(1)") holds no "1"
_CALL = re.compile(r"[(\[](?=[^\d\s)\]])")


# and so does a link's slash, for a reference answer that is no link: "…/security/advisories/GHSA-73rr-hh4g-fpgx" holds
# "GHSA-73rr-hh4g-fpgx" (the answer's whole link is a path segment SQuAD's normalisation would glue to its host)
_LINK = re.compile(r"\bhttps?://\S+")


def _parted(text: str) -> str:
    return _CALL.sub(" ", text.translate(_WORD_BREAKS))


# an anchor's hash and AsciiDoc's link text in brackets part a link's words too: "…4.7.html#config_remote_storage[*
# remote_storage*]" holds "remote_storage"
_LINK_BREAKS = re.compile(r"[/#\[\]]")


def _links_parted(text: str) -> str:
    return _LINK.sub(lambda link: _LINK_BREAKS.sub(" ", link.group(0)), text)


def contains_answer(text: str, golds: Sequence[str]) -> bool:
    """The text holds one of the reference answers, word-aligned, after SQuAD normalisation; a dash between words
    parts them ("… bases of the Adriatic—fell again" holds "Adriatic"), which SQuAD's ASCII punctuation does not, and
    so does the equals sign of a setting ("$SYSTEMD_OFFLINE=[0|1]" holds "$SYSTEMD_OFFLINE"), a colon ("boolean
    (default:True)" holds "True"; SQuAD's normalisation would glue "default" and "true" into one word), a double
    quote, a call's bracket (`_parted`) and a link's slash (`_links_parted`); typographic quotes and trademark signs
    are dropped like SQuAD's ASCII punctuation."""
    haystack = f" {normalize_answer(_parted(text))} "
    needles = [normalize_answer(_parted(gold)) for gold in golds]
    if any(needle and f" {needle} " in haystack for needle in needles):
        return True
    if _LINK.search(text):
        linked = f" {normalize_answer(_parted(_links_parted(text)))} "
        if any(needle and not _LINK.search(gold) and f" {needle} " in linked
               for needle, gold in zip(needles, golds, strict=True)):
            return True
    # a gold of punctuation alone (sqlite3's continue prompt "...>", git's safe.directory "'*'") normalises to
    # nothing: it is looked for as written, spaces collapsed
    written = " ".join(text.lower().split())
    return any(not needle and gold.strip() and " ".join(gold.lower().split()) in written
               for needle, gold in zip(needles, golds, strict=True))


def token_support(claim: str, source: str) -> float:
    """Share of the claim's normalised tokens that occur in the source (1.0 for a verbatim quote)."""
    claim_tokens = normalize_answer(claim).split()
    if not claim_tokens:
        return 0.0
    source_tokens = set(normalize_answer(source).split())
    return sum(1 for token in claim_tokens if token in source_tokens) / len(claim_tokens)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank `q` quantile (0..1) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
