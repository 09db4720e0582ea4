"""The server key: 32 random bytes that protect what the database holds at rest
(docs/operations.md "Server key").

- **App secrets** (``app_keys.secret``) are stored sealed (``sealed-v1:<key id>:<base64>``, a
  ``nacl.secret.SecretBox``: XSalsa20-Poly1305 with a random nonce), so a copy of the database
  alone signs no player JWT.
- **API token hashes** (``accounts.token_hash``) are HMAC-SHA256 under a key derived from it, so a
  copy of the database alone cannot test guesses of a token.

The key lives in a file (``<data dir>/keys/server.key`` unless ``GAMEHALL_SERVER_KEY`` names
another), mode 0600, made on first use.  Losing it makes every sealed app secret and every API
token unusable: back it up apart from the database.  A key file that does not read as a key stops
the process; it is never replaced.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from nacl.exceptions import CryptoError
from nacl.secret import SecretBox

from services.common.datadir import PRIVATE_FILE, make_private_dir

KEY_BYTES = 32
SEALED_PREFIX = "sealed-v1:"


class ServerKeyError(Exception):
    """The server key file cannot be used, or a value was sealed with another key."""


def _derive(key: bytes, purpose: str) -> bytes:
    return hmac.new(key, f"gamehall/{purpose}/v1".encode(), hashlib.sha256).digest()


class ServerKey:
    """Seals and unseals app secrets and computes keyed API token hashes."""

    def __init__(self, key: bytes) -> None:
        if len(key) != KEY_BYTES:
            raise ServerKeyError(f"a server key is {KEY_BYTES} bytes")
        self._box = SecretBox(_derive(key, "app-secrets"))
        self._token_key = _derive(key, "api-tokens")
        # names the key in what it sealed, so a value sealed with another key says so
        self.key_id = _derive(key, "key-id")[:4].hex()

    @classmethod
    def generate(cls) -> ServerKey:
        return cls(secrets.token_bytes(KEY_BYTES))

    def seal(self, secret: str) -> str:
        sealed = base64.urlsafe_b64encode(self._box.encrypt(secret.encode())).decode().rstrip("=")
        return f"{SEALED_PREFIX}{self.key_id}:{sealed}"

    def unseal(self, stored: str) -> str:
        if not is_sealed(stored):
            raise ServerKeyError("not a sealed value")
        key_id, _, body = stored[len(SEALED_PREFIX) :].partition(":")
        if key_id != self.key_id:
            raise ServerKeyError(
                f"sealed with server key {key_id}, but this server's key is {self.key_id} "
                "(every gateway and operator command needs the same GAMEHALL_SERVER_KEY file)"
            )
        try:
            return self._box.decrypt(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))).decode()
        except (CryptoError, ValueError) as exc:
            raise ServerKeyError(f"a sealed value does not open with server key {self.key_id}") from exc

    def token_hash(self, token: str) -> str:
        """What ``accounts.token_hash`` stores of an API token: HMAC-SHA256, 64 hex digits."""
        return hmac.new(self._token_key, token.encode(), hashlib.sha256).hexdigest()


def is_sealed(stored: str | None) -> bool:
    return stored is not None and stored.startswith(SEALED_PREFIX)


def sealed_with(stored: str) -> str:
    """The id of the server key that sealed ``stored`` (a sealed value)."""
    return stored[len(SEALED_PREFIX) :].partition(":")[0]


def _read(path: Path) -> ServerKey:
    text = path.read_text().strip()
    if stat.S_IMODE(path.stat().st_mode) & 0o077:
        with contextlib.suppress(OSError):  # a read-only mount stays as it is
            os.chmod(path, PRIVATE_FILE)
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise ServerKeyError(f"the server key file {path} does not hold {KEY_BYTES} bytes as hex; restore it from a backup")
    return ServerKey(key)


def load(path: Path) -> ServerKey:
    """The key in ``path``, made there (mode 0600, its folder 0700 when made) on first use.
    Processes that start at once agree: the first file written wins."""
    path = Path(path)
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        raise ServerKeyError(f"the server key {path} is a folder, not a file") from None
    if not path.parent.is_dir():
        make_private_dir(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_bytes(KEY_BYTES).hex() + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)  # never over a key another process wrote meanwhile
        except FileExistsError:
            pass
    finally:
        tmp.unlink(missing_ok=True)
    return _read(path)
