"""The app's lifecycle events over HTTP: uninstalled, tokens revoked, events rate-limited.

Each is acknowledged and handled (not refused by Bolt); after an uninstall or a bot-token revocation the
team's requests start no work, while other teams go on. Decisions are awaited through their log lines,
never by sleeping.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest

from tests.e2e.conftest import MAIN_CHANNEL, BotServer
from tests.e2e.helpers import is_answer, wait_post
from tests.e2e.slack_driver import APP_ID, SlackDriver
from tests.e2e.slack_emulator import BOT_USER_ID, SlackEmulator


def envelope(team: str, event: dict[str, Any], event_id: str) -> str:
    return json.dumps({
        "token": "legacy", "team_id": team, "api_app_id": APP_ID, "type": "event_callback",
        "event_id": event_id, "event_time": int(time.time()), "event": event,
    })


def wait_log(caplog: pytest.LogCaptureFixture, emu: SlackEmulator, text: str) -> None:
    emu.wait_for(lambda _: any(text in r.getMessage() for r in caplog.records), what=f"the log line {text!r}")


def test_an_uninstall_stops_that_teams_work_and_keeps_the_others(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    gone = "TGONE0001"
    sent = slack.post(envelope(gone, {"type": "app_uninstalled"}, "EvUNINSTALL1"), "application/json")
    assert sent.status == 200
    wait_log(caplog, emulator, f"the app was uninstalled for team {gone}")

    mention = slack.message_event("CGONE0001", f"<@{BOT_USER_ID}> What is our AI investment strategy?",
                                  kind="app_mention")
    mention["team"] = gone
    assert slack.post(envelope(gone, mention, "EvGONEMENTION"), "application/json").status == 200
    wait_log(caplog, emulator, f"from team {gone}: the app no longer works there")
    assert not emulator.posts(channel="CGONE0001")
    assert bot.deps.jobs.is_stopped(gone)

    ts, _ = slack.mention(MAIN_CHANNEL, "What is our AI investment strategy?")  # another team: unaffected
    wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="an answer in the team still installed")
    assert not [r for r in caplog.records if "refused by Bolt" in r.getMessage()]


def test_a_revoked_bot_token_stops_the_team_but_revoked_user_tokens_do_not(
        bot: BotServer, slack: SlackDriver, emulator: SlackEmulator, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    users_only = {"type": "tokens_revoked", "tokens": {"oauth": ["USOMEONE"], "bot": []}}
    assert slack.post(envelope("TUSERS001", users_only, "EvREVOKE1"), "application/json").status == 200
    wait_log(caplog, emulator, "user tokens were revoked in team TUSERS001")
    assert not bot.deps.jobs.is_stopped("TUSERS001")

    bot_revoked = {"type": "tokens_revoked", "tokens": {"oauth": [], "bot": [BOT_USER_ID]}}
    assert slack.post(envelope("TREVOKED1", bot_revoked, "EvREVOKE2"), "application/json").status == 200
    wait_log(caplog, emulator, "the bot token was revoked for team TREVOKED1")
    assert bot.deps.jobs.is_stopped("TREVOKED1")
    assert not [r for r in caplog.records if "refused by Bolt" in r.getMessage()]


def test_app_rate_limited_is_acknowledged_and_logged(slack: SlackDriver, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    notice = {"token": "legacy", "type": "app_rate_limited", "team_id": "T0001",
              "minute_rate_limited": 1518467820, "api_app_id": APP_ID}
    sent = slack.post(json.dumps(notice), "application/json")
    assert sent.status == 200  # answered synchronously (not an event_callback)
    assert any("rate-limiting this app's events for team T0001" in r.getMessage() for r in caplog.records)
