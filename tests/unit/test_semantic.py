"""The local sentence encoder: the installed weights are the published model's, and the numpy forward pass reads
meaning the way all-MiniLM-L6-v2 does."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

from masis.judge import semantic

# SHA-256 of sentence-transformers/all-MiniLM-L6-v2's model.safetensors in the model's own repository
OFFICIAL_WEIGHTS = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


@pytest.fixture(scope="module")
def encoder() -> semantic.SentenceEncoder:
    loaded = semantic.load()
    assert loaded is not None, "the model package is missing: `make install` adds requirements/encoder.txt"
    return loaded


def test_the_installed_weights_are_the_published_models() -> None:
    directory = semantic.model_dir()
    assert directory is not None
    digest = hashlib.sha256((directory / "model.safetensors").read_bytes()).hexdigest()
    assert digest == OFFICIAL_WEIGHTS


def test_close_sentences_score_high_and_unrelated_ones_near_zero(encoder: semantic.SentenceEncoder) -> None:
    food, bread, baby = encoder.encode(
        ["A man is eating food.", "A man is eating a piece of bread.", "The girl is carrying a baby."]
    )
    assert np.allclose([np.linalg.norm(v) for v in (food, bread, baby)], 1.0, atol=1e-5)
    assert float(food @ bread) > 0.7
    assert float(food @ baby) < 0.1


def test_a_paraphrase_outscores_a_passage_that_only_shares_words(encoder: semantic.SentenceEncoder) -> None:
    paraphrase, same_words = encoder.similarities(
        "How many clients did Kestrel have at the end of the quarter?",
        [
            "Kestrel Labs ended the quarter with 412 customers.",
            "Kestrel Labs will keep the launch date fixed until the end of the year.",
        ],
    )
    assert paraphrase > 0.6 > 0.5 > same_words
    married, launch = encoder.similarities(
        "What was the wedding date?",
        ["The couple were married on 4 June 2019.", "The board asked the product team to keep the launch date fixed."],
    )
    assert married > 0.5 > 0.3 > launch


def test_a_text_read_again_gives_the_same_vector_in_any_batch(encoder: semantic.SentenceEncoder) -> None:
    alone = encoder.encode(["The company operates 212 trucks."])[0]
    again = encoder.encode(["Twelve electric vans joined the pool.", "The company operates 212 trucks."])[1]
    assert np.array_equal(alone, again)
    assert encoder.encode([]).shape == (0, 384)


def test_gelu_matches_the_exact_erf_form() -> None:
    x = np.linspace(-6, 6, 2001, dtype=np.float32)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.astype(np.float64)])
    assert np.abs(semantic._gelu(x) - exact).max() < 1e-5


def test_the_cosine_is_shifted_onto_the_relevance_scale() -> None:
    assert semantic.relevance_scale(0.49) == 0.6
    assert semantic.relevance_scale(0.95) == 1.0
    assert semantic.relevance_scale(-0.3) == 0.0


def test_switched_off_there_is_no_encoder() -> None:
    assert semantic.load(enabled=False) is None


def test_only_float_tensors_are_read_from_the_weights() -> None:
    directory = semantic.model_dir()
    assert directory is not None
    tensors = semantic.load_safetensors(directory / "model.safetensors")
    assert "embeddings.position_ids" not in tensors  # int64 in the file; the forward pass does not need it
    assert tensors["embeddings.word_embeddings.weight"].shape == (30522, 384)
    assert all(t.dtype == np.float32 for t in tensors.values())
