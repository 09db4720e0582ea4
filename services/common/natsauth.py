"""NATS accounts and users per service (issue 9, finding 6).

Layout (the embedded nats-server of ``gamehall up`` and tests; ``deploy/nats/`` documents the
same for a real cluster):

- account ``APP`` (JetStream): the match log (``GH_MATCHES``), integration events
  (``GH_INTEGRATION``), match certificates (``GH_CERTIFICATES``) and disputes (``GH_DISPUTES``).  One user per service: ``referee``, ``gateway``, ``bots``, ``scoring``,
  ``leaderboard``, ``matchmaking`` and ``cli`` (operator commands).  Every user but ``referee``
  may not publish or subscribe on ``secret.>``, may not touch a ``GH_SECRETS`` stream through
  the JetStream API, may not append to ``match.>`` or sign on ``certificate.>`` and may not serve ``cmd.>`` (pose as a
  referee).  Only ``gateway`` and ``cli`` (operator commands) may append to ``dispute.>``: the
  other restricted users are also denied publishing there (:data:`DISPUTE_WRITERS`).
  The matchmaking queue (key-value bucket ``GH_TICKETS``) is written by
  ``matchmaking`` alone: every other restricted user may read it but not write, and nobody
  restricted may delete or purge it.
- account ``SECRETS`` (JetStream): ``GH_SECRETS``, the server seeds of card matches.  Its only
  user, ``referee-secrets``, is the referee's second connection.  No other account imports it.

The credentials are generated once into a folder (mode 0700, each file 0600) and read by each
service from ``GAMEHALL_NATS_CREDENTIALS`` (that folder).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from contracts import subjects

APP_ACCOUNT = "APP"
SECRETS_ACCOUNT = "SECRETS"
REFEREE = "referee"
REFEREE_SECRETS = "referee-secrets"
SERVICE_USERS = (REFEREE, "gateway", "bots", "scoring", "leaderboard", "matchmaking", "cli")
ALL_USERS = (*SERVICE_USERS, REFEREE_SECRETS)

_S = subjects.SECRET_STREAM
_Q = subjects.kv_stream(subjects.TICKETS_BUCKET)
# What a service other than the referee may never do in the APP account.
DENY_PUBLISH = (
    subjects.SECRET_SUBJECTS,
    subjects.MATCH_SUBJECTS,
    subjects.CERTIFICATE_SUBJECTS,
    f"$JS.API.*.*.{_S}",
    f"$JS.API.*.*.{_S}.>",
    f"$JS.API.*.*.*.{_S}",
    f"$JS.API.*.*.*.{_S}.>",
    f"$JS.API.STREAM.DELETE.{_Q}",
    f"$JS.API.STREAM.PURGE.{_Q}",
    f"$JS.API.STREAM.MSG.DELETE.{_Q}",
)
# The matchmaking queue is written only by the matchmakers (revision-checked entries).
QUEUE_WRITER = "matchmaking"
DENY_QUEUE_WRITE = (f"$KV.{subjects.TICKETS_BUCKET}.>",)
DENY_SUBSCRIBE = (subjects.SECRET_SUBJECTS, "cmd.>")
# Who may append dispute events (a player's or operator's request, checked by the gateway or the
# operator command); every other restricted user is denied ``dispute.>`` as well.
DISPUTE_WRITERS = ("gateway", "cli")
DENY_PUBLISH_READERS = (*DENY_PUBLISH, subjects.DISPUTE_SUBJECTS)




@dataclass(frozen=True)
class Credential:
    user: str
    password: str


def credentials_dir(data_dir: Path) -> Path:
    return Path(data_dir) / "credentials" / "nats"


def write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
    os.chmod(path, 0o600)


def ensure_credentials(folder: Path) -> dict[str, Credential]:
    """Each user's credential, generated on first use (kept across restarts)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    out = {}
    for user in ALL_USERS:
        path = folder / f"{user}.json"
        if not path.exists():
            write_private(path, json.dumps({"user": user, "password": secrets.token_urlsafe(32)}))
        out[user] = load_credential(path)
    return out


def load_credential(path: Path) -> Credential:
    raw = json.loads(Path(path).read_text())
    return Credential(user=str(raw["user"]), password=str(raw["password"]))


def credential_for(folder: Path | None, user: str) -> Credential | None:
    """The credential of ``user`` from a credentials folder; None without a folder (an open
    nats-server, e.g. the one the tests share)."""
    if folder is None:
        return None
    path = Path(folder) / f"{user}.json"
    if not path.exists():
        raise SystemExit(f"no NATS credential for {user!r} in {folder}")
    return load_credential(path)


def _q(text: str) -> str:
    return json.dumps(text)


def deny_publish(user: str) -> tuple[str, ...]:
    """What a restricted user may not publish: disputes unless a dispute writer, the queue
    bucket unless the queue writer."""
    base = DENY_PUBLISH if user in DISPUTE_WRITERS else DENY_PUBLISH_READERS
    return base if user == QUEUE_WRITER else (*base, *DENY_QUEUE_WRITE)


def _user(cred: Credential, restricted: bool) -> str:
    line = f"{{user: {_q(cred.user)}, password: {_q(cred.password)}"
    if restricted:
        pub = ", ".join(_q(s) for s in deny_publish(cred.user))
        sub = ", ".join(_q(s) for s in DENY_SUBSCRIBE)
        line += f", permissions: {{publish: {{deny: [{pub}]}}, subscribe: {{deny: [{sub}]}}}}"
    return line + "}"


def server_config(host: str, port: int, store_dir: Path, creds: dict[str, Credential]) -> str:
    """A nats-server configuration with the two accounts and a user per service."""
    app_users = ",\n      ".join(_user(creds[u], restricted=u != REFEREE) for u in SERVICE_USERS)
    return f"""# Generated by gamehall: accounts and users per service (services/common/natsauth.py).
listen: {_q(f"{host}:{port}")}
jetstream {{ store_dir: {_q(str(store_dir))} }}
accounts {{
  {APP_ACCOUNT} {{
    jetstream: enabled
    users: [
      {app_users}
    ]
  }}
  {SECRETS_ACCOUNT} {{
    jetstream: enabled
    users: [ {_user(creds[REFEREE_SECRETS], restricted=False)} ]
  }}
}}
"""


def migrate_open_store(store_dir: Path) -> list[str]:
    """Move streams stored by an open nats-server (global account ``$G``) into the accounts:
    ``GH_SECRETS`` to ``SECRETS``, the rest to ``APP``.  Run while the server is stopped; a
    stream already present in its account is left where it is.  Returns the streams moved."""
    old = Path(store_dir) / "jetstream" / "$G" / "streams"
    moved: list[str] = []
    if not old.is_dir():
        return moved
    for stream in sorted(p for p in old.iterdir() if p.is_dir()):
        account = SECRETS_ACCOUNT if stream.name == subjects.SECRET_STREAM else APP_ACCOUNT
        target = Path(store_dir) / "jetstream" / account / "streams" / stream.name
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(stream), str(target))
        moved.append(stream.name)
    return moved
