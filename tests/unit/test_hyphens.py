"""A man page's words hyphenated at a line's end are whole again after loading (`masis.ingest.hyphens`)."""

from __future__ import annotations

from masis.ingest.hyphens import rejoin_hyphenated
from masis.ingest.loaders import load_document

# ssh-keyscan(1) as `man -P cat | col -bx` renders it (rackdocs tune rk-073: "how long does it wait before giving up
# on one?" was answered with another sentence, the one holding "5 seconds" reading "The de‐ fault is 5 seconds.")
KEYSCAN = (
    "     -T timeout\n"
    "             Set the timeout for connection attempts.  If timeout seconds\n"
    "             have elapsed since a connection was initiated to a host or since\n"
    "             the last time anything was read from that host, the connection is\n"
    "             closed and the host in question considered unavailable.  The de\u2010\n"
    "             fault is 5 seconds.\n"
)


def test_a_word_broken_at_the_margin_is_whole_and_the_layout_kept() -> None:
    text = rejoin_hyphenated(KEYSCAN)
    assert "The default\n             is 5 seconds." in text
    assert "\u2010" not in text and text.count("\n") == KEYSCAN.count("\n")


def test_a_line_left_empty_by_the_move_goes_and_a_compound_keeps_its_hyphen() -> None:
    assert rejoin_hyphenated('the string "ran\u2010\n    dom",\n    tune2fs') == 'the string "random",\n    tune2fs'
    assert rejoin_hyphenated("The de\u2010\n     fault.\n  next") == "The default.\n  next"
    # two words of their own that make none together were a compound broken at its own hyphen
    assert rejoin_hyphenated("a wild\u2010\n   card here") == "a wild-card\n   here"
    # a name or an identifier is one word
    assert rejoin_hyphenated("tcp_win\u2010\n   dow_scaling is") == "tcp_window_scaling\n   is"
    # an ASCII hyphen at a line's end is the text's own, and U+2010 inside a line is left alone
    assert rejoin_hyphenated("comma-\n  separated") == "comma-\n  separated"
    assert rejoin_hyphenated("non\u2010zero") == "non\u2010zero"


def test_a_plain_text_document_is_loaded_with_its_words_whole() -> None:
    sections = load_document("ssh-keyscan.1.txt", KEYSCAN.encode())
    text = " ".join(" ".join(section.text.split()) for section in sections)
    assert "The default is 5 seconds." in text
