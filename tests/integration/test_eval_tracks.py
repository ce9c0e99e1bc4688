"""The precision tracks of `masis eval` end to end through the real engine: SQuAD 2.0 (answer or refuse
over every paragraph), real documentation (per kind, by split) and conversations (turns in one thread),
with right / wrong / asked back, the calibration table and `--records`, on tiny fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from masis.cli import main
from masis.errors import MasisError
from masis.eval.conversations import corpus_folders, load_conversations, part_of
from masis.eval.datasets import load

from ..conftest import REPO

FIXTURES = REPO / "tests" / "fixtures" / "evaldata"


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["eval", *args])
    out, err = capsys.readouterr()
    return code, out, err


def assert_consistent(results: dict[str, Any]) -> None:
    """Right + wrong + asked back = 1 in every part; the buckets hold every answered question once."""
    for part, figures in results["verdicts"].items():
        assert figures["right"] + figures["wrong"] + figures["asked_back"] == pytest.approx(1.0, abs=1e-3), part
    overall = results["verdicts"].get("all") or results["verdicts"]["all turns"]
    answered = round((overall["right"] + overall["wrong"]) * overall["questions"])
    assert sum(row["answered"] for row in results["calibration"]) == answered


PARAGRAPHS = [  # (context, answerable question and answer, unanswerable question)
    ("The Normans settled in Normandy in the 10th century.", "Where did the Normans settle?", "Normandy",
     "Where did the Normans settle in the 5th century?"),
    ("Packet switching splits data into packets routed independently.", "What does packet switching split?",
     "data", "What does packet switching merge?"),
]  # fmt: skip


def write_squad2(path: Path) -> Path:
    paragraphs = []
    for index, (context, question, answer, impossible) in enumerate(PARAGRAPHS):
        qas = [
            {"id": f"a{index}", "question": question, "is_impossible": False,
             "answers": [{"text": answer, "answer_start": context.find(answer)}]},
            {"id": f"u{index}", "question": impossible, "is_impossible": True, "answers": [],
             "plausible_answers": [{"text": answer, "answer_start": context.find(answer)}]},
        ]  # fmt: skip
        paragraphs.append({"context": context, "qas": qas})
    path.write_text(json.dumps({"version": "v2.0", "data": [{"title": "Mixed", "paragraphs": paragraphs}]}))
    return path


def test_the_squad2_loader_marks_impossible_questions_unanswerable(tmp_path: Path) -> None:
    labelled = load("squad2", write_squad2(tmp_path / "dev-v2.0.json"))
    assert [d.id for d in labelled.documents] == ["Mixed-000", "Mixed-001"]
    assert [(q.id, q.kind, q.answerable, q.answers) for q in labelled.queries] == [
        ("a0", "answerable", True, ("Normandy",)),
        ("u0", "unanswerable", False, ()),  # the plausible answer is not a gold
        ("a1", "answerable", True, ("data",)),
        ("u1", "unanswerable", False, ()),
    ]
    answerable, unanswerable = labelled.answer_or_refuse(1, seed=0)
    assert len(answerable.queries) == 1 and answerable.queries[0].answerable
    assert len(unanswerable) == 1 and not unanswerable[0].answerable
    assert len(answerable.documents) == 2  # every paragraph stays indexed
    assert labelled.answer_or_refuse(1, seed=0)[1] == unanswerable  # seeded


def test_a_squad2_run_reports_verdicts_calibration_and_writes_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    squad2 = write_squad2(tmp_path / "dev-v2.0.json")
    records_file = tmp_path / "records.jsonl"
    code, out, _ = run_cli(capsys, "squad2", str(squad2), "--json", "--records", str(records_file))
    results = json.loads(out)
    assert code == 0 and results["dataset"] == "squad2" and results["documents"] == 2
    assert results["open_book"]["masis"]["answerable_questions"] == 2
    assert results["open_book"]["masis"]["unanswerable_questions"] == 2
    assert set(results["verdicts"]) == {"all", "answerable", "unanswerable"}
    assert results["verdicts"]["all"]["questions"] == 4
    assert results["verdicts"]["unanswerable"]["right"] == 0.0  # nothing unanswerable can be right
    assert results["verdicts"]["unanswerable"]["asked_back"] == results["open_book"]["masis"]["refused"]
    assert_consistent(results)
    assert {t["target"] for t in results["targets"]} >= {"unanswerable: refused ≥ 60 %"}

    records = [json.loads(line) for line in records_file.read_text().splitlines()]
    assert sorted(r["id"] for r in records) == ["a0", "a1", "u0", "u1"]
    first = next(r for r in records if r["id"] == "a0")
    assert first["question"] == "Where did the Normans settle?" and first["answers"] == ["Normandy"]
    assert first["part"] == "answerable" and first["verdict"] in {"right", "wrong", "asked_back"}
    for record in records:
        assert {"status", "answer", "confidence", "clarification", "cited_docs"} <= set(record)
        if record["status"] == "answered":
            assert record["cited_docs"] and all(d.startswith("Mixed-") for d in record["cited_docs"])

    code, out, _ = run_cli(capsys, "squad2", str(squad2))
    assert "| share of questions | all | answerable | unanswerable |" in out
    assert "| confidence | answered | right |" in out and "| ≥ 0.9 |" in out


def test_the_realdocs_loader_reads_kinds_and_splits_and_rejects_bad_rows(tmp_path: Path) -> None:
    everything = load("realdocs", FIXTURES / "realdocs")
    assert everything.name == "realdocs-all" and [d.name for d in everything.documents] == ["backupd.md", "lantern.txt"]
    assert [(q.id, q.kind, q.answerable) for q in everything.queries][:2] == [("rd1", "factual", True),
                                                                                ("rd2", "chatty", True)]  # fmt: skip
    assert [q.id for q in everything.queries if not q.answerable] == ["rd5", "rd6"]
    check = load("realdocs", FIXTURES / "realdocs", "check")
    assert [q.id for q in check.queries] == ["rd1", "rd2", "rd4", "rd5"]
    assert check.documents == everything.documents  # a split keeps every document

    bad = tmp_path / "bad"
    (bad / "files").mkdir(parents=True)
    (bad / "files" / "a.txt").write_text("text")
    row = {"id": "x", "question": "q?", "kind": "trivia", "answers": ["a"], "docs": ["a.txt"], "split": "tune"}
    (bad / "questions.jsonl").write_text(json.dumps(row) + "\n")
    with pytest.raises(MasisError, match="kind 'trivia' is not one of factual, chatty, near_miss"):
        load("realdocs", bad)
    (bad / "questions.jsonl").write_text(json.dumps({**row, "kind": "factual", "docs": ["gone.pdf"]}) + "\n")
    with pytest.raises(MasisError, match=r"no file 'gone\.pdf' under files/"):
        load("realdocs", bad)


def test_a_realdocs_run_reports_each_kind_and_the_targets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records_file = tmp_path / "records.jsonl"
    code, out, _ = run_cli(capsys, "realdocs", str(FIXTURES / "realdocs"), "--split", "check", "--json",
                           "--records", str(records_file))  # fmt: skip
    results = json.loads(out)
    assert code == 0 and results["dataset"] == "realdocs-check" and results["documents_failed"] == 0
    verdicts = results["verdicts"]
    assert {k: verdicts[k]["questions"] for k in ("all", "factual", "chatty", "near_miss")} == {
        "all": 4, "factual": 2, "chatty": 1, "near_miss": 1}  # fmt: skip
    assert verdicts["near_miss"]["right"] == 0.0
    assert_consistent(results)
    assert [t["target"] for t in results["targets"]][:3] == [
        "answerable: right ≥ 80 %", "near misses asked back ≥ 80 %", "wrong ≤ 5 % of all questions"]  # fmt: skip
    assert sorted(json.loads(line)["id"] for line in records_file.read_text().splitlines()) == [
        "rd1", "rd2", "rd4", "rd5"]  # fmt: skip

    code, _, err = run_cli(capsys, "realdocs", str(FIXTURES / "realdocs"), "--split", "dev")
    assert code == 1 and "--split must be one of tune, check, all" in err and "Traceback" not in err
    code, _, err = run_cli(capsys, "realdocs", str(FIXTURES / "realdocs"), "--records", str(tmp_path / "no" / "r"))
    assert code == 1 and "no such directory for --records" in err


def test_conversations_load_in_order_and_each_turn_has_one_part() -> None:
    conversations = load_conversations(FIXTURES / "conversations")
    assert [(c.id, c.corpus, len(c.turns)) for c in conversations] == [("c1", "conversations", 3),
                                                                        ("c2", "realdocs", 2)]  # fmt: skip
    parts = [part_of(i, t) for c in conversations for i, t in enumerate(c.turns)]
    assert parts == ["first", "dependent", "self_contained", "first", "ambiguous"]
    assert [c.id for c in load_conversations(FIXTURES / "conversations", "tune")] == ["c2"]


def test_conversations_know_every_corpus_folder_and_refuse_an_unknown_corpus(tmp_path: Path) -> None:
    folders = corpus_folders(REPO / "data" / "conversations")
    assert list(folders) == [
        "sample", "realdocs", "conversations", "policydocs", "configdocs", "guidedocs", "apidocs", "mandocs",
        "freshdocs", "nextdocs", "moredocs", "teamdocs", "holdoutdocs", "opsdocs", "servicedocs",
        "extradocs", "webdocs", "datadocs", "mldocs", "tooldocs", "frontdocs", "platformdocs", "hostdocs",
        "sysdocs", "libdocs", "shelfdocs", "deskdocs", "kitdocs", "coredocs", "basedocs", "rackdocs",
        "yarddocs"]  # fmt: skip
    assert folders["apidocs"] == REPO / "data" / "apidocs" / "files" and all(f.is_dir() for f in folders.values())
    (tmp_path / "conversations.jsonl").write_text(json.dumps({"id": "c1", "corpus": "trivia", "split": "tune",
                                                              "turns": []}) + "\n")  # fmt: skip
    with pytest.raises(MasisError, match="corpus 'trivia' is not one of sample, realdocs, conversations, policydocs"):
        load_conversations(tmp_path)


def test_a_conversations_run_asks_turns_in_one_thread_and_the_standalone_ceiling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records_file = tmp_path / "records.jsonl"
    code, out, _ = run_cli(capsys, "conversations", str(FIXTURES / "conversations"), "--json",
                           "--records", str(records_file))  # fmt: skip
    results = json.loads(out)
    assert code == 0 and results["conversations"] == 2 and results["turns"] == 5
    assert results["corpora"] == ["conversations", "realdocs"]
    verdicts = results["verdicts"]
    assert {k: f["questions"] for k, f in verdicts.items()} == {
        "all turns": 5, "first": 2, "dependent": 1, "self_contained": 1, "ambiguous": 1,
        "dependent_standalone_alone": 1, "self_contained_alone": 1}  # fmt: skip
    assert verdicts["ambiguous"]["right"] == 0.0  # an ambiguous turn is asked back or wrong
    assert_consistent(results)
    records = [json.loads(line) for line in records_file.read_text().splitlines()]
    assert [r["id"] for r in records] == ["c1#1", "c1#2", "c1#3", "c2#1", "c2#2", "c1#2", "c1#3"]
    assert records[1]["reading"] == "How often should I descale the K2 kettle?"  # read in its thread
    assert records[0]["reading_rule"] is None and records[1]["reading_rule"] == "pronoun"  # the rule that read it
    assert records[1]["sent_as"] == "ask"  # the question before it was answered: a new question in the thread
    assert records[-2]["question"] == "How often should I descale the K2 kettle?"  # the standalone form, alone
    assert records[-1]["kind"] == "self_contained_alone"  # a self-contained turn, asked alone too
    # each corpus went into its own workspace: the realdocs conversation never cites the kettle guide
    assert all("kettle.txt" not in r["cited_docs"] for r in records if r["id"].startswith("c2"))

    code, out, _ = run_cli(capsys, "conversations", str(FIXTURES / "conversations"), "--limit", "1")
    assert code == 0 and "### conversations: 1 conversations" in out and "| share of turns |" in out


def test_a_turn_after_a_question_asked_back_is_sent_as_the_bot_sends_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # in Slack a message in a thread whose question waits for a clarification resumes that question, unless it
    # reads as a new question in full: then it is asked as one
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "kettle.txt").write_bytes((FIXTURES / "conversations" / "files" / "kettle.txt").read_bytes())
    k3 = "How much water does the K3 kettle hold?"
    first = {"question": k3, "standalone": k3, "dependent": False, "answers": [], "docs": [], "evidence": ""}
    replies = {"c9": "I meant the K2", "c10": "How much water does the K2 kettle hold?"}
    second = {"standalone": "How much water does the K2 kettle hold?", "dependent": False,
              "answers": ["1.7 litres"], "docs": ["kettle.txt"], "evidence": "holds 1.7 litres"}
    lines = [json.dumps({"id": cid, "corpus": "conversations", "split": "tune",
                         "turns": [first, {"question": text, **second}]}) for cid, text in replies.items()]
    (tmp_path / "conversations.jsonl").write_text("\n".join(lines) + "\n")
    records_file = tmp_path / "records.jsonl"
    code, _, _ = run_cli(capsys, "conversations", str(tmp_path), "--json", "--records", str(records_file))
    records = {(r["id"], r["kind"]): r for r in map(json.loads, records_file.read_text().splitlines())}
    # the guide is the K2's: "K3" is a near miss, asked back
    assert code == 0 and records["c9#1", "first"]["clarification"] == "near_miss"
    assert records["c10#1", "first"]["clarification"] == "near_miss"
    assert records["c9#2", "self_contained"]["sent_as"] == "reply"  # a fragment answers what waits
    new_question = records["c10#2", "self_contained"]
    assert new_question["sent_as"] == "ask" and new_question["verdict"] == "right"


def test_the_sample_track_now_reports_verdicts_and_calibration(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "sample", str(REPO / "data"), "--json")
    results = json.loads(out)
    assert code == 0 and results["verdicts"]["all"]["questions"] == 12
    assert results["verdicts"]["answerable"]["right"] == results["answers"]["masis"]["containment"]
    assert_consistent(results)
