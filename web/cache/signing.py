"""Authenticate cache entries: a stored result is used only if this app wrote it.

Whoever can write to the cache folder or the Redis could otherwise plant a
well-formed entry with a losing move, and no schema check can tell it from a
real one (re-searching to check it would cost the search the cache saves).
So every entry carries an HMAC-SHA256 of its key and its canonical JSON, made
with a secret that every worker and instance shares:

- ``CACHE_SECRET`` when it is set; with Redis it must be (web/operations/config.py): a
  secret kept in the same Redis would sign entries for whoever can write
  there.  Rotating it turns every stored entry into one that fails its check:
  each is ignored, searched again and stored under the new secret;
- else, for the file-system cache, a random secret in a 0600 file beside the
  entries (it keeps out corruption and other programs' entries: whoever can
  write the folder can read the file anyway).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path

MAC_FIELD = "mac"


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

    def _mac(self, key: str, entry: dict[str, object]) -> str:
        if self._secret is None:
            self._secret = self._fetch_secret()
        message = key.encode() + b"\n" + json.dumps(entry, sort_keys=True, separators=(",", ":")).encode()
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()


def fixed_secret(secret: str) -> Callable[[], bytes]:
    """A secret given in the settings."""
    return lambda: secret.encode()


def file_secret(path: Path) -> Callable[[], bytes]:
    """A secret kept in a private file, created (0600, exclusively) by whoever comes first."""

    def fetch() -> bytes:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        except OSError as error:
            raise SecretUnavailable(f"cannot create {path.name}: {error.strerror}") from error
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32))
        try:
            secret = path.read_text().strip()
        except OSError as error:
            raise SecretUnavailable(f"cannot read {path.name}: {error.strerror}") from error
        if len(secret) < 32:  # a reader raced the writer's first bytes, or the file is damaged
            raise SecretUnavailable(f"{path.name} is too short to be a secret")
        return secret.encode()

    return fetch
