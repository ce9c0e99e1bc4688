"""A search's hits in an order that does not depend on how the store laid its points out."""

from __future__ import annotations

from masis.store.base import Hit
from masis.store.hybrid import fetch_limit, in_stable_order


def _hit(chunk_id: str, score: float) -> Hit:
    return Hit(chunk_id=chunk_id, doc_name=chunk_id.split("#")[0], text="", score=score)


def test_tied_hits_come_back_in_chunk_order_whatever_order_the_store_gave() -> None:
    # the store returned the rows 24.04 (#7) and 24.10 (#8) of a release table at the same score, in either order,
    # and with the last float bit of a score moved by a segment merge
    found = [_hit("ubuntu.csv#2", 20.617985), _hit("ubuntu.csv#8", 18.577282), _hit("ubuntu.csv#7", 18.577282),
             _hit("debian.csv#3", 14.930093), _hit("ubuntu.csv#10", 14.930092)]
    once = [hit.chunk_id for hit in in_stable_order(found, 4)]
    again = [hit.chunk_id for hit in in_stable_order(list(reversed(found)), 4)]
    assert once == again == ["ubuntu.csv#2", "ubuntu.csv#7", "ubuntu.csv#8", "debian.csv#3"]


def test_a_tie_at_the_limit_is_cut_by_chunk_order() -> None:
    found = [_hit("a.md#12", 5.0), _hit("a.md#3", 5.0), _hit("a.md#1", 9.0)]
    assert [hit.chunk_id for hit in in_stable_order(found, 2)] == ["a.md#1", "a.md#3"]
    assert fetch_limit(10) > 10  # the store is asked for more, so that the tie beyond the limit is seen
