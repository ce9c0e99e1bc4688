"""Loaders for the labelled sets `masis eval` runs: BEIR SciFact, Vaswani (TREC), SQuAD v1.1 and 2.0 dev,
real documentation with its questions, and the sample corpus's own questions. Each takes the path of its
files and returns a `LabelledSet`.

Every document becomes a file the normal ingest pipeline reads (`<id>.txt`, or the sample's own files), so
the evaluation measures what a user's upload would get.
"""

from __future__ import annotations

import csv
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from masis.errors import MasisError


@dataclass(frozen=True)
class Document:
    id: str
    name: str  # the file name it is ingested under
    data: bytes
    text: str  # its plain text, for the peer baselines
    group: str = ""  # the source it belongs to (a SQuAD article), for the open-book split


@dataclass(frozen=True)
class Query:
    id: str
    text: str
    judgements: dict[str, int]  # document id -> graded relevance
    answers: tuple[str, ...] = ()  # reference answers, when the set has them
    kind: str = ""  # the part it belongs to in reports (answerable, unanswerable, factual, near_miss, ...)
    answerable: bool = True  # False: the documents do not answer it, and it should be asked back


@dataclass
class LabelledSet:
    name: str
    documents: list[Document]
    queries: list[Query]
    notes: list[str] = field(default_factory=list)

    @property
    def has_answers(self) -> bool:
        return any(q.answers for q in self.queries)

    @property
    def has_unanswerable(self) -> bool:
        return any(not q.answerable for q in self.queries)

    def doc_ids_by_name(self) -> dict[str, str]:
        return {doc.name: doc.id for doc in self.documents}

    def sample(self, limit: int | None, seed: int) -> LabelledSet:
        """At most `limit` queries, drawn with `seed` and kept in their original order; documents stay whole."""
        if limit is None or limit >= len(self.queries):
            return self
        if limit < 1:
            raise MasisError("--limit must be at least 1.")
        picked = sorted(random.Random(seed).sample(range(len(self.queries)), limit))
        note = f"{limit} of {len(self.queries)} queries, drawn with seed {seed}"
        return LabelledSet(self.name, self.documents, [self.queries[i] for i in picked], [*self.notes, note])

    def open_book(self, groups: int, seed: int, limit: int | None) -> tuple[LabelledSet, list[Query]]:
        """The answer-or-refuse split: `groups` sources (SQuAD articles) drawn with `seed` are indexed and
        `groups` others withheld. The indexed set's queries are answerable; the withheld sources' queries
        are returned apart as unanswerable (their documents are never ingested). `limit` queries per half."""
        names = sorted({doc.group for doc in self.documents})
        if groups < 1 or 2 * groups > len(names):
            raise MasisError(f"--open-book needs 1 to {len(names) // 2} sources per half ({len(names)} in the set).")
        drawn = random.Random(seed).sample(names, 2 * groups)
        indexed, withheld = set(drawn[:groups]), set(drawn[groups:])
        group_of = {doc.id: doc.group for doc in self.documents}

        def asked_of(kept: set[str]) -> list[Query]:
            return [q for q in self.queries if any(group_of.get(d) in kept for d in q.judgements)]

        note = f"open book: {groups} sources indexed, {groups} withheld, drawn with seed {seed}"
        answerable = LabelledSet(
            f"{self.name}-open-book",
            [doc for doc in self.documents if doc.group in indexed],
            asked_of(indexed),
            [*self.notes, note],
        ).sample(limit, seed)
        unanswerable = LabelledSet(self.name, [], asked_of(withheld)).sample(limit, seed).queries
        return answerable, [replace(q, kind="unanswerable", answerable=False) for q in unanswerable]

    def answer_or_refuse(self, limit: int | None, seed: int) -> tuple[LabelledSet, list[Query]]:
        """The answerable queries (with every document) and, apart, the unanswerable ones; `limit` of each
        drawn with `seed`."""
        answerable = LabelledSet(self.name, self.documents, [q for q in self.queries if q.answerable], self.notes)
        refusable = LabelledSet(self.name, [], [q for q in self.queries if not q.answerable])
        return answerable.sample(limit, seed), refusable.sample(limit, seed).queries


