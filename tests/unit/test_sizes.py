"""Limits are said in the binary units they are set in: a 20 MiB limit is "20.0 MiB", never "21.0 MB"."""

from __future__ import annotations

import pytest

from masis.api.bodies import _too_large
from masis.sizes import human_size


@pytest.mark.parametrize(
    ("n", "text"),
    [(20 * 2**20, "20.0 MiB"), (64 * 1024, "64.0 KiB"), (64_000, "62.5 KiB"), (1_500_000, "1.4 MiB"),
     (512, "512 bytes"),
     (3 * 2**30, "3.0 GiB"), (201 * 2**20, "201.0 MiB")],
)
def test_human_size(n: int, text: str) -> None:
    assert human_size(n) == text


def test_the_413_for_a_20_mib_limit_says_20_mib() -> None:
    error = _too_large(20 * 2**20)
    assert error.status == 413 and error.message == "The request is larger than 20.0 MiB."
    assert error.detail == {"limit_bytes": 20 * 2**20}
