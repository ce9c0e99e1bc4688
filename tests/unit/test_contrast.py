"""A quote that says the opposite of a word of the question, or its neighbour in a closed set, answers another
question."""

from __future__ import annotations

from masis.judge import contrast, grounding
from masis.judge.citations import audit
from masis.judge.findings import Critique
from masis.state import EvidenceChunk


def _chunk(chunk_id: str, text: str) -> EvidenceChunk:
    return {"chunk_id": chunk_id, "doc_name": chunk_id.split("#")[0], "text": text, "page": None, "section": None,
            "relevance": 1.0, "score": 1.0}


def test_an_extreme_or_a_side_swapped_for_its_opposite_is_a_contrast() -> None:
    assert contrast.contradicted("What is the minimum heap size?", ["The maximum heap size is 4 GB."]) == [
        ("minimum", "maximum")]
    assert contrast.contradicted("Which port does the public API listen on?",
                                 ["The private API listens on port 9090."]) == [("public", "private")]
    assert contrast.contradicted("The smallest party in Parliament sits in the middle of what?",
                                 ["The largest party in the Parliament sits in the middle of the semicircle."])
    assert not contrast.contradicted("What is the maximum heap size?", ["The maximum heap size is 4 GB."])
    # a recommended value is not the minimum one (hd-017: the Node dgram docs give IPv6's minimum MTU only)
    assert contrast.contradicted("What is the recommended MTU for IPv6?", ["For IPv6, the minimum MTU is 1280 octets."])
    assert not contrast.contradicted("What is the recommended maximum size?", ["The recommended maximum is 4 GB."])
    # a synonym of the word's own class is the same word
    assert not contrast.contradicted("What is the max heap size?", ["The maximum heap size is 4 GB."])


def test_an_ordinal_or_a_period_swapped_for_its_neighbour_is_a_contrast() -> None:
    assert contrast.contradicted("What did the second release add?", ["The first release added the export command."])
    assert contrast.contradicted("How often are backups taken, weekly?", ["Backups are taken daily at 02:00."])
    assert contrast.contradicted("What interfered with Kublai's third invasion of Japan?",
                                 ["Kublai's second invasion of Japan in 1281 failed because of a typhoon."])
    # a unit of time is one of a closed set too (stackdocs tune sd-049: Gunicorn logs the duration in microseconds)
    assert contrast.contradicted("Which access log identifier prints the request duration in nanoseconds?",
                                 ["D | request duration in microseconds"]) == [("nanoseconds", "microseconds")]
    assert not contrast.contradicted("Which identifier prints the duration in microseconds?",
                                     ["D | request duration in microseconds"])



def test_a_change_turned_around_is_a_contrast() -> None:
    assert contrast.contradicted("When does the trial start?", ["The trial ends on 31 May."])
    assert contrast.contradicted("The SNP gave eight seats to the Liberal who?",
                                 ["The SNP took a further eight seats from the Liberal Democrats."])
    assert not contrast.contradicted("How long does a refund take?", ["Refunds are given within 14 days."])


def test_a_step_of_a_things_life_in_a_project_is_not_another_step() -> None:
    # coredocs tune cr-025: "deprecated in 3.0" answered "removed in" at 0.87
    deprecated = ["The ENGINE interface has been superseded by the PROVIDER API, it is deprecated in OpenSSL 3.0."]
    assert contrast.contradicted("In which OpenSSL version was the ENGINE API removed?", deprecated)
    assert contrast.contradicted("When was the ENGINE API introduced?", deprecated)
    assert not contrast.contradicted("When was the ENGINE API deprecated?", deprecated)
    both = ["The ENGINE API was deprecated in 3.0 and removed in 4.0."]
    assert not contrast.contradicted("In which OpenSSL version was the ENGINE API removed?", both)


def test_a_word_the_quote_holds_elsewhere_is_not_contradicted() -> None:
    quotes = ["Marin constructed a second fort at Fort Le Boeuf.", "He first constructed Fort Presque Isle."]
    assert not contrast.contradicted("Where was Marin's first fort constructed?", quotes)


