"""A throwaway PostgreSQL server for the tests, and fresh empty databases on it."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

BINARIES = ("initdb", "pg_ctl", "postgres")
DEBIAN_ROOT = Path("/usr/lib/postgresql")  # Debian's packages keep the server binaries in <version>/bin here
RAM_DIR = Path("/dev/shm")
RAM_DIR_MIN_FREE = 512 * 2**20  # a cluster takes 40 MB and each live test database 3 MB; Docker's default is 64 MB
SUPERUSER = "gm"
# Durability off (the cluster is thrown away), room for the tests' pools, and no TCP: only the socket in the temp dir.
SETTINGS = {
    "listen_addresses": "''",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
}


@dataclass(frozen=True)
class Server:
    """A PostgreSQL server on which the tests may create and drop databases; `url` is a database to do it from."""

    url: str

    def database_url(self, name: str) -> str:
        """The URL of the database `name` on this server."""
        return urlsplit(self.url)._replace(path=f"/{name}").geturl()


def _version(bindir: Path) -> tuple[int, ...]:
    """The version a Debian binary directory is for, e.g. (15,) for /usr/lib/postgresql/15/bin."""
    return tuple(int(part) for part in bindir.parent.name.split(".") if part.isdigit())


def find_binaries() -> Path | None:
    """The directory of PostgreSQL's server binaries: the one on PATH, else Debian's newest; None when there is none."""
    on_path = shutil.which("initdb")
    candidates = [Path(on_path).resolve().parent] if on_path else []
    candidates += sorted(DEBIAN_ROOT.glob("*/bin"), key=_version, reverse=True)
    return next((bindir for bindir in candidates if all((bindir / name).is_file() for name in BINARIES)), None)


def _run(args: list[str], account: pwd.struct_passwd | None, cwd: Path, log: Path | None = None) -> None:
    """Run a server tool, as `account` if given (the tools refuse root); on failure raise with its output and `log`."""
    as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []} if account else {}
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False, **as_user)
    if done.returncode:
        logged = log.read_text() if log and log.exists() else ""
        raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{logged}")


def _server_account() -> pwd.struct_passwd | None:
    """The unprivileged account to run the server as when we are root (Debian's `postgres`, else `nobody`)."""
    if os.geteuid():
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        return pwd.getpwnam("nobody")


def _scratch_root() -> Path | None:
    """Where to put the cluster: RAM when there is room (on disk initdb and CREATE DATABASE can be 10x slower)."""
    if RAM_DIR.is_dir() and os.access(RAM_DIR, os.W_OK) and shutil.disk_usage(RAM_DIR).free >= RAM_DIR_MIN_FREE:
        return RAM_DIR
    return None  # the system temp dir


@contextmanager
def start_server() -> Iterator[Server | None]:
    """`TEST_DATABASE_URL`'s server, else a throwaway local one stopped and deleted on exit; None if neither exists."""
    if url := os.environ.get("TEST_DATABASE_URL"):
        yield Server(url)
        return
    bindir = find_binaries()
    if bindir is None:
        yield None
        return
    # Traversable by the server's account, and short: a Unix socket's path holds at most 107 bytes.
    home = Path(tempfile.mkdtemp(prefix="gm-pg-", dir=_scratch_root()))
    data, log = home / "data", home / "log"
    try:
        account = _server_account()
        if account:
            os.chown(home, account.pw_uid, account.pw_gid)
        initdb = [str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8"]
        _run([*initdb, "--no-locale", "--no-sync", "--no-instructions"], account, home)
        settings = {**SETTINGS, "unix_socket_directories": str(home)}
        options = " ".join(f"-c {name}={value}" for name, value in settings.items())
        pg_ctl = [str(bindir / "pg_ctl"), "-D", str(data)]
        try:
            _run([*pg_ctl, "-w", "-l", str(log), "-o", options, "start"], account, home, log)
            yield Server(f"postgresql://{SUPERUSER}@/postgres?host={home}")
        finally:
            if (data / "postmaster.pid").exists():  # also after a failed or timed-out start
                _run([*pg_ctl, "-w", "-m", "immediate", "stop"], account, home)
    finally:
        shutil.rmtree(home)


async def _execute(url: str, sql: str) -> None:
    """Run one statement on a connection of its own."""
    import asyncpg  # here, not at the top: the import takes 0.1 s that sessions without PostgreSQL tests needn't pay

    connection = await asyncpg.connect(url)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@asynccontextmanager
async def fresh_database(server: Server) -> AsyncIterator[str]:
    """Create an empty database on `server`, yield its URL, and drop it afterwards (with any connections left open)."""
    name = f"test_{uuid.uuid4().hex}"  # unique even on a server that other test runs share
    await _execute(server.url, f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        yield server.database_url(name)
    finally:
        await _execute(server.url, f'DROP DATABASE "{name}" WITH (FORCE)')
