"""`python -m bot`: Socket Mode when SLACK_APP_TOKEN is set, else an HTTP server on PORT where Slack
POSTs events, slash commands and interactivity to /slack/events."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from bot.server import serve
from masis.config import Settings
from masis.redact import redact, redact_logs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"),
                        help="address to listen on (env HOST; default 0.0.0.0)")
    parser.add_argument("--port", type=int, default=None, help="port (env PORT; default 3000)")
    parser.add_argument("--log-level", default=os.environ.get("LOG_LEVEL", "info"),
                        choices=["debug", "info", "warning", "error"])
    args = parser.parse_args(argv if argv is not None else [])  # `masis serve` calls main() with no argv
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # Bolt reads SLACK_BOT_TOKEN itself and warns that the client we give it (the one with SLACK_API_URL
    # and the retry handlers) takes precedence: that is intended.
    logging.getLogger("slack_bolt.App").addFilter(lambda r: "`token` will be unused" not in r.getMessage())
    redact_logs()
    try:
        settings = Settings()
    except Exception as exc:  # pydantic's message names the bad variable
        print(f"masis bot: invalid configuration: {redact(str(exc))}", file=sys.stderr)
        return 2
    return serve(settings, host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
