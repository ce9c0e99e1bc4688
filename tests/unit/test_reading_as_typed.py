"""Follow-ups as people type them in a thread (conversations cv-069 to cv-087): each rule of the offline reading
with the turns before it, read as the engine reads a thread (each earlier turn as it was read)."""

from __future__ import annotations

import pytest

from masis.judge.reading import Earlier, read


def thread(*questions: str) -> list[Earlier]:
    turns: list[Earlier] = []
    for question in questions:
        reading = read(question, turns)
        turns.append(Earlier(question, reading.text, "", reading.about))
    return turns


# (earlier questions, follow-up, expected reading, rule)
DEPENDENT = [
    # a name typed in lower case in the earlier question is still the antecedent of "it"
    (["what screen does the heron s1 have"], "how heavy is it", "How heavy is the Heron S1", "pronoun"),
    (["debian 10 codename?"], "when did it come out", "When did Debian 10 come out", "pronoun"),
    # ... and a bare version after it swaps the version inside that name
    (["debian 10 codename?", "when did it come out"], "and 9?", "When did Debian 9 come out", "ellipsis"),
    # "and the falcon?": another name typed in lower case takes the place of the earlier one
    (["how much is the heron s1"], "and the falcon?", "How much is the Falcon", "ellipsis"),
    # "its" typed for "it's" at the end of a condition; "is there N if I return a device": "it" is the device
    (["Is there a restocking fee if I return an opened device?"], "what if its faulty",
     "Is there a restocking fee if I return an opened device if the opened device is faulty?", "ellipsis"),
    # "and if ..." is "what if ..."; a condition on the property the thing was named with takes its place
    (["Who pays return shipping for a faulty device?"], "and if it's not faulty?",
     "Who pays return shipping for a device that is not faulty?", "ellipsis"),
    # a few words and a question mark, without "and": an ellipsis all the same
    (["how many people work in customer success"], "open roles?", "How many open roles in customer success",
     "ellipsis"),
    (["What's the marketing budget for FY2026?"], "travel?", "What's the travel budget for FY2026?", "ellipsis"),
    # a condition the earlier question had no place for is added to it
    (["How much memory does bunzip2 need for a file compressed with the default block size?"], "and with -s?",
     "How much memory does bunzip2 need for a file compressed with the default block size with -s?", "ellipsis"),
    (["What warranty comes with a device?"], "and on the Falcon X2?",
     "What warranty comes with a device on the Falcon X2?", "ellipsis"),
    # a name joined to the lower-case noun after it ("Falcon X2 pre-orders"): only the name gives way
    (["When do Falcon X2 pre-orders open?"], "And the Heron's?", "When do the Heron pre-orders open?", "ellipsis"),
    # a comparison that names nothing compares the two things the thread named last
    (["How much does the Falcon X2 cost?", "And the Heron S1?"], "which is cheaper",
     "Which is cheaper, the Falcon X2 or the Heron S1?", "compared"),
    (["How heavy is the Heron S1?", "What about the Falcon X2?"], "Which one lasts longer?",
     "Which one lasts longer, the Heron S1 or the Falcon X2?", "compared"),
]


@pytest.mark.parametrize(("before", "question", "expected", "rule"), DEPENDENT)
def test_a_follow_up_as_typed_is_read_with_the_thread(before: list[str], question: str, expected: str,
                                                       rule: str) -> None:
    reading = read(question, thread(*before))
    assert (reading.text, reading.rule, reading.dependent) == (expected, rule, True)


SELF_CONTAINED = [
    # "a warranty repair": any one, not the earlier thing's
    (["How long is the Heron S1 warranty?"], "How long does a warranty repair take?"),
    # a word of thanks or surprise is no ellipsis
    (["how many people work in customer success"], "really?"),
    (["How much does the Falcon X2 cost?"], "thanks!"),
    # a comparison with one thing named in the thread has nothing to compare
    (["How much does the Falcon X2 cost?"], "which is cheaper"),
]


@pytest.mark.parametrize(("before", "question"), SELF_CONTAINED)
def test_a_follow_up_as_typed_that_stands_alone_is_read_as_typed(before: list[str], question: str) -> None:
    reading = read(question, thread(*before))
    assert (reading.text, reading.dependent) == (question, False)


@pytest.mark.parametrize(("before", "question", "candidates"), [
    # a named version joined to a bare one: "it" could mean either
    ("What are the codenames of Ubuntu 20.04 and 20.10?", "when did it reach end of life?",
     ("Ubuntu 20.04", "Ubuntu 20.10")),
    ("what changed between git 2.38 and 2.39?", "when was it released?", ("Git 2.38", "Git 2.39")),
])
def test_it_after_a_name_and_a_second_version_is_asked_back(before: str, question: str,
                                                           candidates: tuple[str, ...]) -> None:
    reading = read(question, thread(before))
    assert (reading.rule, reading.candidates, reading.unclear) == ("unclear", candidates, "it")
