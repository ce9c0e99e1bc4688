"""The API's per-thread vote limit: a token bucket per key, driven by a hand-turned clock."""

from __future__ import annotations

import pytest

from masis.api.throttle import KeyedRateLimit


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_of_per_minute_is_taken_then_the_next_waits_for_its_share_of_the_minute() -> None:
    clock = Clock()
    limit = KeyedRateLimit(3, clock=clock)
    assert [limit.take("t") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limit.take("t") == pytest.approx(20.0)  # 3 a minute: one every 20 s
    clock.now += 10
    assert limit.take("t") == pytest.approx(10.0)  # a refused take takes nothing
    clock.now += 10
    assert limit.take("t") == 0.0
    assert limit.take("t") > 0


def test_keys_have_buckets_of_their_own() -> None:
    limit = KeyedRateLimit(1, clock=Clock())
    assert limit.take("a") == 0.0
    assert limit.take("a") > 0
    assert limit.take("b") == 0.0


def test_a_bucket_refills_to_its_size_and_no_further() -> None:
    clock = Clock()
    limit = KeyedRateLimit(2, clock=clock)
    limit.take("t")
    clock.now += 3600
    assert [limit.take("t") for _ in range(3)][:2] == [0.0, 0.0]
    assert limit.take("t") > 0


def test_only_the_most_recent_keys_are_kept() -> None:
    limit = KeyedRateLimit(1, keys=2, clock=Clock())
    for key in ("a", "b", "c"):
        assert limit.take(key) == 0.0
    assert limit.take("a") == 0.0  # forgotten: a full bucket again
    assert limit.take("c") > 0


def test_retry_after_is_whole_seconds_and_at_least_one() -> None:
    assert KeyedRateLimit.retry_after(0.2) == "1"
    assert KeyedRateLimit.retry_after(19.01) == "20"
    with pytest.raises(ValueError):
        KeyedRateLimit(0)
