"""The table-signing keys and the table keys a referee trusts (Ed25519, PyNaCl).

Only signed tables make ranked matches (docs/audit.md "Where a ranked match came from"), and two
services sign them, each with a key only it reads, made on first start (the hex seed, mode 0600)
with its public key written beside it (``.pub``):

- matchmaking, its ranked queues' tables: ``GAMEHALL_MATCHMAKING_KEY`` (default
  ``<data dir>/keys/matchmaking.key``); a referee trusts ``GAMEHALL_MATCHMAKING_KEYS`` (hex keys or
  files of them), by default that ``matchmaking.pub``;
- the tournaments service, a rated tournament's games: ``GAMEHALL_TOURNAMENTS_KEY`` (default
  ``<data dir>/keys/tournaments.key``); a referee trusts ``GAMEHALL_TOURNAMENT_KEYS``, by default
  that ``tournaments.pub``.

So ``gamehall up`` needs no configuration; on several machines the referees are given the public
keys.  A referee checks a table only against the keys of its signer (``TableTrust``): a
matchmaking key never stands in for a tournament key, nor the other way round.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import msgspec
import structlog
from nacl.exceptions import CryptoError
from nacl.signing import SigningKey, VerifyKey

from contracts.integration import TableFormed
from contracts.match import SignedTable
from domain.matchmaking.provenance import key_id, signed_table, signing_bytes

log = structlog.get_logger("tablekeys")

PUBLIC_SUFFIX = ".pub"
HEX_KEY_LENGTH = 64  # 32 bytes


def public_file(private: Path) -> Path:
    """Where the public key of the private key file ``private`` is written."""
    return private.with_suffix(PUBLIC_SUFFIX)


def _write(path: Path, text: str, exclusive: bool) -> None:
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if exclusive else os.O_TRUNC)
    fd = os.open(path, flags, 0o600)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def load_or_create(path: Path, signer: str = "matchmaking") -> SigningKey:
    """The signing key in ``path`` (hex seed), made on first use (mode 0600, its folder 0700);
    its public key is written beside it unless the file there already holds exactly that key."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            _write(path, bytes(SigningKey.generate()).hex() + "\n", exclusive=True)
        except FileExistsError:
            pass  # another matchmaker on the same data folder made it first: use theirs
    try:
        key = SigningKey(bytes.fromhex(path.read_text().strip()))
    except (ValueError, CryptoError) as exc:
        raise SystemExit(
            f"gamehall: {path} is not a {signer} signing key (a 64-digit hex seed): {exc}"
        ) from None
    public = bytes(key.verify_key)
    pub = public_file(path)
    try:
        written = read_key_file(pub)
    except ValueError:
        written = []
    if written != [public]:  # a file that already holds this key is left as it is (it may be mounted read-only)
        tmp = pub.with_suffix(".pub.tmp")
        _write(tmp, f"{public.hex()}  # {key_id(public, signer)}\n", exclusive=False)
        tmp.replace(pub)
    return key


class TableSigner:
    """Signs the ranked tables matchmaking forms (``signer="matchmaking"``) or the tournaments
    service announces (``signer="tournaments"``: tables with a ``tournament_id``)."""

    def __init__(self, key: SigningKey, signer: str = "matchmaking") -> None:
        self._key = key
        self.signer = signer
        self.public_key = bytes(key.verify_key)
        self.key_id = key_id(self.public_key, signer)

    @classmethod
    def from_file(cls, path: Path, signer: str = "matchmaking") -> TableSigner:
        return cls(load_or_create(path, signer), signer)

    def sign(self, table: TableFormed) -> TableFormed:
        if bool(table.tournament_id) != (self.signer == "tournaments"):
            raise ValueError(f"a {self.signer} key signs no table of {table.tournament_id or 'matchmaking'!r}")
        named = msgspec.structs.replace(table, key_id=self.key_id, signature="")
        signature = self._key.sign(signing_bytes(signed_table(named))).signature
        return msgspec.structs.replace(named, signature=signature.hex())


def parse_public_key(text: str) -> bytes:
    """A hex Ed25519 public key (64 hex digits) -> its 32 bytes; ValueError otherwise."""
    raw = bytes.fromhex(text.strip())
    if len(raw) != 32:
        raise ValueError(f"an Ed25519 public key is 32 bytes (64 hex digits), not {len(raw)}")
    return raw


def is_hex_key(entry: str) -> bool:
    entry = entry.strip()
    return len(entry) == HEX_KEY_LENGTH and all(c in "0123456789abcdefABCDEF" for c in entry)