def test_a_negating_prefix_taken_off_or_put_on_is_a_contrast() -> None:
    assert contrast.contradicted("Which formats are supported?", ["Unsupported formats: BMP and TIFF."]) == [
        ("supported", "unsupported")]
    assert contrast.contradicted("In 1758 what was duc de Choiseul's plan for unfocused military efforts?",
                                 ["The duc de Choiseul decided to focus on an invasion of Britain."])
    assert contrast.contradicted("Which settings are non-binding?", ["Binding settings are listed in policy.yml."])
    assert not contrast.contradicted("Which formats are unsupported?", ["Unsupported formats: BMP and TIFF."])
    # "in-" words that negate nothing: "inform" is not "not form", "immigrant" not "not migrant"
    assert not contrast.contradicted("How do I inform payroll?", ["Fill in the expense form."])
    assert not contrast.contradicted("Where did the immigrants settle?", ["The migrants settled in Leeds."])



def test_non_with_its_hyphen_negates_a_short_word_too() -> None:
    # holdoutdocs hd-023 and conversation cv-408#3: the quote holds the question's word only negated
    question = "Which Git release deprecated the cone mode of sparse-checkout?"
    assert contrast.contradicted(question, ["Deprecate non-cone mode of the sparse-checkout feature."]) == [
        ("cone", "non-cone")]
    assert contrast.contradicted("Is the Delta filter allowed as the last filter in a filter chain?",
                                 ["Delta can only be used as a non-last filter in the chain."]) == [
        ("last", "non-last")]
    # held bare beside its negation, the word is there: "the default" answers a question on the default
    assert not contrast.contradicted("What is the default value of escapeEverything?",
                                     ["A non-default value is allowed; the default is false."])
    # without the hyphen a short base is no negation: "none" is not "not e", "unit" not "not it"
    assert not contrast.contradicted("What is the unit of the cone angle?", ["The unit is none for cone angles."])

def test_negating_prefixes_are_read_only_where_they_negate() -> None:
    assert contrast.negating_prefix("The REAL type is unsupported.")
    assert contrast.negating_prefix("The guidance is non-binding.")
    assert not contrast.negating_prefix("The university is uniform in its understanding.")


def test_the_grounding_floor_flags_a_contradicting_quote() -> None:
    evidence = [_chunk("jvm.md#1", "The maximum heap size is 4 GB. The minimum is set by -Xms.")]
    answer = "The maximum heap size is 4 GB [jvm.md#1]."
    floors = grounding.check("What is the minimum heap size?", answer, evidence)
    assert floors.contradicted == [("minimum", "maximum")]
    assert not grounding.check("What is the maximum heap size?", answer, evidence).contradicted
    critique = grounding.apply(Critique(confidence=1.0), floors, audit(answer, ["jvm.md#1"]))
    assert critique.needs_retry and any("'maximum' where the question says 'minimum'" in g
                                        for g in critique.logical_gaps)


def test_a_condition_turned_around_is_a_contrast() -> None:
    # teamdocs tune td-109, a near miss answered at 1.0 with the strategy used when --upgrade is not set
    question = "Which default does --upgrade-strategy take when --upgrade is given?"
    quote = 'This is actually the "default" upgrade strategy when --upgrade is not set, i.e. pip install Installed'
    assert contrast.contradicted(question, [quote]) == [("is given", "is not set")]
    assert contrast.contradicted(question, ["When --upgrade is given, the strategy is only-if-needed."]) == []
    # a condition on another setting, or a question that asks of the setting left out, is no contrast
    assert contrast.contradicted(question, ["Nothing is upgraded when --force is not given."]) == []
    assert contrast.contradicted("What happens when --upgrade is not given?", ["When --upgrade is given, …"]) == []


def test_a_mode_the_quotes_say_only_negated_answers_the_other_case() -> None:
    # top(1) (libdocs cv-404#3, wrong at 1.0): the quotes hold for "not in Batch mode", the question asks in it
    question = "What is the widest output top -w allows in batch mode?"
    other = "Whether using an argument with -w, when not in Batch mode actual terminal dimensions can never be exceeded"
    either = "Output width is always based on the terminal at which top was invoked whether or not in Batch mode"
    assert contrast.contradicted(question, [other, either]) == [("in batch mode", "not in Batch mode")]
    in_batch = "In Batch mode, width will be fixed at the maximum 512 columns."
    assert contrast.contradicted(question, [in_batch, other]) == []
    assert contrast.contradicted(question, [either]) == []  # "whether or not" is either mode
