"""The action ids, callback ids and button values the listeners match on."""

from __future__ import annotations

import json
import re

ACTION_FEEDBACK = "answer_feedback"  # Slack's native feedback_buttons: the vote is in the value
ACTION_FEEDBACK_UP = "feedback_up"  # the 👍 / 👎 buttons of answers posted before (still clickable)
ACTION_FEEDBACK_DOWN = "feedback_down"
ACTION_WHY = "why_answer"
ACTION_ACCEPT = "clarify_accept"
ACTION_CANCEL = "clarify_cancel"
ACTION_SOURCE_PREFIX = "clarify_source_"
ACTION_SOURCE = re.compile(rf"^{ACTION_SOURCE_PREFIX}\d+$")
ACTION_ABOUT_PREFIX = "clarify_about_"  # "which one do you mean?": one button per candidate
ACTION_ABOUT = re.compile(rf"^{ACTION_ABOUT_PREFIX}\d+$")
UPLOAD_CALLBACK = "masis_upload"
UPLOAD_FILES_BLOCK, UPLOAD_FILES_ACTION = "files", "files"
UPLOAD_TEXT_BLOCK, UPLOAD_TEXT_ACTION = "paste", "text"
UPLOAD_NAME_BLOCK, UPLOAD_NAME_ACTION = "paste_name", "name"


def choice_value(thread_id: str, choice: str) -> str:
    return json.dumps({"thread": thread_id, "choice": choice}, separators=(",", ":"))


def parse_choice_value(value: str) -> tuple[str, str]:
    data = json.loads(value)
    return str(data["thread"]), str(data["choice"])