def read_key_file(path: Path) -> list[bytes]:
    """The public keys of a key file: one hex key per line, ``#`` starts a comment.  A missing
    file holds none (matchmaking has not made its key yet)."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        return []
    keys = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        try:
            keys.append(parse_public_key(entry))
        except ValueError as exc:
            raise ValueError(f"{path}, line {number}: {exc}") from None
    return keys


class TrustedTableKeys:
    """The public keys of one signer (``matchmaking`` or ``tournaments``) a referee (or an
    auditor) trusts, by key id: hex keys given directly and key files, read again when a table
    names a key id not known yet (a signer that made its key after this process started, or a key
    added to a file) when one of them changed since they were read.  A table of another signer is
    never checked here."""

    def __init__(self, keys: Iterable[bytes] = (), files: Iterable[Path] = (), signer: str = "matchmaking") -> None:
        self.signer = signer
        self._fixed = tuple(keys)
        self._files = tuple(Path(f) for f in files)
        self._keys: dict[str, VerifyKey] = {}
        self._stamp = self._files_stamp()
        self._load()  # a bad key file stops the process at start-up

    @classmethod
    def from_entries(cls, entries: Iterable[str], signer: str = "matchmaking") -> TrustedTableKeys:
        """``GAMEHALL_MATCHMAKING_KEYS`` (``GAMEHALL_TOURNAMENT_KEYS``): each entry a hex public key
        or the path of a key file."""
        keys, files = [], []
        for entry in entries:
            entry = entry.strip()
            if is_hex_key(entry):
                keys.append(parse_public_key(entry))
            elif entry and all(c in "0123456789abcdefABCDEF" for c in entry):
                raise ValueError(f"{entry[:12]}… is not a hex Ed25519 public key (64 hex digits)")
            elif entry:
                files.append(Path(entry).expanduser())
        return cls(keys, files, signer)

    def _files_stamp(self) -> tuple[tuple[int, int] | None, ...]:
        stamps: list[tuple[int, int] | None] = []
        for path in self._files:
            try:
                st = path.stat()
            except OSError:
                stamps.append(None)
            else:
                stamps.append((st.st_mtime_ns, st.st_size))
        return tuple(stamps)

    def _load(self) -> None:
        found = list(self._fixed)
        for path in self._files:
            found.extend(read_key_file(path))
        self._keys = {key_id(k, self.signer): VerifyKey(k) for k in found}

    @property
    def key_ids(self) -> tuple[str, ...]:
        return tuple(sorted(self._keys))

    def public_keys(self) -> dict[str, str]:
        """key id -> hex public key."""
        return {kid: bytes(vk).hex() for kid, vk in sorted(self._keys.items())}

    def _key(self, kid: str) -> VerifyKey | None:
        key = self._keys.get(kid)
        if key is None and self._files:
            stamp = self._files_stamp()
            if stamp != self._stamp:
                self._stamp = stamp
                try:
                    self._load()
                except (OSError, ValueError) as exc:  # keeps the keys it had
                    log.error("table_keys_unreadable", signer=self.signer, error=str(exc))
                key = self._keys.get(kid)
        return key

    def check(self, table: SignedTable) -> str | None:
        """None when the table's signature verifies under a trusted key, else what is wrong."""
        if table.signer != self.signer:
            return f"a {table.signer} table is not checked with {self.signer} keys"
        key = self._key(table.key_id)
        if key is None:
            known = ", ".join(self.key_ids) or "none"
            return f"key {table.key_id!r} is not among the {self.signer} keys trusted here ({known})"
        try:
            key.verify(signing_bytes(table), bytes.fromhex(table.signature))
        except (CryptoError, ValueError):
            return f"the signature does not verify with {self.signer} key {table.key_id}"
        return None


class TableTrust:
    """The table keys a referee (or an auditor) trusts, per signer: a table is checked only
    against the keys of the signer it names (``SignedTable.signer``).  One public key trusted for
    both signers is refused at start (each signer has a key of its own)."""

    def __init__(self, matchmaking: TrustedTableKeys, tournaments: TrustedTableKeys | None = None) -> None:
        self.by_signer = {"matchmaking": matchmaking, "tournaments": tournaments or TrustedTableKeys(signer="tournaments")}
        for signer, keys in self.by_signer.items():
            if keys.signer != signer:
                raise ValueError(f"the {signer} keys are given as {keys.signer} keys")
        mm = set(matchmaking.public_keys().values())
        both = mm & set(self.by_signer["tournaments"].public_keys().values())
        if both:
            raise ValueError(
                f"public key {sorted(both)[0][:16]}… is trusted both as a matchmaking and as a tournaments "
                "key: each signs with a key of its own (GAMEHALL_MATCHMAKING_KEYS, GAMEHALL_TOURNAMENT_KEYS)"
            )

    @classmethod
    def from_entries(cls, matchmaking: Iterable[str], tournaments: Iterable[str] = ()) -> TableTrust:
        return cls(
            TrustedTableKeys.from_entries(matchmaking, "matchmaking"),
            TrustedTableKeys.from_entries(tournaments, "tournaments"),
        )

    @property
    def key_ids(self) -> tuple[str, ...]:
        return tuple(kid for keys in self.by_signer.values() for kid in keys.key_ids)

    def check(self, table: SignedTable) -> str | None:
        keys = self.by_signer.get(table.signer)
        if keys is None:
            return f"no table keys are trusted for signer {table.signer!r}"
        return keys.check(table)
