"""A real PostgreSQL 15 for the tests: the Debian binaries, a throw-away cluster in a temporary directory,
listening on a free 127.0.0.1 port; a fresh database per test.

`initdb` refuses to run as root, so when the tests run as root the cluster belongs to the `postgres`
user (`runuser -u postgres --`)."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PG_BIN = Path(os.environ.get("MASIS_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))


def missing_reason() -> str | None:
    """Why PostgreSQL tests cannot run here, or None when they can."""
    if not (PG_BIN / "initdb").exists() or not (PG_BIN / "pg_ctl").exists():
        return f"PostgreSQL binaries not found in {PG_BIN} (apt-get install postgresql-15, or set MASIS_TEST_PG_BIN)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no `postgres` user to own the test cluster"
        if shutil.which("runuser") is None:
            return "running as root without `runuser` to start PostgreSQL as the `postgres` user"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="masis-pg-"))
        self.port = _free_port()
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self.data = self.root / "data"
        self.user = "postgres" if self._as_postgres else pwd.getpwuid(os.geteuid()).pw_name
        self.halted = False

    def _run(self, *args: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self._as_postgres else []
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", self.user,
                  "--no-sync", "-E", "UTF8", "--locale=C")
        self.resume()

    def restart(self) -> None:
        """`pg_ctl restart`: every connection is cut, the server is back at once on the same port. (`-l` again:
        without it the new server would write to, and hold open, this process's pipe.)"""
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"), "-m", "fast", "-w",
                  "-t", "60", "restart")

    def halt(self) -> None:
        """Stop the server, keeping its data (`resume` starts it again): an outage."""
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.halted = True

    def resume(self) -> None:
        """Start the server (again, after `halt`): same port, same data."""
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.root} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"), "-o", options,
                  "-w", "-t", "60", "start")
        self.halted = False

    def ensure_running(self) -> None:
        if self.halted:
            self.resume()

    def stop(self) -> None:
        try:
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new, empty database; its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
