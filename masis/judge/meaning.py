"""Choosing by words and meaning while reading as little as the choice needs (issue 24).

The extractive synthesizer ranks sentences by their words' gain plus `weight` × their closeness in meaning to the
question (on the relevance scale, so in [0, 1]). Reading a sentence with the local encoder costs milliseconds, and
most readings cannot change the choice: a sentence whose gain plus the most that meaning could add (`weight` × 1)
stays below a key already known cannot be chosen, whatever the encoder would say. `best_by_meaning` picks exactly
what ranking every readable sentence would pick, reading a sentence only while it could still be chosen.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from typing import TypeVar

from masis.judge.findings import Relatedness

Item = TypeVar("Item")


def best_by_meaning(
    scored: Sequence[tuple[Item, float]],
    meaning: MutableMapping[int, float],
    unread: MutableMapping[int, str],
    relatedness: Relatedness | None,
    weight: float,
    tie: Callable[[Item], float],
) -> tuple[Item, float]:
    """The (item, gain) of `scored` with the highest gain + `weight` × meaning, ties to the higher `tie`, then to the
    first: the choice that reading every item of `unread` (`id(item)` -> the text to read) would give, where an item
    neither read nor readable weighs no meaning. An unread item is read only when its ceiling (its gain + `weight`,
    closeness being at most 1) reaches the best key known, the highest ceiling first; what is read moves from `unread`
    into `meaning` (by `id(item)`), for the next choice. Without `relatedness` nothing is read."""

    def key(pair: tuple[Item, float]) -> tuple[float, float]:
        return pair[1] + weight * meaning.get(id(pair[0]), 0.0), tie(pair[0])

    while True:
        best = max(scored, key=key)
        top = key(best)[0]
        # gain + weight × closeness ≤ gain + weight in floating point too, for any closeness in [0, 1]
        open_ = [pair for pair in scored if id(pair[0]) in unread and pair[1] + weight >= top]
        if not open_ or relatedness is None:
            return best
        item = max(open_, key=lambda pair: pair[1])[0]
        meaning[id(item)] = relatedness([unread.pop(id(item))])[0]
