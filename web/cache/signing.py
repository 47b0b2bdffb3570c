"""Authenticate cache entries: a stored result is used only if this app wrote it.

Whoever can write to the cache folder or the Redis could otherwise plant a
well-formed entry with a losing move, and no schema check can tell it from a
real one (re-searching to check it would cost the search the cache saves).
So every entry carries an HMAC-SHA256 of its key and its canonical JSON, made
with a secret that every worker and instance shares:

- ``CACHE_SECRET`` when it is set; with Redis it must be (web/config.py): a
  secret kept in the same Redis would sign entries for whoever can write
  there.  Rotating it turns every stored entry into one that fails its check:
  each is ignored, searched again and stored under the new secret;
- else, for the file-system cache, a random secret in a 0600 file beside the
  entries (it keeps out corruption and other programs' entries: whoever can
  write the folder can read the file anyway).  The file is written whole or
  not at all: into a temporary file, synced, then renamed into place, by one
  process at a time (a file lock), so every worker reads the same secret.  A
  write that fails (a full disk) leaves no file, and the next request tries
  again: the cache stores again once there is room, without a restart.  A file
  that holds no whole secret (empty or short: what a full disk left behind in
  earlier versions, whose first write went straight into the file) counts as
  absent and is replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path

from web.cache.locks import FileLock, LockUnavailable

MAC_FIELD = "mac"
SECRET_BYTES = 32  # written as 64 hex digits
SHORTEST_SECRET = 32  # characters of a file's secret; fewer is a damaged file
# How long a process waits for another one writing the secret file (a write and an fsync),
# polling, before it goes on without the cache this once.
WRITER_WAIT = 1.0
POLL_FIRST = 0.002
POLL_MAX = 0.025


class SecretUnavailable(Exception):
    """The shared secret could not be read (its store is failing)."""


class BadSignature(ValueError):
    """An entry's MAC is missing or does not match."""


class Signer:
    """Sign and check entries with a secret fetched once, when first needed."""

    def __init__(self, fetch_secret: Callable[[], bytes]) -> None:
        self._fetch_secret = fetch_secret
        self._secret: bytes | None = None

    def sign(self, key: str, entry: dict[str, object]) -> dict[str, object]:
        """The entry with its MAC added; raises ``SecretUnavailable``."""
        return {**entry, MAC_FIELD: self._mac(key, entry)}

    def check(self, key: str, stored: object) -> dict[str, object]:
        """The entry without its MAC if the MAC is right, else ``BadSignature``.

        Raises ``SecretUnavailable`` when the secret cannot be had.
        """
        if not isinstance(stored, dict) or not isinstance(stored.get(MAC_FIELD), str):
            raise BadSignature("the entry is not signed")
        entry = {name: value for name, value in stored.items() if name != MAC_FIELD}
        if hmac.compare_digest(stored[MAC_FIELD], self._mac(key, entry)):
            return entry
        raise BadSignature("the entry's signature does not match")

    def secret(self) -> bytes:
        """The secret, fetched the first time it is had (a failure is not kept: the next
        call tries again); raises ``SecretUnavailable``."""
        if self._secret is None:
            self._secret = self._fetch_secret()
        return self._secret

    def _mac(self, key: str, entry: dict[str, object]) -> str:
        message = key.encode() + b"\n" + json.dumps(entry, sort_keys=True, separators=(",", ":")).encode()
        return hmac.new(self.secret(), message, hashlib.sha256).hexdigest()


def fixed_secret(secret: str) -> Callable[[], bytes]:
    """A secret given in the settings."""
    return lambda: secret.encode()


def file_secret(path: Path, lock_path: Path) -> Callable[[], bytes]:
    """A secret kept in the private file ``path``: read when it holds one, else made and
    written whole by whoever holds the file lock ``lock_path`` (every worker shares it).

    The fetch raises ``SecretUnavailable`` when the file can be neither read nor
    written (the folder failing, a full disk), or another process held the lock
    for all of ``WRITER_WAIT``.
    """

    def fetch() -> bytes:
        secret = read_secret(path)
        if secret is not None:
            return secret
        writer = FileLock(lock_path)  # one per fetch: a FileLock holds its open file
        take(writer, WRITER_WAIT)
        try:
            secret = read_secret(path)  # written while we waited for the lock
            if secret is None:
                secret = secrets.token_hex(SECRET_BYTES).encode()
                write_whole(path, secret)
        finally:
            writer.release()
        return secret

    return fetch


def read_secret(path: Path) -> bytes | None:
    """The secret in ``path``, or None when there is none or no whole one (empty, short,
    not printable ASCII: a damaged file, to be replaced); raises ``SecretUnavailable``."""
    try:
        text = path.read_bytes().strip()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SecretUnavailable(f"cannot read the signing secret file: {error.strerror}") from error
    whole = len(text) >= SHORTEST_SECRET and text.isascii() and text.decode().isprintable()
    return text if whole else None


def write_whole(path: Path, data: bytes) -> None:
    """Put ``data`` in ``path`` (0600) whole or not at all: a temporary file beside it,
    written and synced, then renamed over it.  Raises ``SecretUnavailable``, leaving
    ``path`` as it was and no temporary file behind."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise SecretUnavailable(f"cannot write the signing secret file: {error.strerror}") from error
    # The rename is durable once the folder is synced; where that cannot be done, it is still made.
    with contextlib.suppress(OSError):
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def take(lock: FileLock, wait: float) -> None:
    """Take ``lock``, polling for up to ``wait`` seconds; raises ``SecretUnavailable``."""
    give_up = time.monotonic() + wait
    delay = POLL_FIRST
    try:
        while not lock.try_acquire():
            if time.monotonic() >= give_up:
                raise SecretUnavailable("another worker is writing the signing secret")
            time.sleep(delay)  # another process writes the file: a few milliseconds
            delay = min(delay * 2, POLL_MAX)
    except LockUnavailable as error:
        raise SecretUnavailable(f"cannot lock the signing secret: {error}") from error
