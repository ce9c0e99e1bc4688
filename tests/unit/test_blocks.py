"""Block Kit rendering: Slack's limits, citation numbering, escaping, and the unverified draft."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import blocks as b
from masis.ingest.loaders import SUPPORTED_SUFFIXES
from masis.outcome import Citation, Clarification, Outcome

THREAD = "T0001:C0001:1712345678.000100"


def texts_of(block: dict[str, Any]) -> list[str]:
    found = []
    if "text" in block and isinstance(block["text"], dict):
        found.append(block["text"]["text"])
    for element in block.get("elements") or []:
        if isinstance(element.get("text"), str):
            found.append(element["text"])
    return found


def assert_within_limits(blocks: list[dict[str, Any]], max_blocks: int = b.MAX_MESSAGE_BLOCKS) -> None:
    assert 0 < len(blocks) <= max_blocks
    for block in blocks:
        for text in texts_of(block):
            assert len(text) <= b.MAX_SECTION_CHARS
        if block["type"] == "context":
            assert 0 < len(block["elements"]) <= b.MAX_CONTEXT_ELEMENTS
        if block["type"] == "context_actions":
            assert 0 < len(block["elements"]) <= 5
        if block["type"] == "actions":
            assert 0 < len(block["elements"]) <= b.MAX_ACTIONS_ELEMENTS
            action_ids = [e["action_id"] for e in block["elements"]]
            assert len(action_ids) == len(set(action_ids)), "action ids must be unique in a block"
            for element in block["elements"]:
                assert len(element["text"]["text"]) <= b.MAX_BUTTON_TEXT
                assert len(element["value"]) <= b.MAX_BUTTON_VALUE
    json.dumps(blocks)  # serialisable as sent


def citation(number: int, doc: str = "strategy_memo.pdf", chunk: int | None = None, **kw: Any) -> Citation:
    chunk = number if chunk is None else chunk
    return Citation(number=number, chunk_id=f"{doc}#{chunk}", doc_name=doc, text=f"passage {number}", **kw)


def answered(answer: str, citations: list[Citation], **kw: Any) -> Outcome:
    return Outcome(
        status="answered", thread_id=THREAD, workspace_id="T0001:C0001", question="q", answer=answer,
        confidence=0.84, citations=citations,
        evaluation={"faithfulness": 0.9, "relevance": 0.85, "completeness": 0.8, "reasoning_quality": 0.88,
                    "overall_score": 0.86},
        metrics={"retry_reasons": ["weak evidence"], "confidence_history": [0.4, 0.84]}, **kw,
    )


def clarifying(kind: str = "conflict", draft: str | None = "Revenue was $12.4M [q3_report.md#2].",
               options: list[str] | None = None) -> Outcome:
    return Outcome(
        status="needs_clarification", thread_id=THREAD, workspace_id="T0001:C0001", question="q",
        clarification=Clarification(
            kind=kind, question="The documents disagree. Which source should I trust?",
            options=["q3_report.md", "product_roadmap.txt"] if options is None else options,
            draft=draft, draft_confidence=0.42 if draft else None,
            draft_evaluation={"faithfulness": 0.4, "relevance": 0.9, "completeness": 0.7,
                              "reasoning_quality": 0.5} if draft else None,
        ),
    )


# --- citations -------------------------------------------------------------------------------------------


def test_citations_become_numbered_references_in_order_of_first_use() -> None:
    cites = [citation(1, "b.md", 2), citation(2, "a.pdf", 1)]
    text = b.number_citations("A [b.md#2]. B [a.pdf#1]. C [b.md#2][a.pdf#1].", cites)
    assert text == "A [1]. B [2]. C [1][2]."


def test_an_unknown_citation_is_shown_not_numbered() -> None:
    assert b.number_citations("X [ghost.md#9].", []) == "X [`ghost.md#9`]."


def test_answer_has_sources_scores_and_buttons() -> None:
    outcome = answered("Invest $4.2M in AI [strategy_memo.pdf#3].", [citation(1, chunk=3, page=3, section="Plan")])
    message = b.answer_message(outcome)
    assert_within_limits(message["blocks"])
    first = message["blocks"][0]
    assert first == {"type": "markdown", "text": "Invest $4.2M in AI \\[1\\]."}  # standard Markdown out
    everything = json.dumps(message["blocks"])
    assert "*Sources*" in everything and "`strategy_memo.pdf`, p. 3" in everything and "_Plan_" in everything
    assert "Confidence *84%*" in everything and "Faithfulness 0.90" in everything and "Reasoning 0.88" in everything
    assert "1 retry" in everything
    ids = [e["action_id"] for blk in message["blocks"] if "actions" in blk["type"] for e in blk["elements"]]
    assert ids == [b.ACTION_WHY, b.ACTION_FEEDBACK]
    assert message["blocks"][-1]["type"] == "context_actions"  # Slack's native 👍 / 👎 close the message
    assert "[1]" in message["text"]


def test_document_text_cannot_ping_or_link() -> None:
    outcome = answered("Hi <!channel> and <@U123> see <http://evil|here> & co [strategy_memo.pdf#1].",
                       [citation(1)])
    first = b.answer_message(outcome)["blocks"][0]["text"]
    assert "<!channel>" not in first and "<@U123>" not in first and "<http" not in first and "<!" not in first
    assert "](" not in first.replace("\\](", "")  # no Markdown link can form either
    assert "\\&" in first and "http:\u2060//" in first


def test_the_answer_keeps_the_models_markdown_but_no_links_or_pings() -> None:
    answer = ("## Plan\n**Invest** in AI [strategy_memo.pdf#1].\n- one\n- two\n"
              "See [the portal](https://evil.example/x) or www.evil.example, ping @channel, "
              "or &lt;!here&gt; and <img src=x>.")
    text = b.answer_message(answered(answer, [citation(1)]))["blocks"][0]["text"]
    assert text.startswith("## Plan\n**Invest** in AI \\[1\\].\n- one\n- two")  # formatting kept
    assert "[the portal](" not in text and "\\[the portal\\](https:\u2060//evil.example/x)" in text
    assert "www\u2060.evil" in text and "@\u2060channel" in text
    assert "\\&lt;" in text and "\\<\u2060img" in text  # no entity, no HTML


def test_a_human_review_warning_is_shown() -> None:
    outcome = answered("x [strategy_memo.pdf#1].", [citation(1)], requires_human_review=True,
                       warning="You chose the unverified draft; its audit did not pass.")
    assert ":warning: You chose the unverified draft" in json.dumps(b.answer_message(outcome)["blocks"])


# --- limits ----------------------------------------------------------------------------------------------


def test_a_very_long_answer_with_many_sources_fits_one_message() -> None:
    sentence = "Kestrel Labs invests in artificial intelligence across every business line [strategy_memo.pdf#1]. "
    cites = [citation(i, chunk=i, page=i) for i in range(1, 120)]
    outcome = answered(sentence * 2500, cites)  # ~250k characters
    message = b.answer_message(outcome)
    assert_within_limits(message["blocks"])
    assert len(message["text"]) <= b.MAX_FALLBACK_CHARS
    assert "cut to fit" in json.dumps(message["blocks"])
    assert [blk["type"] for blk in message["blocks"][-2:]] == ["actions", "context_actions"]  # buttons survive


def test_a_single_unbroken_word_is_split_hard() -> None:
    pieces = b.split_text("x" * 7000)
    assert [len(p) for p in pieces] == [3000, 3000, 1000]


@given(st.text(alphabet=st.sampled_from("ab .\n"), min_size=0, max_size=9000))
def test_split_text_respects_the_limit_and_keeps_the_words(text: str) -> None:
    pieces = b.split_text(text, limit=500)
    assert all(0 < len(p) <= 500 for p in pieces)
    assert "".join(pieces).replace(" ", "").replace("\n", "") == text.replace(" ", "").replace("\n", "")


def test_buttons_refuse_values_slack_would_reject() -> None:
    with pytest.raises(ValueError):
        b.button("x", "a", "v" * (b.MAX_BUTTON_VALUE + 1))
    assert len(b.button("y" * 200, "a", "v")["text"]["text"]) == b.MAX_BUTTON_TEXT


def test_documents_and_summaries_fit_for_many_files() -> None:
    docs = [SimpleNamespace(name=f"document_{i:03d}_with_a_long_name.pdf", chunks=i, size_bytes=i * 5000, pages=i,
                            uploaded_by="U0123ABC", uploaded_at="2026-01-02T03:04:05+00:00") for i in range(400)]
    listing = b.documents_message(docs)
    assert_within_limits(listing["blocks"])
    assert "<@U0123ABC>" in json.dumps(listing["blocks"]) and "2026-01-02" in json.dumps(listing["blocks"])
    results = [SimpleNamespace(name=f"f{i}.pdf", status=["indexed", "unchanged", "failed"][i % 3], chunks=i,
                               reason="could not be read" if i % 3 == 2 else None) for i in range(300)]
    summary = b.ingest_summary_message(results, uploaded_by="U0123ABC")
    assert_within_limits(summary["blocks"])
    assert "Indexed 100 of 300 files" in summary["text"]


def test_the_audit_trail_modal_fits() -> None:
    outcome = answered("x [strategy_memo.pdf#1].", [citation(1)],
                       critique={"unsupported_claims": ["claim"] * 30, "logical_gaps": [], "hallucination": False},
                       trace=[{"node": "critic", "decision": "retry", "reason": "r" * 5000}] * 300)
    outcome.metrics["last_citation_audit"] = {"invalid": ["a#1"], "uncited_sentences": 2}
    view = b.why_modal(outcome.model_dump(mode="json"))
    assert_within_limits(view["blocks"], max_blocks=b.MAX_MODAL_BLOCKS)
    assert len(view["title"]["text"]) <= 24
    text = json.dumps(view["blocks"], ensure_ascii=False)
    assert "Why it retried" in text and "weak evidence" in text and "40% → 84%" in text
    assert "What the critic found" in text and "Citation audit" in text and "Steps" in text


# --- clarifications --------------------------------------------------------------------------------------


def test_a_clarification_marks_its_draft_unverified_and_offers_every_choice() -> None:
    message = b.clarification_message(clarifying())
    assert_within_limits(message["blocks"])
    text = json.dumps(message["blocks"])
    assert "unverified" in text and "Draft confidence" not in text and "Unverified draft" in text
    assert "42%" in text and "Faithfulness 0.40" in text
    assert "[`q3_report.md#2`]" in text  # the draft's citations are not numbered sources
    buttons = {e["action_id"]: e for blk in message["blocks"] if blk["type"] == "actions" for e in blk["elements"]}
    choices = {json.loads(e["value"])["choice"] for e in buttons.values()}
    assert choices == {"accept", "cancel", "source:q3_report.md", "source:product_roadmap.txt"}
    assert all(json.loads(e["value"])["thread"] == THREAD for e in buttons.values())
    assert buttons[b.ACTION_ACCEPT]["text"]["text"] == "Use this draft"
    assert all(b.ACTION_SOURCE.match(a) for a in buttons if a not in (b.ACTION_ACCEPT, b.ACTION_CANCEL))


def test_without_a_draft_there_is_nothing_to_accept() -> None:
    message = b.clarification_message(clarifying("zero_results", draft=None, options=[]))
    ids = [e["action_id"] for blk in message["blocks"] if blk["type"] == "actions" for e in blk["elements"]]
    assert ids == [b.ACTION_CANCEL]
    assert "/masis-upload" in json.dumps(message["blocks"])


def test_a_resolved_clarification_has_no_buttons() -> None:
    message = b.resolved_clarification_message(clarifying(), "<@U1> chose to use the draft.")
    assert not [blk for blk in message["blocks"] if blk["type"] == "actions"]
    assert "chose to use the draft" in json.dumps(message["blocks"])


def test_many_conflicting_sources_still_fit() -> None:
    options = [f"source_{i}.md" for i in range(40)]
    message = b.clarification_message(clarifying(options=options, draft="d " * 5000))
    assert_within_limits(message["blocks"])


def test_outcome_message_dispatches_on_status() -> None:
    assert b.outcome_message(clarifying())["text"].startswith("I need your help")
    cancelled = Outcome(status="cancelled", thread_id=THREAD, workspace_id="T0001:C0001")
    assert "dropped" in b.outcome_message(cancelled)["text"]


# --- progress, modal -----------------------------------------------------------------------------------------


def test_progress_names_the_stage_and_the_attempt() -> None:
    assert "Working on it" in b.progress_message()["text"]
    assert "Auditing" in b.progress_message("auditing")["text"]
    assert "(attempt 2)" in b.progress_message("researching", 2)["text"]


def test_the_upload_modal() -> None:
    view = b.upload_modal('{"team": "T", "channel": "C"}', "#general")
    assert view["callback_id"] == b.UPLOAD_CALLBACK
    assert len(view["title"]["text"]) <= 24 and len(view["submit"]["text"]) <= 24
    [file_input] = [blk["element"] for blk in view["blocks"] if blk.get("element", {}).get("type") == "file_input"]
    assert file_input["max_files"] == 10
    assert {f".{t}" for t in file_input["filetypes"]} | {".htm"} == SUPPORTED_SUFFIXES
    assert all(blk.get("optional") for blk in view["blocks"] if blk["type"] == "input")


# --- Slack's limits on a whole message, verbatim text, feedback per answer ------------------------------------


def _mrkdwn_objects(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        own = [value] if value.get("type") == "mrkdwn" else []
        return own + [o for v in value.values() for o in _mrkdwn_objects(v)]
    if isinstance(value, list):
        return [o for v in value for o in _mrkdwn_objects(v)]
    return []


def _validate_with_slack_sdk(blocks: list[dict[str, Any]]) -> None:
    from slack_sdk.models.blocks import Block

    for block in blocks:
        parsed = Block.parse(block)
        assert parsed is not None, block
        parsed.validate_json()  # raises SlackObjectFormationError on anything Slack would refuse


def forty_long_citations() -> Outcome:
    long_doc = "quarterly_financial_statements_and_board_commentary_" + "x" * 60 + ".pdf"
    cites = [
        Citation(number=i, chunk_id=f"{long_doc}#{i}", doc_name=long_doc, page=i, section="Section " + "s" * 90,
                 text=f"passage {i} " + "lorem ipsum dolor sit amet " * 40)
        for i in range(1, 41)
    ]
    answer = " ".join(f"Claim number {i} is supported here [{long_doc}#{i}]." + " detail" * 12 for i in range(1, 41))
    return answered(answer, cites)


def test_forty_long_citations_stay_under_slacks_total_text_limit() -> None:
    from tests.e2e.slack_emulator import MAX_MESSAGE_TEXT, blocks_error

    outcome = forty_long_citations()
    message = b.answer_message(outcome)
    blocks = message["blocks"]
    assert_within_limits(blocks)
    assert b.text_chars(blocks) <= b.MAX_MESSAGE_CHARS < MAX_MESSAGE_TEXT
    assert blocks_error(blocks) is None  # what the emulator (as Slack) accepts
    _validate_with_slack_sdk(blocks)
    text = json.dumps(blocks, ensure_ascii=False)
    assert "*[1]*" in text and ">passage 1 " in text  # the first sources are quoted
    assert "more sources; see “Why this answer?”" in text  # the rest are named where there is room
    assert {b.ACTION_FEEDBACK, b.ACTION_WHY} <= {
        e["action_id"] for blk in blocks if "actions" in blk["type"] for e in blk["elements"]}
    # the audit trail lists every source
    why = b.why_modal(outcome.model_dump(mode="json"))
    assert all(f"*[{i}]*" in json.dumps(why["blocks"]) for i in range(1, 41))


def test_a_huge_answer_is_cut_and_keeps_its_buttons_within_the_total_limit() -> None:
    outcome = answered("word [strategy_memo.pdf#1] " * 3000, [citation(1)])
    blocks = b.answer_message(outcome)["blocks"]
    assert b.text_chars(blocks) <= b.MAX_MESSAGE_CHARS
    assert "cut to fit" in json.dumps(blocks) and blocks[-1]["type"] == "context_actions"
    _validate_with_slack_sdk(blocks)


def test_every_mrkdwn_text_is_sent_verbatim() -> None:
    docs = [SimpleNamespace(name=f"#general-{i}.md", chunks=1, pages=None, size_bytes=10, uploaded_by="U1",
                            uploaded_at="2026-01-01") for i in range(3)]
    results = [SimpleNamespace(name="http://example.com/x.md", status="indexed", chunks=2, reason=None)]
    messages = [
        b.answer_message(answered("See http://evil.example and #general [strategy_memo.pdf#1].", [citation(1)])),
        b.clarification_message(clarifying()),
        b.resolved_clarification_message(clarifying(), "done"),
        b.documents_message(docs),
        b.ingest_summary_message(results, uploaded_by="U1"),
        b.progress_message("researching"),
        b.error_message("boom"),
        b.fallback_message(answered("x [strategy_memo.pdf#1]", [citation(1)])),
    ]
    objects = [o for m in messages for o in _mrkdwn_objects(m["blocks"])]
    objects += _mrkdwn_objects(b.why_modal(answered("a", [citation(1)]).model_dump(mode="json"))["blocks"])
    assert objects and all(o.get("verbatim") is True for o in objects)
    for m in messages:
        _validate_with_slack_sdk(m["blocks"])


def test_native_feedback_buttons_name_the_answer_they_rate() -> None:
    from slack_sdk.models.blocks import Block, ContextActionsBlock

    outcome = answered("A [strategy_memo.pdf#1].", [citation(1)], run=3)
    block = b.answer_message(outcome)["blocks"][-1]
    parsed = Block.parse(block)
    assert isinstance(parsed, ContextActionsBlock)
    parsed.validate_json()
    [element] = block["elements"]
    assert element["type"] == "feedback_buttons" and element["action_id"] == b.ACTION_FEEDBACK
    up, down = element["positive_button"], element["negative_button"]
    assert b.parse_feedback_value(up["value"]) == (THREAD, 3, "up")
    assert b.parse_feedback_value(down["value"]) == (THREAD, 3, "down")
    assert up["accessibility_label"] and down["accessibility_label"]
    assert all(len(x["accessibility_label"]) <= 75 for x in (up, down))
    assert b.parse_feedback_value(THREAD) == (THREAD, None, None)  # buttons posted before answers had runs


def test_the_fallback_is_short_escaped_and_has_no_buttons() -> None:
    answer = answered("<!channel> " + "long " * 2000 + "[strategy_memo.pdf#1]", [citation(1)])
    message = b.fallback_message(answer)
    assert len(message["text"]) <= b.MAX_FALLBACK_CHARS and "<!channel>" not in message["text"]
    assert "strategy_memo.pdf" in message["text"] and len(message["blocks"]) == 1
    question = b.fallback_message(clarifying())
    assert "Which source should I trust?" in question["text"] and "Reply in this thread" in question["text"]


def test_modals_validate_with_slack_sdks_view_model() -> None:
    from slack_sdk.models.views import View

    outcome = forty_long_citations().model_dump(mode="json")
    for modal in (b.upload_modal("{}", "#general"), b.why_modal(outcome), b.why_missing_modal()):
        View(**modal).validate_json()  # raises SlackObjectFormationError on anything Slack would refuse
        _validate_with_slack_sdk(modal["blocks"])


# --- follow-ups --------------------------------------------------------------------------------------------


def test_a_follow_ups_reading_is_shown_above_its_answer_escaped() -> None:
    outcome = answered("The Falcon X2 costs $1,249 [falcon.md#1].", [citation(1, "falcon.md")],
                       reading="How much will the <!channel> Falcon X2 cost?")
    message = b.outcome_message(outcome)
    first = texts_of(message["blocks"][0])
    assert first == [":speech_balloon: Reading this as: _How much will the &lt;!channel&gt; Falcon X2 cost?_"]
    assert "Reading this as" not in " ".join(t for blk in b.outcome_message(answered(
        "x [falcon.md#1].", [citation(1, "falcon.md")]))["blocks"] for t in texts_of(blk))
    assert_within_limits(message["blocks"])


def test_which_one_do_you_mean_has_one_button_per_candidate() -> None:
    message = b.outcome_message(clarifying("unclear_reference", draft=None, options=["Falcon X2", "Heron S1"]))
    buttons = {e["action_id"]: e for blk in message["blocks"] if blk["type"] == "actions" for e in blk["elements"]}
    assert set(buttons) == {f"{b.ACTION_ABOUT_PREFIX}0", f"{b.ACTION_ABOUT_PREFIX}1", b.ACTION_CANCEL}
    assert [json.loads(buttons[f"{b.ACTION_ABOUT_PREFIX}{i}"]["value"])["choice"] for i in (0, 1)] == [
        "about:Falcon X2", "about:Heron S1"]
    assert buttons[f"{b.ACTION_ABOUT_PREFIX}1"]["text"]["text"] == "Heron S1"
    assert_within_limits(message["blocks"])
