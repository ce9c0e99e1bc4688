"""What a Slack user reads when something fails: a database outage says so plainly, without the operator's
details (host, port) that its message carries for the logs."""

from __future__ import annotations

from bot.friendly import DATABASE_DOWN, user_message
from masis.errors import DatabaseUnavailableError, MasisError


def test_a_database_outage_reads_as_one_plain_sentence_without_the_servers_address() -> None:
    exc = DatabaseUnavailableError("The database (MASIS_DATABASE_URL) is unavailable right now (connection to "
                                   "server at \"10.0.3.7\", port 5432 failed); try again in a minute.")
    text = user_message(exc)
    assert text == DATABASE_DOWN and "database" in text and "try again in a minute" in text
    assert "10.0.3.7" not in text and "5432" not in text
    assert user_message(MasisError("No document named 'x'.")) == "No document named 'x'."
