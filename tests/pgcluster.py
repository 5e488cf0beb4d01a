"""A throwaway PostgreSQL cluster for the tests and the benchmark.

``Cluster.start()`` runs ``initdb`` in a fresh temporary folder and ``pg_ctl start`` on a Unix
socket in it (no TCP port, so parallel runs and pytest-xdist's workers, one cluster each, never
collide; fsync off: nothing here must survive a power cut, unless ``durable``); ``stop()`` stops it
and removes the folder. A guard process stops it too when the process that started it ends without
``stop()`` (killed, ``os._exit`` after a timeout, a crashed xdist worker): the server never outlives
the run. As root the server runs as the ``postgres`` user (PostgreSQL refuses root).
``BANMEN_TEST_POSTGRES=postgresql://...`` uses a server you run instead (its role must be allowed to
create schemas).

Debian's ``postgresql`` package provides the programs; ``make test`` installs it when it is
missing (``scripts/install-postgres.sh``). Without them the tests fail and say what to install:
no store test is skipped.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg

USER = "banmen"
DATABASE = "banmen_test"
PORT = 5433
MISSING = (
    "PostgreSQL's programs (initdb, pg_ctl) are not installed: run `make test` as root (it "
    "installs Debian's postgresql package), or `apt-get install postgresql`, or point "
    "BANMEN_TEST_POSTGRES at a server"
)


GUARD = """root=$1; shift
read -r _ || true
"$@" >/dev/null 2>&1
rm -rf "$root"
"""
"""The guard (``sh -c``): its stdin is a pipe nobody writes to, whose one writing end the process
that started the cluster holds, so ``read`` returns when that process ends, however it ends; then
``pg_ctl stop`` (its arguments) and the folder goes. In a session of its own, so the signal that
ends a run (Ctrl-C, a CI timeout's SIGTERM to the process group) does not end the guard too."""


def bindir() -> Path:
    """Where ``initdb`` and ``pg_ctl`` are (on PATH, else Debian's versioned folder)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3])
    )
    if not versions:
        raise RuntimeError(MISSING)
    return versions[-1].parent


class Cluster:
    """One temporary PostgreSQL server; :attr:`url` reaches its test database."""

    def __init__(self, *, durable: bool = False, port: int = PORT) -> None:
        self.durable = durable
        """fsync and synchronous commits on (the benchmark: an acknowledged move is on disk)."""
        self.port = port
        self.root: Path | None = None
        self.url = os.environ.get("BANMEN_TEST_POSTGRES", "").strip()
        self.external = bool(self.url)
        self._schemas = itertools.count(1)
        self._guard: subprocess.Popen[bytes] | None = None

    def _command(self, *args: str) -> list[str]:
        command = [str(bindir() / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        return command

    def _run(self, *args: str) -> None:
        subprocess.run(self._command(*args), check=True, capture_output=True, timeout=120)

    def start(self) -> str:
        """Start the server (once) and create the test database; returns its URL."""
        if self.url:
            return self.url
        root = Path(tempfile.mkdtemp(prefix="banmen-pg-"))
        self.root = root
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError as exc:
                raise RuntimeError(MISSING + " (there is no postgres user to run it)") from exc
            os.chown(root, pw.pw_uid, pw.pw_gid)
        data = root / "data"
        self._guard = subprocess.Popen(
            ["sh", "-c", GUARD, "banmen-pg-guard", str(root),
             *self._command("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        try:
            self._run(
                "initdb",
                "-D",
                str(data),
                "-U",
                USER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            )
            options = f"-k {root} -p {self.port} -c listen_addresses='' -c max_connections=200"
            options += (
                " -c track_commit_timestamp=on"  # when each move was committed (a test's figures)
            )
            if not self.durable:
                options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            self._run(
                "pg_ctl",
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(root / "log"),
                "-w",
                "-t",
                "60",
                "start",
            )
        except subprocess.CalledProcessError as exc:
            log = (root / "log").read_text(errors="replace") if (root / "log").exists() else ""
            self.stop()
            raise RuntimeError(
                f"the test PostgreSQL did not start: {exc.stderr.decode(errors='replace')}{log}"
            ) from exc
        atexit.register(self.stop)  # also when the run ends without the fixture's teardown
        admin = f"postgresql://{USER}@/postgres?host={quote(str(root))}&port={self.port}"
        with psycopg.connect(admin, autocommit=True) as con:
            con.execute(f"CREATE DATABASE {DATABASE}")
        self.url = f"postgresql://{USER}@/{DATABASE}?host={quote(str(root))}&port={self.port}"
        return self.url

    def stop(self) -> None:
        """Stop the server and remove its folder (safe to call twice), then end the guard."""
        root, self.root = self.root, None
        guard, self._guard = self._guard, None
        if root is not None:
            with contextlib.suppress(subprocess.SubprocessError, OSError, RuntimeError):
                if (root / "data" / "postmaster.pid").exists():
                    self._run("pg_ctl", "-D", str(root / "data"), "-m", "immediate", "-w", "stop")
            shutil.rmtree(root, ignore_errors=True)
        if guard is not None:
            guard.kill()  # still blocked in ``read``: nothing left for it to do
            guard.wait()
            if guard.stdin is not None:
                guard.stdin.close()

    @contextlib.contextmanager
    def schema(self) -> Iterator[str]:
        """A URL whose tables live in a fresh, empty schema (dropped afterwards)."""
        base = self.start()
        name = f"t{os.getpid()}_{next(self._schemas)}"
        with psycopg.connect(base, autocommit=True) as con:
            con.execute(f"CREATE SCHEMA {name}")
        sep = "&" if "?" in base else "?"
        try:
            yield f"{base}{sep}options={quote(f'-csearch_path={name}')}"
        finally:
            with psycopg.connect(base, autocommit=True) as con:
                con.execute(f"DROP SCHEMA {name} CASCADE")