def _text_document(doc_id: str, text: str, group: str = "") -> Document:
    return Document(doc_id, f"{doc_id}.txt", text.encode(), text, group or doc_id)


def _require(path: Path, what: str) -> Path:
    if not path.exists():
        raise MasisError(f"{path}: not found ({what}).")
    return path


def _jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def load_scifact(path: Path, split: str = "test") -> LabelledSet:
    """BEIR SciFact: `corpus.jsonl`, `queries.jsonl` and `qrels/<split>.tsv` under `path`.

    A document is its title and abstract, the title on its own line first (BEIR's "flat" layout)."""
    corpus = _jsonl(_require(path / "corpus.jsonl", "the BEIR SciFact corpus"))
    queries = {row["_id"]: row["text"] for row in _jsonl(_require(path / "queries.jsonl", "SciFact queries"))}
    qrels: dict[str, dict[str, int]] = {}
    with _require(path / "qrels" / f"{split}.tsv", f"SciFact judgements for split {split!r}").open() as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    documents = [_text_document(row["_id"], f"{row['title']}\n\n{row['text']}") for row in corpus]
    labelled = [Query(qid, queries[qid], judged) for qid, judged in qrels.items() if qid in queries]
    return LabelledSet(f"scifact-{split}", documents, labelled)


_TREC_DOC = re.compile(r"<DOC>\s*<DOCNO>\s*(\S+?)\s*</DOCNO>(.*?)</DOC>", re.DOTALL)
_TREC_TOPIC = re.compile(r"<num>\s*(\S+?)\s*</num>\s*<title>(.*?)</title>", re.DOTALL)


def load_vaswani(path: Path) -> LabelledSet:
    """Vaswani (NPL): `corpus/doc-text.trec`, `query-text.trec` and `qrels` (`qid 0 docno grade`)."""
    raw = _require(path / "corpus" / "doc-text.trec", "the Vaswani corpus").read_text(encoding="utf-8")
    documents = [_text_document(docno, " ".join(body.split())) for docno, body in _TREC_DOC.findall(raw)]
    topics = _require(path / "query-text.trec", "Vaswani topics").read_text(encoding="utf-8")
    qrels: dict[str, dict[str, int]] = {}
    for line in _require(path / "qrels", "Vaswani judgements").read_text().splitlines():
        parts = line.split()
        if len(parts) == 4:
            qrels.setdefault(parts[0], {})[parts[2]] = int(parts[3])
    topics_found = _TREC_TOPIC.findall(topics)
    queries = [Query(qid, " ".join(text.split()), qrels[qid]) for qid, text in topics_found if qid in qrels]
    return LabelledSet("vaswani", documents, queries)


def load_squad(path: Path) -> LabelledSet:
    """SQuAD v1.1 (a JSON file, or a directory holding `dev-v1.1.json`): each paragraph is a document and
    each question's own paragraph is its one relevant document."""
    file = path / "dev-v1.1.json" if path.is_dir() else path
    data = json.loads(_require(file, "the SQuAD v1.1 JSON file").read_text(encoding="utf-8"))
    return _squad("squad", data, unanswerable=False)


def load_squad2(path: Path) -> LabelledSet:
    """SQuAD 2.0 (a JSON file, or a directory holding `dev-v2.0.json`): every paragraph is a document; a
    question marked `is_impossible` is unanswerable (its paragraph only looks as if it held the answer)."""
    file = path / "dev-v2.0.json" if path.is_dir() else path
    data = json.loads(_require(file, "the SQuAD 2.0 JSON file").read_text(encoding="utf-8"))
    return _squad("squad2", data, unanswerable=True)


def _squad(name: str, data: dict, *, unanswerable: bool) -> LabelledSet:
    """A SQuAD file's paragraphs as documents and its questions as queries; with `unanswerable` (2.0), each
    query is also marked answerable or not by its `is_impossible`."""
    documents: list[Document] = []
    queries: list[Query] = []
    for article in data["data"]:
        for index, paragraph in enumerate(article["paragraphs"]):
            doc_id = f"{article['title']}-{index:03d}"
            documents.append(_text_document(doc_id, paragraph["context"], article["title"]))
            for qa in paragraph["qas"]:
                impossible = unanswerable and bool(qa.get("is_impossible"))
                answers = () if impossible else tuple(dict.fromkeys(a["text"] for a in qa["answers"]))
                kind = ("unanswerable" if impossible else "answerable",) if unanswerable else ()
                marks = (*kind, not impossible) if unanswerable else ()
                queries.append(Query(qa["id"], qa["question"].strip(), {doc_id: 1}, answers, *marks))
    return LabelledSet(name, documents, queries)


