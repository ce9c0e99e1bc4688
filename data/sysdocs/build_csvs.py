"""Build the CSV table(s) of data/sysdocs/files/ from files of the same folder (cells verbatim, trimmed).

    python data/sysdocs/build_csvs.py

Stdlib only.
"""

import csv
import re
from pathlib import Path

FILES = Path(__file__).resolve().parent / "files"

# An option entry of a rendered systemd man page: a line indented by 7 spaces holding only settings
# ("Accept=" or "SocketUser=, SocketGroup="), followed by its description indented further.
_OPTION_HEADER = re.compile(r"^ {7}([A-Z][A-Za-z0-9]*=(?:, [A-Z][A-Za-z0-9]*=)*)\s*$")
# A sentence that states a default, and how to take the value out of it (first match wins).
_DEFAULT_SENTENCE = re.compile(
    r"Defaults? to |Defaults value is |By default this is set to |Disabled by default|\((?:which is )?the default|defaults to "
)
_DEFAULT_VALUE = [
    re.compile(r"^Defaults to (.+?)\.?$"),
    re.compile(r"^Defaults value is (.+?)\.?$"),
    re.compile(r"^By default this is set to (\d+)"),
    re.compile(r"^If (\S+) \((?:which is )?the default"),
    re.compile(r"^It defaults to (.+?)\.?$"),
    re.compile(r"\bdefaults to (.+?)\.?$"),
]


def _sentences(text: str) -> list[str]:
    text = " ".join(text.split())
    return re.split(r"(?<=\.)\s+(?=[A-Z])|(?<=\.\))\s+(?=[A-Z])", text)


def _default_of(option: str, names: list[str], sentences: list[str]) -> tuple[str, str]:
    """(value, sentence as written) of the default the description states for `option`; ("", "") if none."""
    for sentence in sentences:
        if not _DEFAULT_SENTENCE.search(sentence) or "typically defaults" in sentence:
            continue
        # a sentence naming one setting of a shared entry ("The TriggerLimitBurst= setting ...") is that one's
        named = [n for n in names if sentence.startswith(f"The {n} ")]
        if named and option not in named:
            continue
        if sentence.startswith("Disabled by default"):
            return "disabled", sentence
        for pattern in _DEFAULT_VALUE:
            m = pattern.search(sentence)
            if m:  # without a trailing "(see ...)" reference
                return re.sub(r"\s*\([Ss]ee .*\)$", "", m.group(1)), sentence
    return "", ""


def systemd_socket_defaults() -> None:
    """The OPTIONS section of systemd-systemd.socket.5.txt (systemd.socket(5) rendered to text): one row per
    [Socket] setting, with the default its description states (empty when it states none)."""
    text = (FILES / "systemd-systemd.socket.5.txt").read_text(encoding="utf-8")
    start = text.index("\nOPTIONS\n")
    end = text.index("\nSEE ALSO\n", start)
    lines = text[start:end].splitlines()
    entries: list[tuple[list[str], list[str]]] = []
    for line in lines:
        m = _OPTION_HEADER.match(line)
        if m:
            entries.append((m.group(1).split(", "), []))
        elif entries and (line.startswith(" " * 8) or not line.strip()):
            entries[-1][1].append(line)
        elif entries:  # back at the 7-space margin: the closing "Check systemd.unit(5) ..." line
            break
    rows = [["Option", "Default", "Stated as"]]
    for names, body in entries:
        sentences = _sentences("\n".join(body))
        for name in names:
            value, sentence = _default_of(name, names, sentences)
            rows.append([name, value, sentence])
    with open(FILES / "systemd-socket-defaults.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    systemd_socket_defaults()
