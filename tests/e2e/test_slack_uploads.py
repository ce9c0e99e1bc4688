"""Documents from Slack: the /masis-upload modal, list and remove, files shared with a mention, and the
rule that the bot token goes to Slack's hosts only."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from bot import blocks as b
from masis.ingest.budget import parse_slots
from masis.ingest.loaders import SUPPORTED_SUFFIXES
from tests.conftest import SAMPLE_DIR
from tests.e2e.conftest import BotServer
from tests.e2e.helpers import is_answer, is_clarification, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import BOT_USER_ID, TEAM_ID, SlackEmulator


@pytest.fixture
def foreign() -> Iterator[SlackEmulator]:
    """Another host ("localhost", not the API's "127.0.0.1") that must never see the bot token."""
    with SlackEmulator(host="localhost", name="foreign") as emu:
        yield emu


def sample_file(emu: SlackEmulator, name: str) -> dict[str, Any]:
    return emu.add_file(name, (SAMPLE_DIR / name).read_bytes())


def open_modal(slack: SlackDriver, emu: SlackEmulator, channel: str) -> dict[str, Any]:
    sent = slack.command(channel)
    assert sent.status == 200
    [call] = emu.wait_for(
        lambda _: [c for c in emu.calls_to("views.open")
                   if c.params["view"].get("callback_id") == b.UPLOAD_CALLBACK
                   and channel in c.params["view"]["private_metadata"]],
        what="the upload modal",
    )
    return call.params["view"]


def upload_values(files: list[dict[str, Any]], text: str = "", name: str = "") -> dict[str, dict[str, Any]]:
    """`view.state.values` as Slack sends them for the modal's three inputs."""
    return {
        b.UPLOAD_FILES_BLOCK: {b.UPLOAD_FILES_ACTION: {"type": "file_input", "files": files}},
        b.UPLOAD_TEXT_BLOCK: {b.UPLOAD_TEXT_ACTION: {"type": "plain_text_input", "value": text or None}},
        b.UPLOAD_NAME_BLOCK: {b.UPLOAD_NAME_ACTION: {"type": "plain_text_input", "value": name or None}},
    }


def is_summary(call: Any) -> bool:
    return "Indexed" in call.blocks_text() or "could not index" in call.blocks_text()


def test_modal_upload_indexes_for_that_channel_only(slack: SlackDriver, emulator: SlackEmulator) -> None:
    channel, other = "CUPLOAD01", "COTHER001"
    view = open_modal(slack, emulator, channel)
    element_types = [blk.get("element", {}).get("type") for blk in view["blocks"]]
    assert "file_input" in element_types and "plain_text_input" in element_types
    file_input = next(blk["element"] for blk in view["blocks"] if blk.get("element", {}).get("type") == "file_input")
    assert file_input["max_files"] == 10
    assert {f".{t}" for t in file_input["filetypes"]} | {".htm"} == SUPPORTED_SUFFIXES

    # submitting nothing keeps the modal open with an error
    empty = slack.submit_view(view, upload_values([]))
    assert empty.status == 200 and empty.json()["response_action"] == "errors"

    files = [sample_file(emulator, "strategy_memo.pdf"), sample_file(emulator, "q3_report.md")]
    sent = slack.submit_view(view, upload_values(files, "The cafeteria serves tacos on Tuesdays.", "cafeteria menu"))
    assert sent.status == 200 and not sent.body  # an empty 200 closes the modal
    [summary] = wait_post(emulator, channel, None, is_summary, what="the upload summary")
    text = summary.blocks_text()
    assert "Indexed 3 of 3" in text
    assert "strategy_memo.pdf" in text and "q3_report.md" in text and "cafeteria_menu.md" in text
    assert "chunk" in text
    downloads = [c for c in emulator.calls if c.method.startswith("GET /files/")]
    assert len(downloads) == 2 and all(c.authorization == "Bearer xoxb-test-0001-secret" for c in downloads)

    # the documents answer in that channel...
    ts, _ = slack.mention(channel, "What is our AI investment strategy?")
    [answer] = wait_post(emulator, channel, ts, is_answer, what="an answer from the uploaded documents")
    assert "strategy_memo.pdf" in answer.blocks_text()
    # ...and not in another one
    ts, _ = slack.mention(other, "What is our AI investment strategy?")
    [clarification] = wait_post(emulator, other, ts, is_clarification, what="no documents here")
    assert "/masis-upload" in clarification.blocks_text()

    listed = slack.command(channel, "list")
    assert listed.status == 200
    assert all(name in listed.body for name in ("strategy_memo.pdf", "q3_report.md", "cafeteria_menu.md"))
    assert listed.json()["response_type"] == "ephemeral"
    assert "No documents" in slack.command(other, "list").body

    removed = slack.command(channel, "remove cafeteria_menu.md")
    assert "Removed" in removed.body
    assert "cafeteria_menu.md" not in slack.command(channel, "list").body
    assert "no document called" in slack.command(channel, "remove nothing.pdf").body
    assert "masis-upload" in slack.command(channel, "frobnicate").body  # usage


def test_removing_a_document_while_it_is_being_uploaded_says_so_at_once(
    bot: BotServer, slack: SlackDriver
) -> None:
    """`remove` answers in the slash command's ack: it does not wait behind an upload of that name (which can
    take minutes), it says so; once the upload is over, the removal goes through."""
    channel = "CBUSY0001"
    workspace = f"{TEAM_ID}:{channel}"
    assert not bot.engine.ingest(workspace, [("notes.md", b"The Osprey launch is in April.")]).failed
    with bot.engine._document_locks.hold(workspace, ["notes.md"]):  # as an upload of notes.md does
        busy = slack.command(channel, "remove notes.md")
        assert busy.status == 200 and "being uploaded or removed right now" in busy.body
        assert "notes.md" in slack.command(channel, "list").body
    assert "Removed" in slack.command(channel, "remove notes.md").body
    assert "notes.md" not in slack.command(channel, "list").body


def test_the_token_never_goes_to_another_host(slack: SlackDriver, emulator: SlackEmulator,
                                              foreign: SlackEmulator) -> None:
    channel = "CUPLOAD02"
    view = open_modal(slack, emulator, channel)
    elsewhere = emulator.add_file("evil.md", b"# evil", url=f"{foreign.base_url}/files/F1/evil.md")
    redirected = emulator.add_file(
        "bounce.md", b"# bounce", url=emulator.add_redirect("/redirect/bounce", f"{foreign.base_url}/files/F2/x")
    )
    good = sample_file(emulator, "product_roadmap.txt")
    slack.submit_view(view, upload_values([elsewhere, redirected, good]))
    [summary] = wait_post(emulator, channel, None, is_summary, what="the upload summary")
    text = summary.blocks_text()
    assert "Indexed 1 of 3" in text and "product_roadmap.txt" in text
    assert text.count("does not point at Slack") == 2
    assert foreign.calls == []  # nothing at all reached the other host, so certainly no token


def test_an_upload_waiting_for_a_free_file_reader_says_so_then_is_indexed(
    slack: SlackDriver, emulator: SlackEmulator, bot: BotServer
) -> None:
    channel = "CWAIT0001"
    slots = parse_slots(bot.settings)
    with contextlib.ExitStack() as busy:
        for _ in range(slots.slots):
            busy.enter_context(slots.hold())  # every file reader of the bot's process is taken
        view = open_modal(slack, emulator, channel)
        slack.submit_view(view, upload_values([sample_file(emulator, "remote_work_policy.html")]))
        [waiting] = emulator.wait_for(
            lambda _: [c for c in emulator.calls_to("chat.update") if "free file reader" in c.blocks_text()],
            what="the status saying the upload waits",
        )
        assert "`remote_work_policy.html` (next in line)" in waiting.blocks_text()
        assert not [c for c in emulator.posts(channel=channel) if is_summary(c)], "nothing is parsed meanwhile"
    [summary] = wait_post(emulator, channel, None, is_summary, what="the upload summary")
    assert "Indexed 1 of 1" in summary.blocks_text()


def test_files_shared_with_a_mention_are_ingested_then_the_question_answered(
    slack: SlackDriver, emulator: SlackEmulator
) -> None:
    channel = "CSHARE001"
    file = sample_file(emulator, "strategy_memo.pdf")
    stub = {"id": file["id"], "name": file["name"], "file_access": "check_file_info"}  # events may carry stubs
    event = slack.message_event(channel, f"<@{BOT_USER_ID}> What is our AI investment strategy?", files=[stub])
    assert slack.event(event).status == 200
    ts = event["ts"]
    [summary] = wait_post(emulator, channel, ts, is_summary, what="the ingest summary")
    assert "Indexed 1 of 1" in summary.blocks_text()
    assert emulator.calls_to("files.info", file=file["id"])
    [answer] = wait_post(emulator, channel, ts, is_answer, what="the answer")
    assert "strategy_memo.pdf" in answer.blocks_text()


def test_a_summary_reaches_the_uploader_when_the_bot_is_not_in_the_channel(
    slack: SlackDriver, emulator: SlackEmulator
) -> None:
    channel, user = "CNOTJOINED", "UUPLOADER"
    view = open_modal(slack, emulator, channel)
    emulator.fail("chat.postMessage", status=200, retry_after=None, error="not_in_channel")
    slack.submit_view(view, upload_values([sample_file(emulator, "headcount.csv")]), user=user)
    [summary] = wait_post(emulator, user, None, is_summary, what="the summary in a DM")
    assert "Indexed 1 of 1" in summary.blocks_text()
    [note] = [c for c in emulator.posts(channel=user) if "/invite @masis" in c.blocks_text()]
    assert channel in note.blocks_text()
    assert "headcount.csv" in slack.command(channel, "list").body  # indexed for that channel all the same


def test_slides_sheets_and_rst_pages_are_uploaded_and_answer(slack: SlackDriver, emulator: SlackEmulator) -> None:
    from tests.unit.test_office_files import deck, fleet_workbook, saved

    channel = "COFFICE01"
    view = open_modal(slack, emulator, channel)
    files = [emulator.add_file("deck.pptx", deck()), emulator.add_file("fleet.xlsx", saved(fleet_workbook())),
             emulator.add_file("routes.rst", b"Routes\n======\n\nThe :term:`Route Optimiser` launches in May.\n"),
             emulator.add_file("broken.xlsx", saved(fleet_workbook())[:2000])]
    slack.submit_view(view, upload_values(files))
    [summary] = wait_post(emulator, channel, None, is_summary, what="the upload summary")
    text = summary.blocks_text()
    assert "Indexed 3 of 4" in text and "could not open this XLSX" in text
    ts, _ = slack.mention(channel, "How many trucks does the fleet count?")
    [answer] = wait_post(emulator, channel, ts, is_answer, what="an answer from the sheet or the deck")
    assert "212" in answer.blocks_text()