def folder_documents(folder: Path) -> list[Document]:
    """Every file of `folder` as it is (its name, bytes and the plain text the loaders read from it)."""
    from masis.ingest.loaders import load_document  # every `masis` call imports this module (eval's parser)

    documents = []
    for file in sorted(p for p in folder.iterdir() if p.is_file()):
        data = file.read_bytes()
        text = "\n\n".join(section.text for section in load_document(file.name, data))
        documents.append(Document(file.name, file.name, data, text, file.name))
    return documents


REALDOCS_KINDS = ("factual", "chatty", "near_miss")
SPLITS = ("tune", "check", "all")


def check_split(split: str) -> str:
    if split not in SPLITS:
        raise MasisError(f"--split must be one of {', '.join(SPLITS)} for this set (got {split!r}).")
    return split


def load_realdocs(path: Path, split: str = "all") -> LabelledSet:
    """Real documentation: `files/*` (ingested as they are) and `questions.jsonl` (`{"id", "question", "kind",
    "answers", "docs", "evidence", "split", "note"}`); a near miss has no answer and should be asked back."""
    check_split(split)
    rows = _jsonl(_require(path / "questions.jsonl", "the real-documentation questions"))
    documents = folder_documents(_require(path / "files", "the real documents"))
    names = {doc.name for doc in documents}
    queries = []
    for row in rows:
        if row["kind"] not in REALDOCS_KINDS:
            raise ValueError(f"question {row['id']}: kind {row['kind']!r} is not one of {', '.join(REALDOCS_KINDS)}")
        missing = [doc for doc in row["docs"] if doc not in names]
        if missing:
            raise ValueError(f"question {row['id']}: no file {missing[0]!r} under files/")
        if split != "all" and row["split"] != split:
            continue
        answers = tuple(row["answers"])
        answerable = row["kind"] != "near_miss"
        if answerable != bool(answers):
            raise ValueError(
                f"question {row['id']}: a {row['kind']} question needs {'' if answerable else 'no '}answers"
            )
        queries.append(
            Query(row["id"], row["question"], dict.fromkeys(row["docs"], 1), answers, row["kind"], answerable)
        )
    return LabelledSet(f"realdocs-{split}", documents, queries)


def load_sample(path: Path) -> LabelledSet:
    """The sample corpus: `path` holds `sample/` (the documents) and `sample_questions.json`
    (`[{"question", "answer", "doc"}]`)."""
    questions = json.loads(_require(path / "sample_questions.json", "the sample questions").read_text())
    documents = folder_documents(_require(path / "sample", "the sample documents"))
    queries = [
        Query(f"q{i}", item["question"], {item["doc"]: 1}, (item["answer"],))
        for i, item in enumerate(questions, start=1)
    ]
    return LabelledSet("sample", documents, queries)


LOADERS: dict[str, Callable[..., LabelledSet]] = {
    "scifact": load_scifact,
    "vaswani": load_vaswani,
    "squad": load_squad,
    "squad2": load_squad2,
    "realdocs": load_realdocs,
    "sample": load_sample,
}
SPLIT_LOADERS = {"scifact", "realdocs"}  # the loaders that take --split


def load(name: str, path: Path, split: str | None = None) -> LabelledSet:
    if name not in LOADERS:
        raise MasisError(f"Unknown dataset {name!r}; choose one of {', '.join(LOADERS)}.")
    if not path.exists():
        raise MasisError(f"{path}: no such file or directory.")
    try:
        if name in SPLIT_LOADERS:
            return LOADERS[name](path, split) if split else LOADERS[name](path)
        return LOADERS[name](path)
    except (KeyError, TypeError, ValueError, json.JSONDecodeError) as exc:
        raise MasisError(f"{path} does not look like the {name} dataset ({type(exc).__name__}: {exc}).") from None
