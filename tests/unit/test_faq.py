"""A document's own questions (masis.judge.faq): a FAQ's question answers nothing; the sentences after it answer it."""

from __future__ import annotations

from masis.judge.evidence import evidence_sentences
from masis.judge.faq import is_question, under_questions
from masis.llm.extractive import ExtractiveProvider
from masis.state import EvidenceChunk


def _chunk(chunk_id: str, text: str) -> EvidenceChunk:
    return {"chunk_id": chunk_id, "doc_name": chunk_id.split("#")[0], "text": text, "page": None, "section": None,
            "relevance": 1.0, "score": 1.0}


# opsdocs od-144 (supervisor's FAQ): the question was quoted as the answer
SUPERVISOR = _chunk("supervisor-faq.html#1", (
    "Q: My program never starts and supervisor doesn’t indicate any error? A: Make sure the x bit is set on the "
    "executable file you’re using in the command= line of your program section.\n\n"
    "Q: How can I tell if my program is running under supervisord? A: Supervisor and its subprocesses share an "
    "environment variable SUPERVISOR_ENABLED."))


def test_a_document_sentence_asks_when_it_ends_with_a_question_mark_or_opens_with_q() -> None:
    assert is_question("Why doesn’t upsmon shut down my system?")
    assert is_question("Q: I am a software author and I want my program to behave differently.")
    assert is_question('Is it "safe"?”')
    assert not is_question("A: Make sure the x bit is set.")
    assert not is_question("Set ?debug=1 in the URL.")


def test_the_sentences_after_a_question_answer_it_up_to_the_next_question() -> None:
    sentences = evidence_sentences([SUPERVISOR])
    answers = {s.text: posed.text for s in sentences if (posed := under_questions(sentences).get(id(s)))}
    assert answers == {
        "A: Make sure the x bit is set on the executable file you’re using in the command= line of your program "
        "section.": "Q: My program never starts and supervisor doesn’t indicate any error?",
        "A: Supervisor and its subprocesses share an environment variable SUPERVISOR_ENABLED.":
            "Q: How can I tell if my program is running under supervisord?",
    }


def test_one_line_between_two_questions_is_no_answer_unless_it_says_so() -> None:
    # a table of contents, or a question's second line (the NUT FAQ's "I pulled the plug and nothing happened.")
    contents = _chunk("nut-FAQ.pdf#5", "23 Why doesn’t upsmon shut down my system? I pulled the plug and nothing "
                                       "happened. 24 How do you make upsmon reload the config file?")
    sentences = evidence_sentences([contents])
    assert under_questions(sentences) == {}


def test_the_synthesizer_quotes_a_faq_s_answer_not_its_question() -> None:
    answer = ExtractiveProvider().synthesize(
        "my program never starts and supervisor shows no error at all?? what's the usual cause", [SUPERVISOR])
    assert answer.startswith("A: Make sure the x bit is set on the executable file")
    assert "never starts" not in answer
