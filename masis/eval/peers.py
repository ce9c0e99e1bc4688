"""The peers `masis eval` runs beside MASIS on the same corpus and queries:

- `Bm25sPeer`: the `bm25s` library (Lucene BM25, k1 1.5, b 0.75) over whole documents, Snowball English
  stemming (PyStemmer) and English stop words: what a user would pick for plain lexical search;
- `naive_answer`: the naive extractive QA baseline: the top-3 BM25 documents, and from them the single
  sentence sharing the most distinct query terms.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from masis.errors import MasisError
from masis.judge.sentences import split_sentences

NAIVE_TOP_DOCUMENTS = 3


def _modules() -> tuple[Any, Any, Any]:
    try:
        import bm25s
        import numpy
        import Stemmer
    except ImportError:
        raise MasisError(
            "masis eval needs the evaluation extras (bm25s, PyStemmer): run `make install` "
            "or `pip install -e '.[eval]'`."
        ) from None
    logging.getLogger("bm25s").setLevel(logging.WARNING)  # it sets its own logger to DEBUG on import
    return bm25s, numpy, Stemmer


class Bm25sPeer:
    """bm25s over `texts` (one per document id), ranking whole documents."""

    def __init__(self, ids: Sequence[str], texts: Sequence[str]) -> None:
        bm25s, self._np, stemmer_module = _modules()
        self._bm25s = bm25s
        self._stemmer = stemmer_module.Stemmer("english")
        self.ids = list(ids)
        self._retriever = bm25s.BM25()
        tokens = bm25s.tokenize(list(texts), stopwords="en", stemmer=self._stemmer, show_progress=False)
        self._retriever.index(tokens, show_progress=False)

    def tokens(self, text: str) -> list[str]:
        tokenized = self._bm25s.tokenize(
            [text], stopwords="en", stemmer=self._stemmer, return_ids=False, show_progress=False
        )
        return list(tokenized[0])

    def rank(self, query: str, k: int) -> list[str]:
        """Up to `k` document ids, best first; documents sharing no term with the query are left out."""
        token_ids = self._retriever.get_tokens_ids(self.tokens(query))
        if not token_ids:
            return []
        scores = self._retriever.get_scores_from_ids(token_ids)
        order = self._np.argsort(-scores, kind="stable")[:k]
        return [self.ids[i] for i in order if scores[i] > 0]


def naive_answer(question: str, peer: Bm25sPeer, texts: Mapping[str, str]) -> str:
    """The sentence of the top-3 BM25 documents sharing the most distinct terms with the question
    (ties go to the higher-ranked document and the earlier sentence)."""
    wanted = set(peer.tokens(question))
    best, best_overlap = "", 0
    for doc_id in peer.rank(question, NAIVE_TOP_DOCUMENTS):
        for sentence in split_sentences(texts[doc_id]):
            overlap = len(wanted.intersection(peer.tokens(sentence)))
            if overlap > best_overlap:
                best, best_overlap = sentence, overlap
    return best
