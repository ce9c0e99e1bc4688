"""The grounding floors (masis.judge.grounding) and the structured-reply parser of the OpenAI provider."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from masis.agents.supervisor import decide
from masis.chunk_ids import chunk_id
from masis.judge import grounding
from masis.judge.citations import audit
from masis.judge.findings import Critique
from masis.llm.openai_provider import _Failed, _parse
from masis.llm.prompts import EXAMPLE_CLAIM, EXAMPLE_ID, SYNTHESIZER_SYSTEM
from masis.state import EvidenceChunk


def chunk(chunk_id: str, text: str) -> EvidenceChunk:
    doc = chunk_id.split("#")[0]
    return {"chunk_id": chunk_id, "doc_name": doc, "text": text, "page": None, "section": None, "relevance": 1.0,
            "score": 1.0}  # fmt: skip


Q3 = chunk("q3_report.md#2", "Q3 2026 revenue was $12.4 million, up 18% year over year. Gross margin was 61%.")
ROADMAP = chunk("product_roadmap.txt#2", "The roadmap went to the board. Q3 2026 revenue came in at $11.9 million.")
MEMO = chunk(
    "strategy_memo.pdf#2", "Kestrel Labs will invest $4.2 million in AI during FY2026, with the University of Leeds."
)


def test_a_figure_in_none_of_the_cited_chunks_is_unsupported() -> None:
    answer = "Revenue grew 12% [q3_report.md#2]. Gross margin was 61% [q3_report.md#2]."
    assert grounding.unsupported_sentences("What was Q3 revenue?", answer, [Q3]) == ["Revenue grew 12%."]


def test_figures_match_however_they_are_written() -> None:
    answer = "Kestrel Labs will invest 4.2M dollars in AI during FY2026 [strategy_memo.pdf#2]."
    assert grounding.unsupported_sentences("How much will we invest in AI?", answer, [MEMO]) == []


def test_a_name_in_none_of_the_cited_chunks_is_unsupported_but_a_cited_one_is_not() -> None:
    made_up = "The AI work is run with the University of Oxford [strategy_memo.pdf#2]."
    real = "Kestrel Labs' AI partner is the University of Leeds [strategy_memo.pdf#2]."
    assert grounding.unsupported_sentences("Who is the partner?", made_up, [MEMO]) == [
        made_up.replace(" [strategy_memo.pdf#2]", "")
    ]
    assert grounding.unsupported_sentences("Who is the partner?", real, [MEMO]) == []


def test_a_figure_is_checked_against_the_chunk_it_cites_not_any_chunk() -> None:
    answer = "Q3 2026 revenue was $11.9 million [q3_report.md#2]."  # true in the roadmap, not in what it cites
    assert grounding.unsupported_sentences("What was Q3 revenue?", answer, [Q3, ROADMAP]) != []


def test_the_prompt_example_cannot_be_a_workspace_id_and_copying_it_is_caught() -> None:
    assert f"{EXAMPLE_CLAIM} [{EXAMPLE_ID}]." in SYNTHESIZER_SYSTEM
    doc = EXAMPLE_ID.split("#")[0]
    assert EXAMPLE_ID.endswith("#0")  # chunk ids count from 1: no document of any name has this one
    assert all(chunk_id(doc, ordinal) != EXAMPLE_ID for ordinal in range(1000))
    assert grounding.copies_example("Widget sales rose 7% in May [q3_report.md#2].")
    assert grounding.copies_example("Widget sales rose by 7% in May [q3_report.md#2].")
    assert not grounding.copies_example("Q3 2026 revenue was $12.4 million [q3_report.md#2].")


def test_conflicting_figures_in_the_evidence_are_found_even_when_the_draft_cites_one_side() -> None:
    conflicts = grounding.evidence_conflicts("What was Q3 2026 revenue?", [Q3, ROADMAP, MEMO])
    assert len(conflicts) == 1
    assert set(conflicts[0].documents) == {"q3_report.md", "product_roadmap.txt"}
    assert {c.value for c in conflicts[0].claims} == {"$12.4 million", "$11.9 million"}
    assert grounding.evidence_conflicts("What was the gross margin?", [Q3, ROADMAP, MEMO]) == []
    # a figure for another period is not a conflict about this one (the real run raised it at first)
    q4 = chunk("product_roadmap.txt#1", "Q4 2026: Route Optimiser 2.0 launch for mixed fleets.")
    assert grounding.evidence_conflicts("What was Q4 2026 revenue?", [Q3, ROADMAP, q4]) == []


def test_two_figures_that_share_only_the_questions_period_are_not_its_conflict() -> None:
    customers = chunk("q3_report.md#3", "Kestrel Labs ended the quarter with 412 customers.")
    question = "How many customers were there at the end of Q3 2026?"
    assert grounding.evidence_conflicts(question, [Q3, ROADMAP, customers]) == []
    from masis.judge.conflicts import conflicts
    from masis.judge.evidence import evidence_sentences

    cited = "Q3 2026 revenue was $12.4 million [q3_report.md#2]. The quarter ended with 412 customers [q3_report.md#3]."
    sentences = evidence_sentences([Q3, ROADMAP, customers])
    assert conflicts(cited, [Q3, ROADMAP, customers], sentences, question) == []
    assert len(conflicts(cited, [Q3, ROADMAP, customers], sentences, "What was Q3 2026 revenue?")) == 1


def test_apply_adds_findings_and_never_removes_the_models() -> None:
    answer = "Revenue grew 12% [q3_report.md#2]."
    critique = Critique(unsupported_claims=["something the model saw"], confidence=0.9, reasoning="fine")
    floors = grounding.check("What was Q3 2026 revenue?", answer, [Q3, ROADMAP])
    result = grounding.apply(critique, floors, audit(answer, ["q3_report.md#2", "product_roadmap.txt#2"]))
    assert result.unsupported_claims == ["something the model saw", "Revenue grew 12%."]
    assert result.conflicts and result.needs_retry
    assert critique.unsupported_claims == ["something the model saw"]  # the model's critique is not mutated


def test_an_answer_without_a_valid_citation_is_never_finalized() -> None:
    uncited = audit("Kestrel Labs will invest $4.2 million in AI during FY2026.", ["strategy_memo.pdf#2"])
    assert grounding.no_valid_citation(uncited) and uncited.as_dict()["no_valid_citation"]
    decision = decide(attempt=1, retries=0, max_retries=2, confidence=0.87, critique={},
                      citation_audit=uncited.as_dict(), low_confidence_threshold=0.65)  # fmt: skip
    assert decision.route == "retry" and "no valid citation" in decision.reasons
    cited = audit("Kestrel Labs will invest $4.2 million [strategy_memo.pdf#2].", ["strategy_memo.pdf#2"])
    assert not cited.as_dict()["no_valid_citation"]


# --- the structured-reply parser ----------------------------------------------------------------------

FIELDS: dict[str, Any] = {
    "hallucination_detected": False, "unsupported_claims": [], "logical_gaps": [], "conflicts": [],
    "confidence": 0.8, "needs_retry": False, "reasoning": "ok",
}  # fmt: skip


def test_a_tool_call_answered_as_json_content_is_accepted_when_it_validates() -> None:
    import json

    raw = AIMessage(content=json.dumps(FIELDS))
    assert _parse({"raw": raw, "parsed": None, "parsing_error": None}, Critique) == Critique(**FIELDS)
    fenced = AIMessage(content=f"```json\n{json.dumps(FIELDS)}\n```")
    assert isinstance(_parse({"raw": fenced, "parsed": None, "parsing_error": None}, Critique), Critique)
    wrapped = AIMessage(content=json.dumps({"name": "Critique", "arguments": FIELDS}))
    assert isinstance(_parse({"raw": wrapped, "parsed": None, "parsing_error": None}, Critique), Critique)


def test_an_unreadable_reply_says_why() -> None:
    prose = _parse(
        {"raw": AIMessage(content="The answer looks fine."), "parsed": None, "parsing_error": None}, Critique
    )
    assert isinstance(prose, _Failed) and prose.reason.startswith("not valid JSON")
    partial = _parse({"raw": AIMessage(content=""), "parsed": {"confidence": 1}, "parsing_error": None}, Critique)
    assert isinstance(partial, _Failed) and partial.reason.startswith("missing field(s): hallucination_detected")
    wrong = _parse({"raw": AIMessage(content=""), "parsed": {**FIELDS, "confidence": "high"}, "parsing_error": None},
                   Critique)  # fmt: skip
    assert isinstance(wrong, _Failed) and wrong.reason.startswith("field confidence:")


ROADMAP_Q3_2027 = chunk(
    "product_roadmap.txt#1",
    "Q3 2027: the legacy dispatch console is retired. Customers still using it will be moved to the new dispatch "
    "workspace.",
)


def test_a_when_question_answered_without_a_date_is_not_answered() -> None:
    """Recorded (2026-11-25, Qwen2.5-0.5B): the retry draft quoted the roadmap's sentence without its 'Q3 2027:' lead,
    its critic passed it at 0.9, and it was answered without the date asked for."""
    question = "When will the legacy dispatch console be retired?"
    draft = "The legacy dispatch console is retired [product_roadmap.txt#1]."
    floors = grounding.check(question, draft, [ROADMAP_Q3_2027])
    assert floors.untyped == "date"
    cited = audit(draft, ["product_roadmap.txt#1"])
    critique = grounding.apply(Critique(confidence=0.9, reasoning="clear"), floors, cited)
    assert critique.needs_retry and any("asks for a date" in gap for gap in critique.logical_gaps)
    dated = "The legacy dispatch console is retired in Q3 2027 [product_roadmap.txt#1]."
    assert grounding.check(question, dated, [ROADMAP_Q3_2027]).untyped is None
    # no such floor for a question that asks for no date or number, nor for a draft that cites nothing (its own floor)
    assert grounding.check("Which console is retired?", draft, [ROADMAP_Q3_2027]).untyped is None
    assert grounding.check(question, "The console is retired.", [ROADMAP_Q3_2027]).untyped is None


def test_a_default_question_answered_without_a_default_value_is_not_answered() -> None:
    # opsdocs check od-110: NUT's FAQ names MAXAGE's default without giving it
    faq = chunk("nut-FAQ.pdf#24", "Note: some drivers occasionally need more time to update than the default value "
                "of MAXAGE (in upsd.conf) allows.")
    question = "What is the default value of MAXAGE in upsd.conf?"
    draft = ("Note: some drivers occasionally need more time to update than the default value of MAXAGE (in "
             "upsd.conf) allows [nut-FAQ.pdf#24].")
    assert grounding.check(question, draft, [faq]).untyped == "default"
    stated = chunk("upsd.conf.5.txt#3", "MAXAGE seconds: the default value of MAXAGE is 15 seconds.")
    answer = "MAXAGE seconds: the default value of MAXAGE is 15 seconds [upsd.conf.5.txt#3]."
    assert grounding.check(question, answer, [stated]).untyped is None


def test_a_figure_in_the_documents_title_is_stated_by_its_passages() -> None:
    customers: EvidenceChunk = {**chunk("q3_report.md#3", "Kestrel Labs ended the quarter with 412 customers."),
                                "section": "Customers", "title": "Kestrel Labs Quarterly Report: Q3 2026"}  # fmt: skip
    claim = "Kestrel Labs had 412 customers at the end of Q3 2026 [q3_report.md#3]."
    assert grounding.unsupported_sentences("How many customers?", claim, [customers]) == []
    untitled: EvidenceChunk = {**customers, "title": None}
    assert grounding.unsupported_sentences("How many customers?", claim, [untitled]) != []


def test_a_code_the_question_numbers_must_be_said_by_the_quote_itself() -> None:
    # deskdocs tune dk-075 (dpkg-deb(1)): the sentence on status 2, in a passage that holds other figures, does not
    # say what exit status 1 means
    page = chunk(
        "dpkg-dpkg-deb.1.txt#4",
        "Compression level 1 is the fastest. If any of the components weren't present it will print an error message "
        "to stderr about each one and exit with status 2.",
    )
    question = "What does exit status 1 of dpkg-deb mean?"
    status_2 = ("If any of the components weren't present it will print an error message to stderr about each one "
                "and exit with status 2 [dpkg-dpkg-deb.1.txt#4].")
    assert grounding.check(question, status_2, [page]).missing_anchors == ["1"]
    table = chunk("unzip.txt#3", "0 normal; no errors detected.\n1 one or more warning errors were encountered.")
    row = "1 one or more warning errors were encountered [unzip.txt#3]."
    assert grounding.check("What does exit status 1 of unzip mean?", row, [table]).missing_anchors == []
    # a range of codes says something of all of them, not what the one asked means (shelfdocs tune sf-066, at 1.0)
    vms = chunk("unzip.txt#51", "82 no files were found due to bad decryption password(s).\nThe current mapping is: "
                "the ? is 2 (error) for unzip values 2, 9-11 and 80-82, and 4 (fatal error) for the others.")
    mapping = "The current mapping is: the ? is 2 (error) for unzip values 2, 9-11 and 80-82 [unzip.txt#51]."
    assert grounding.check("What does unzip exit code 82 mean?", mapping, [vms]).missing_anchors == ["82"]
    entry = "82 no files were found due to bad decryption password(s) [unzip.txt#51]."
    assert grounding.check("What does unzip exit code 82 mean?", entry, [vms]).missing_anchors == []


def test_a_keyword_the_question_names_in_plain_words_must_be_held() -> None:
    # deskdocs tune dk-078 (tc-cake(8)): there is no pppoa-llcsnap keyword; ipoa-llcsnap's entry is its neighbour
    page = chunk("tc-cake.8.txt#7", "pppoa-llc\nEquivalent to overhead 14 atm\nipoa-llcsnap\nEquivalent to overhead 8")
    draft = "Equivalent to overhead 8 ipoa-llcsnap [tc-cake.8.txt#7]."
    question = "What overhead is CAKE's {} keyword equivalent to?"
    assert grounding.check(question.format("pppoa-llcsnap"), draft, [page]).missing_anchors == ["pppoa-llcsnap"]
    assert grounding.check(question.format("ipoa-llcsnap"), draft, [page]).missing_anchors == []


def test_a_code_is_said_by_the_entry_a_quote_sits_in() -> None:
    # hostdocs thread cv-364 (tar(1)): the entry opens with its code, the quote is its third sentence
    entry = ("1 Some files differ. If tar was given one of the --create, --append or --update options, this exit code "
             "means that some files were changed.")
    page = chunk("tar.1.txt#47", f"0 Successful termination.\n{entry}")
    draft = ("If tar was given one of the --create, --append or --update options, this exit code means that some "
             "files were changed [tar.1.txt#47].")
    assert grounding.check("What does tar's exit code 1 mean with --create?", draft, [page]).missing_anchors == []
    assert grounding.check("What does tar's exit code 2 mean with --create?", draft, [page]).missing_anchors == ["2"]


def test_a_release_asked_of_one_side_is_not_held_by_a_bound_of_the_other() -> None:
    # sysdocs tune sy-065 (python-dateutil's README): the signing key's row is for 2.4.1-2.8.2, not for later releases
    page = chunk("dateutil.rst#11", "Releases | Signing key fingerprint\n2.4.1-2.8.2 | 6B49 ACBA DCF6 BD1C")
    draft = "2.4.1-2.8.2 | 6B49 ACBA DCF6 BD1C [dateutil.rst#11]."
    after = "What key fingerprint signs python-dateutil releases after 2.8.2?"
    assert grounding.check(after, draft, [page]).missing_anchors == ["2.8.2"]
    assert grounding.check("What key fingerprint signs python-dateutil releases before 2.8.2?", draft,
                           [page]).missing_anchors == []
    later = chunk("tool.txt#3", "Tool versions 4.1.2 and later support Python 3.9-3.13.")
    said = "Tool versions 4.1.2 and later support Python 3.9-3.13 [tool.txt#3]."
    question = "Which Python versions does the tool {} 4.1.2 support?"
    assert grounding.check(question.format("before"), said, [later]).missing_anchors == ["4.1.2"]
    assert grounding.check(question.format("after"), said, [later]).missing_anchors == []


def test_a_references_next_entry_is_no_other_value_of_the_key_asked_about() -> None:
    # coredocs tune cr-055: the CSV row of tcp_keepalive_time and the man page's tcp_keepalive_intvl line, which shares
    # its passage with tcp_keepalive_time's own line, were asked back as a conflict over one figure
    from masis.judge.conflicts import conflicts
    from masis.judge.evidence import evidence_sentences

    row = chunk("tcp-sysctls.csv#10", "Name: tcp_keepalive_time; Type: integer; Default: 7200; Kernel: since Linux "
                "2.2; Description: The number of seconds a connection needs to be idle before TCP begins sending out "
                "keep-alive probes.")
    page = chunk("tcp.7.txt#9", "tcp_keepalive_intvl (integer; default: 75; since Linux 2.4)\nThe number of seconds "
                 "between TCP keep-alive probes.\ntcp_keepalive_probes (integer; default: 9; since Linux 2.2)\n"
                 "tcp_keepalive_time (integer; default: 7200; since Linux 2.2)")
    question = "By default, how many seconds must a TCP connection be idle before Linux sends keep-alive probes " \
               "(tcp_keepalive_time)?"
    cited = f"{row['text']} [tcp-sysctls.csv#10]."
    assert conflicts(cited, [row, page], evidence_sentences([row, page]), question) == []
    # the page's own line of the key, giving another value, still disagrees
    other = chunk("tcp.7.txt#9", "tcp_keepalive_time (integer; default: 3600; since Linux 2.4)\nThe number of seconds "
                  "a connection needs to be idle before TCP begins sending out keep-alive probes.")
    assert conflicts(cited, [row, other], evidence_sentences([row, other]), question)



def test_sentences_of_two_reference_entries_are_no_two_sources() -> None:
    # coredocs tune cr-070 and cr-058: tcp_fin_timeout's CSV row and tcp(7)'s tcp_ecn_fallback entry, both "default …
    # since Linux …", were asked back as a conflict; so were the sysctl tcp_fastopen and the socket option
    # TCP_FASTOPEN_CONNECT, whose entry names the sysctl
    from masis.judge.conflicts import conflicts
    from masis.judge.evidence import evidence_sentences

    row = chunk("tcp-sysctls.csv#8", "Name: tcp_fin_timeout; Type: integer; Default: 60; Kernel: since Linux "
                "2.2; Description: This specifies how many seconds to wait for a final FIN packet before the socket is "
                "forcibly closed. In Linux 2.2, the default value was 180.")
    page = chunk("tcp.7.txt#20", "tcp_ecn_fallback (Boolean; default: enabled; since Linux 4.1) Enable RFC 3168, "
                 "Section 6.1.1.1. fallback.\ntcp_fin_timeout (integer; default: 60; since Linux 2.2)\nThis "
                 "specifies how many seconds to wait for a final FIN packet before the socket is forcibly closed.")
    question = "how long does linux hang around waiting for the last FIN before it just force-closes the socket? " \
               "default i mean"
    cited = "In Linux 2.2, the default value was 180 [tcp-sysctls.csv#8]."
    assert conflicts(cited, [row, page], evidence_sentences([row, page]), question) == []
    fastopen = chunk("tcp-sysctls.csv#7", "Name: tcp_fastopen; Type: Bitmask; Default: 0x1; Kernel: since Linux 3.7; "
                     "Description: Enables RFC 7413 Fast Open support.")
    option = chunk("tcp.7.txt#41", "For TCP Fast Open on the active side, see sysctl net.ipv4.tcp_fastopen (see "
                   "above). TCP_FASTOPEN_CONNECT (since Linux 4.11) This option enables an alternative way to "
                   "perform Fast Open on the active side.")
    cited = f"{fastopen['text']} [tcp-sysctls.csv#7]."
    assert conflicts(cited, [fastopen, option], evidence_sentences([fastopen, option]),
                     "Which bit of the tcp_fastopen bitmask turns on server-side Fast Open?") == []
    # one entry's key in both, with two values, still disagrees
    other = chunk("tcp.7.txt#41", "tcp_fin_timeout (integer; default: 30; since Linux 2.2)")
    cited = "Name: tcp_fin_timeout; Type: integer; Default: 60 [tcp-sysctls.csv#8]."
    assert conflicts(cited, [row, other], evidence_sentences([row, other]), "What is the default tcp_fin_timeout?")


def test_an_answer_that_opens_with_a_question_restates_it_unless_what_follows_gives_the_kind_asked() -> None:
    # opsdocs tune od-107: the FAQ's question and its second line say nothing of whether it is a bug
    faq = ("23 Why doesn't upsmon shut down my system [nut-FAQ.pdf#36]? I pulled the plug and nothing happened "
           "[nut-FAQ.pdf#36].")
    assert grounding.restates_question("pulled the plug on the ups to test and upsmon did nothing?? is that a bug", faq)
    # opsdocs tune od-051: the answer after the FAQ's question gives the release asked for
    removed = ("2.15. What happened to the commandkey and generatecommandkey directives [chrony-FAQ.txt#39]? They were "
               "removed in version 2.2 [chrony-FAQ.txt#39].")
    question = "In which chrony version were the commandkey and generatecommandkey directives removed?"
    assert not grounding.restates_question(question, removed)
    # a question further on leads nothing
    assert not grounding.restates_question(question, "They were removed in version 2.2 [chrony-FAQ.txt#39]. "
                                                     "What happened to them [chrony-FAQ.txt#39]?")
