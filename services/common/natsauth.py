"""NATS accounts, a user per service, and what each user may do (issues 9 and 22).

Layout (the embedded nats-server of ``gamehall up`` and tests; ``deploy/nats/accounts.conf`` is
the same text for a real cluster, generated from here: ``gamehall deploy nats-permissions``):

- account ``APP`` (JetStream): the match log (``GH_MATCHES``), integration events
  (``GH_INTEGRATION``), match certificates (``GH_CERTIFICATES``), disputes (``GH_DISPUTES``), the
  sealing keys of running card matches (``GH_SEALS``), tournaments (``GH_TOURNAMENTS``), seasons
  (``GH_SEASONS``, written by ``cli`` alone), the matchmaking queue (key-value bucket
  ``GH_TICKETS``) and the seeds of tournaments in registration (bucket ``GH_TOURNAMENT_SEEDS``,
  the ``tournaments`` user's alone).  One user per service: ``referee``, ``gateway``,
  ``scoring``, ``leaderboard``, ``matchmaking``, ``bots``, ``tournaments`` and ``cli`` (operator
  commands).
- account ``SECRETS`` (JetStream): ``GH_SECRETS``, the server seeds of card matches.  Its only
  user, ``referee-secrets``, is the referee's second connection.  No other account imports it.

Every user of ``APP`` runs on an **allow-list**: :data:`TABLE` says, per identity, what it does
with NATS in words (``serve("cmd.>")``, ``append(GH_MATCHES, "match.>")``, ``read(GH_SEALS)``,
``durable(GH_INTEGRATION, "matchmaking", ...)``, ...), and each use expands into the concrete
subjects it may publish and subscribe to: its own subjects, the JetStream API subjects of exactly
those streams and consumers (``$JS.API.STREAM.INFO.<stream>``, ``$JS.API.DIRECT.GET.<stream>``,
``$JS.API.CONSUMER.CREATE.<stream>.*.<filter>``, ...), the acks of its own durable consumers
(``$JS.ACK.<stream>.<consumer>.>``), flow control of its ordered consumers
(``$JS.FC.<stream>.>``) and its own reply inbox, ``_INBOX_<identity>.>`` (``natsio.connect``
sets that prefix, so no identity reads another's replies).  A user that serves requests may
answer each one once (``allow_responses``).  What is not in its row the server refuses
(``Permissions Violation``), and ``natsio.connect`` logs and counts every refusal
(``nats_permission_denied``, ``gamehall_nats_permission_denied_total{service}``).

Who creates what: the referee creates every stream of ``APP`` and the queue bucket (the
matchmakers may create the bucket too); ``referee-secrets`` creates ``GH_SECRETS``.  Every other
identity waits for the streams it uses (``natsio.ensure_streams``), so services start in any
order.  Consumers named by one identity (the durables ``matchmaking`` and ``gateway-tables``)
are denied by name to every other identity that may create consumers on the same stream.

The credentials are generated once into a folder (mode 0700, each file 0600) and read by each
service from ``GAMEHALL_NATS_CREDENTIALS`` (that folder).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from contracts import subjects

APP_ACCOUNT = "APP"
SECRETS_ACCOUNT = "SECRETS"
REFEREE = "referee"
REFEREE_SECRETS = "referee-secrets"
GATEWAY = "gateway"
SCORING = "scoring"
LEADERBOARD = "leaderboard"
MATCHMAKING = "matchmaking"
BOTS = "bots"
TOURNAMENTS = "tournaments"
CLI = "cli"
SERVICE_USERS = (REFEREE, GATEWAY, BOTS, SCORING, LEADERBOARD, MATCHMAKING, TOURNAMENTS, CLI)
ALL_USERS = (*SERVICE_USERS, REFEREE_SECRETS)
# Identities that run one command and exit: they wait a little for a stream someone else creates,
# then say which is missing (services wait as long as it takes).
ONE_SHOT = (CLI,)

API = "$JS.API"


def inbox_prefix(identity: str) -> str:
    """The reply-inbox prefix of an identity's connections: only it may subscribe below it."""
    return f"_INBOX_{identity}"


@dataclass(frozen=True)
class Use:
    """One thing an identity does with NATS: in words (``does``, the table of
    docs/operations.md) and as what the server must let it do."""

    does: str
    kind: str  # the constructor below that made it: "serve", "append", "read", ...
    target: tuple[str, ...]  # what it names: subjects, or a stream (and a subject or consumer)
    publish: tuple[str, ...] = ()
    subscribe: tuple[str, ...] = ()
    responds: bool = False  # answers the requests it receives, once each (allow_responses)
    creates: tuple[str, ...] = ()  # streams it creates (and whose replicas it raises)
    streams: tuple[str, ...] = ()  # streams it needs
    consumers_on: tuple[str, ...] = ()  # streams on which it creates consumers of any name


def _many(subject: str | Iterable[str]) -> tuple[str, ...]:
    return (subject,) if isinstance(subject, str) else tuple(subject)


def serve(subject: str | Iterable[str], does: str) -> Use:
    """Subscribe (a queue group) and answer each request once."""
    return Use(does, "serve", _many(subject), subscribe=_many(subject), responds=True)


def request(subject: str | Iterable[str], does: str) -> Use:
    """Send requests (the replies come to its own inbox)."""
    return Use(does, "request", _many(subject), publish=_many(subject))


def append(stream: str, subject: str, does: str) -> Use:
    """Store messages on ``subject`` of ``stream`` (a JetStream publish; the ack to its inbox)."""
    return Use(does, "append", (stream, subject), publish=(subject,), streams=(stream,))


def create(stream: str, does: str = "") -> Use:
    return Use(
        does or f"create {stream} (and raise its replicas)",
        "create",
        (stream,),
        publish=(f"{API}.STREAM.CREATE.{stream}", f"{API}.STREAM.UPDATE.{stream}", f"{API}.STREAM.INFO.{stream}"),
        creates=(stream,),
        streams=(stream,),
    )


def get(stream: str, does: str) -> Use:
    """Read single messages (direct get, batched direct get, the stream's message get) and the
    stream's state (its subjects with a filter); no consumer."""
    return Use(
        does,
        "get",
        (stream,),
        publish=(
            f"{API}.DIRECT.GET.{stream}",
            f"{API}.DIRECT.GET.{stream}.>",
            f"{API}.STREAM.MSG.GET.{stream}",
            f"{API}.STREAM.INFO.{stream}",
        ),
        streams=(stream,),
    )


def _ordered(stream: str) -> tuple[str, ...]:
    # nats-py creates an ordered consumer unnamed, and deletes or looks it up by its given name
    return (
        f"{API}.CONSUMER.CREATE.{stream}",
        f"{API}.CONSUMER.INFO.{stream}.*",
        f"{API}.CONSUMER.DELETE.{stream}.*",
        f"$JS.FC.{stream}.>",
    )


def read(stream: str, does: str) -> Use:
    """:func:`get`, and ordered consumers (a server without batched direct gets, following a
    subject, reading a whole stream in order)."""
    got = get(stream, does)
    return Use(does, "read", (stream,), publish=(*got.publish, *_ordered(stream)), streams=(stream,), consumers_on=(stream,))


def pull(stream: str, filter_subject: str, does: str) -> Use:
    """A projection's reader: ephemeral pull consumers without acks, filtered on
    ``filter_subject`` (services.common.projection.StreamReader)."""
    return Use(
        does,
        "pull",
        (stream, filter_subject),
        publish=(
            f"{API}.CONSUMER.CREATE.{stream}.*.{filter_subject}",
            f"{API}.CONSUMER.INFO.{stream}.*",
            f"{API}.CONSUMER.DELETE.{stream}.*",
            f"{API}.CONSUMER.MSG.NEXT.{stream}.*",
            f"{API}.STREAM.INFO.{stream}",
        ),
        streams=(stream,),
        consumers_on=(stream,),
    )


def durable(stream: str, consumer: str, filter_subject: str, does: str) -> Use:
    """A durable push consumer on ``filter_subject`` (a queue group of the identity's instances),
    acked one by one."""
    return Use(
        does,
        "durable",
        (stream, consumer, filter_subject),
        publish=(
            f"{API}.CONSUMER.DURABLE.CREATE.{stream}.{consumer}",
            f"{API}.CONSUMER.CREATE.{stream}.{consumer}.{filter_subject}",
            f"{API}.CONSUMER.INFO.{stream}.{consumer}",
            f"$JS.ACK.{stream}.{consumer}.>",
            f"{API}.STREAM.INFO.{stream}",
        ),
        streams=(stream,),
    )


def _kv(bucket: str) -> str:
    return subjects.kv_stream(bucket)


def kv_create(bucket: str) -> Use:
    made = create(_kv(bucket), f"create the bucket {bucket} (and raise its replicas)")
    return Use(made.does, "kv_create", (bucket,), publish=made.publish, creates=made.creates, streams=made.streams)


def kv_read(bucket: str, does: str) -> Use:
    s = _kv(bucket)
    return Use(
        does,
        "kv_read",
        (bucket,),
        publish=(
            f"{API}.STREAM.INFO.{s}",
            f"{API}.DIRECT.GET.{s}",
            f"{API}.DIRECT.GET.{s}.$KV.{bucket}.>",
            f"{API}.STREAM.MSG.GET.{s}",
        ),
        streams=(s,),
    )


def kv_write(bucket: str, does: str) -> Use:
    return Use(does, "kv_write", (bucket,), publish=(f"$KV.{bucket}.>",), streams=(_kv(bucket),))


def kv_watch(bucket: str, does: str) -> Use:
    s = _kv(bucket)
    return Use(does, "kv_watch", (bucket,), publish=_ordered(s), streams=(s,), consumers_on=(s,))


_MATCHES = subjects.MATCH_STREAM
_INTEGRATION = subjects.INTEGRATION_STREAM
_CERTIFICATES = subjects.CERTIFICATE_STREAM
_DISPUTES = subjects.DISPUTE_STREAM
_SEALS = subjects.SEAL_STREAM
_TOURNAMENTS = subjects.TOURNAMENT_STREAM
_SEASONS = subjects.SEASON_STREAM
_TICKETS = subjects.TICKETS_BUCKET
_SEEDS = subjects.TOURNAMENT_SEEDS_BUCKET
_MATCHMAKING = (
    subjects.MATCHMAKING_JOIN,
    subjects.MATCHMAKING_LEAVE,
    subjects.MATCHMAKING_STATUS,
    subjects.MATCHMAKING_SEEKS,
    subjects.MATCHMAKING_TABLES,
)

# What each identity of account APP does with NATS: the one table the server's permissions, the
# streams each service creates or waits for, and docs/operations.md are made from.
TABLE: dict[str, tuple[Use, ...]] = {
    REFEREE: (
        serve(subjects.COMMAND_SUBJECTS, "decide commands (queue group `referees`, its partitions)"),
        serve(subjects.REFEREE_PING, "answer the readiness ping"),
        *(create(s) for s in (_MATCHES, _INTEGRATION, _CERTIFICATES, _DISPUTES, _SEALS, _TOURNAMENTS, _SEASONS)),
        kv_create(_TICKETS),
        append(_MATCHES, subjects.MATCH_SUBJECTS, "append decisions to the match log"),
        read(_MATCHES, "read the match log"),
        append(_INTEGRATION, subjects.MATCH_CREATED, "announce started matches"),
        append(_INTEGRATION, subjects.MATCH_FINISHED, "announce finished matches"),
        append(_CERTIFICATES, subjects.CERTIFICATE_SUBJECTS, "store match certificates and its public keys"),
        append(_SEALS, subjects.SEAL_SUBJECTS, "store the sealing key of each card match"),
        get(_SEALS, "read sealing keys back"),
        request(subjects.BOTS_ASSIGN, "hand seats to computer players"),
    ),
    GATEWAY: (
        request(subjects.COMMAND_SUBJECTS, "send players' commands and new matches to the referees"),
        request(subjects.REFEREE_PING, "ask whether a referee answers (readiness)"),
        request(_MATCHMAKING, "ask the matchmakers (join, leave, status, seeks, tables)"),
        request(subjects.BOTS_ASSIGN, "hand seats to computer players"),
        read(_MATCHES, "read and follow the match log"),
        get(_SEALS, "read the sealing key of a card match (to open each seat's cards)"),
        get(_CERTIFICATES, "read match certificates and the referees' public keys"),
        append(_DISPUTES, subjects.DISPUTE_SUBJECTS, "append players' and operators' dispute events"),
        read(_DISPUTES, "read disputes"),
        durable(_INTEGRATION, subjects.TABLES_CONSUMER, subjects.TABLE_FORMED, "create the matches of formed tables"),
        kv_read(_TICKETS, "read the matchmaking queue"),
        request(subjects.TOURNAMENT_COMMANDS, "send players' and operators' tournament commands"),
        read(_TOURNAMENTS, "read tournaments (pages, seats of tournament games)"),
        read(_SEASONS, "read seasons and divisions (season leaderboards)"),
    ),
    SCORING: (
        pull(_INTEGRATION, subjects.MATCH_FINISHED, "rate finished matches (projection `scoring`)"),
        append(_INTEGRATION, subjects.RATING_APPLIED, "announce applied ratings (its outbox)"),
        pull(_DISPUTES, subjects.DISPUTE_SUBJECTS, "apply operators' rulings (projection `scoring-rulings`)"),
        pull(_MATCHES, subjects.MATCH_SUBJECTS, "list stored matches (projection `match-list`)"),
        read(_MATCHES, "read a listed match's earlier decisions; the derived-data check"),
        read(_INTEGRATION, "the derived-data check (samples, rebuilds)"),
        read(_DISPUTES, "the derived-data check (rebuilds)"),
        read(_SEASONS, "the seasons in force (each match rated in its season)"),
    ),
    LEADERBOARD: (pull(_INTEGRATION, subjects.RATING_APPLIED, "rank applied ratings (projection `leaderboard`)"),),
    MATCHMAKING: (
        serve(_MATCHMAKING, "answer queue requests (queue group `matchmakers`)"),
        kv_create(_TICKETS),
        kv_read(_TICKETS, "read the queue"),
        kv_write(_TICKETS, "write the queue (revision-checked entries, the forming lease)"),
        kv_watch(_TICKETS, "mirror the queue"),
        durable(
            _INTEGRATION, subjects.MATCHMAKING_CONSUMER, subjects.INTEGRATION_SUBJECTS, "follow started and finished matches"
        ),
        append(_INTEGRATION, subjects.TABLE_FORMED, "announce formed tables"),
    ),
    BOTS: (serve(subjects.BOTS_ASSIGN, "take seats handed to computer players (it plays through the gateway)"),),
    TOURNAMENTS: (
        serve(subjects.TOURNAMENT_COMMANDS, "decide tournament commands (queue group `tournaments`)"),
        create(_TOURNAMENTS),
        append(_TOURNAMENTS, subjects.TOURNAMENT_SUBJECTS, "append decisions to the tournament log"),
        read(_TOURNAMENTS, "read the tournament log (at start, on a conflict)"),
        kv_create(_SEEDS),
        kv_read(_SEEDS, "read the server seeds of tournaments in registration"),
        kv_write(_SEEDS, "store a new tournament's server seed"),
        durable(
            _INTEGRATION, subjects.TOURNAMENTS_CONSUMER, subjects.MATCH_FINISHED, "record finished tournament games"
        ),
        durable(
            _DISPUTES,
            subjects.TOURNAMENT_RULINGS_CONSUMER,
            subjects.DISPUTE_SUBJECTS,
            "void or amend tournament games by operators' rulings",
        ),
        append(_INTEGRATION, subjects.TABLE_FORMED, "announce the tables of a started round"),
        read(_MATCHES, "see who moved in a game unfinished at its round's deadline"),
    ),
    CLI: (
        read(_MATCHES, "export, audit, rebuild the match list, doctor"),
        get(_CERTIFICATES, "audit: match certificates and public keys"),
        read(_INTEGRATION, "rebuild ratings, doctor"),
        read(_DISPUTES, "list and show disputes, rebuild, doctor"),
        append(_DISPUTES, subjects.DISPUTE_SUBJECTS, "open disputes and rule on them (operators)"),
        request(subjects.TOURNAMENT_COMMANDS, "run tournaments (operators)"),
        read(_TOURNAMENTS, "export and audit tournaments"),
        read(_SEASONS, "list and show seasons, rebuild, doctor"),
        append(_SEASONS, subjects.SEASON_SUBJECTS, "open and close seasons (operators)"),
    ),
}
# The SECRETS account has one user and nothing else: it may do anything there.
SECRETS_TABLE: tuple[Use, ...] = (
    Use("everything in account SECRETS: store and read the server seeds", "any", (">",), publish=(">",), subscribe=(">",)),
    create(subjects.SECRET_STREAM),
)
UNRESTRICTED = (REFEREE_SECRETS,)


def row(identity: str) -> tuple[Use, ...]:
    if identity == REFEREE_SECRETS:
        return SECRETS_TABLE
    return TABLE[identity]


def streams_used(identity: str) -> frozenset[str]:
    return frozenset(s for use in row(identity) for s in use.streams)


def streams_created(identity: str) -> frozenset[str]:
    return frozenset(s for use in row(identity) for s in use.creates)


def creators_of(stream: str) -> tuple[str, ...]:
    return tuple(u for u in ALL_USERS if stream in streams_created(u))


def durables_of(identity: str) -> tuple[tuple[str, str], ...]:
    return tuple((use.target[0], use.target[1]) for use in row(identity) if use.kind == "durable")


@dataclass(frozen=True)
class Permissions:
    publish: tuple[str, ...]
    publish_deny: tuple[str, ...]
    subscribe: tuple[str, ...]
    responds: bool


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _others_durable(stream: str, consumer: str) -> tuple[str, ...]:
    return (
        f"{API}.CONSUMER.CREATE.{stream}.{consumer}",
        f"{API}.CONSUMER.CREATE.{stream}.{consumer}.>",
        f"{API}.CONSUMER.DURABLE.CREATE.{stream}.{consumer}",
        f"{API}.CONSUMER.DELETE.{stream}.{consumer}",
        f"{API}.CONSUMER.MSG.NEXT.{stream}.{consumer}",
        f"$JS.ACK.{stream}.{consumer}.>",
    )


def permissions(identity: str) -> Permissions:
    """The concrete subjects ``identity`` may publish and subscribe to (its own inbox included),
    and the consumers of others it may not touch although its row lets it name consumers freely
    on their stream."""
    uses = row(identity)
    own = set(durables_of(identity))
    free = {s for use in uses for s in use.consumers_on}
    deny = [
        subject
        for other in SERVICE_USERS
        if other != identity
        for stream, consumer in durables_of(other)
        if stream in free and (stream, consumer) not in own
        for subject in _others_durable(stream, consumer)
    ]
    return Permissions(
        publish=_unique(s for use in uses for s in use.publish),
        publish_deny=_unique(deny),
        subscribe=_unique([*(s for use in uses for s in use.subscribe), f"{inbox_prefix(identity)}.>"]),
        responds=any(use.responds for use in uses),
    )


# ---------------------------------------------------------------- credentials


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


# ---------------------------------------------------------------- server configuration


def _q(text: str) -> str:
    return json.dumps(text)


def password_variable(user: str) -> str:
    """The environment variable a deployed nats-server reads ``user``'s password from."""
    return f"GH_NATS_{user.upper().replace('-', '_')}_PASSWORD"


def _block_name(user: str) -> str:
    return f"PERMISSIONS_{user.upper().replace('-', '_')}"


def _list(items: tuple[str, ...], indent: str) -> str:
    return "[\n" + "".join(f"{indent}  {_q(s)}\n" for s in items) + f"{indent}]"


def _permission_block(user: str) -> str:
    p = permissions(user)
    said = f"{user}: " + "; ".join(use.does for use in row(user)) + "."
    lines = textwrap.wrap(said, 98, initial_indent="# ", subsequent_indent="#   ", break_on_hyphens=False)
    lines.append(f"{_block_name(user)} = {{")
    if p.publish:
        publish = f"  publish: {{\n    allow: {_list(p.publish, '    ')}"
    else:  # an empty allow-list would allow everything
        publish = f"  publish: {{\n    # answers only\n    deny: {_list(('>',), '    ')}"
    if p.publish_deny:
        publish += f"\n    # consumers of other services on the same streams\n    deny: {_list(p.publish_deny, '    ')}"
    lines.append(publish + "\n  }")
    lines.append(f"  subscribe: {{\n    allow: {_list(p.subscribe, '    ')}\n  }}")
    if p.responds:
        lines.append("  allow_responses: {max: 1}")
    lines.append("}")
    return "\n".join(lines)


def accounts_config(password: Callable[[str], str]) -> str:
    """The accounts, users and permission blocks (``password(user)``: what stands for its
    password in the file: a quoted literal, or ``$VAR`` of the server's environment)."""
    width = max(len(u) for u in SERVICE_USERS) + 1
    app_users = "\n".join(
        f"      {{user: {(u + ',').ljust(width)} password: {password(u)}, permissions: ${_block_name(u)}}}"
        for u in SERVICE_USERS
    )
    blocks = "\n\n".join(_permission_block(u) for u in SERVICE_USERS)
    return f"""# Allow-lists per service identity, from the table in services/common/natsauth.py (docs/operations.md
# "NATS accounts and credentials" shows it in words). Everything not listed is refused.

{blocks}

accounts {{
  # The match log (GH_MATCHES), integration events (GH_INTEGRATION), match certificates
  # (GH_CERTIFICATES), disputes (GH_DISPUTES), sealing keys (GH_SEALS), tournaments
  # (GH_TOURNAMENTS), seasons (GH_SEASONS), the matchmaking queue (key-value bucket GH_TICKETS)
  # and the seeds of tournaments in registration (bucket GH_TOURNAMENT_SEEDS).
  {APP_ACCOUNT} {{
    jetstream: enabled
    users: [
{app_users}
    ]
  }}
  # GH_SECRETS, the server seeds of card matches: the referee's second connection only.
  # Nothing exports it, so no user of APP can reach it.
  {SECRETS_ACCOUNT} {{
    jetstream: enabled
    users: [ {{user: {REFEREE_SECRETS}, password: {password(REFEREE_SECRETS)}}} ]
  }}
}}
"""


def deployed_accounts_config() -> str:
    """``deploy/nats/accounts.conf``: passwords from the nats-server's environment."""
    header = (
        "# Accounts and a user per service for gamehall (included by nats.conf and cluster/n*.conf; the\n"
        "# embedded nats-server of `gamehall up` runs the same layout). Generated by\n"
        "# `gamehall deploy nats-permissions`; passwords come from the nats-server's environment\n"
        "# (README.md beside this file).\n\n"
    )
    return header + accounts_config(lambda u: f"${password_variable(u)}")


def server_config(host: str, port: int, store_dir: Path, creds: dict[str, Credential]) -> str:
    """A nats-server configuration with the two accounts and a user per service."""
    return f"""# Generated by gamehall: accounts and users per service (services/common/natsauth.py).
listen: {_q(f"{host}:{port}")}
jetstream {{ store_dir: {_q(str(store_dir))} }}
{accounts_config(lambda u: _q(creds[u].password))}"""


def _code(items: Iterable[str]) -> str:
    return ", ".join(f"`{x}`" for x in items)


def _how(use: Use) -> str:
    """A use in the words of the legend (``permissions_markdown``)."""
    kind, target = use.kind, use.target
    if kind in ("serve", "request"):
        return f"{kind} {_code(target)}"
    if kind == "append":
        return f"append to {target[0]} on `{target[1]}`"
    if kind == "pull":
        return f"pull {target[0]} filtered on `{target[1]}`"
    if kind == "durable":
        return f"durable `{target[1]}` on {target[0]} filtered on `{target[2]}`"
    if kind == "any":
        return "anything in account SECRETS"
    return f"{kind.replace('_', ' ')} {target[0]}"


# How each kind of use reads in the legend, and the placeholders it is shown with.
_LEGEND: tuple[Use, ...] = (
    serve("S", ""),
    request("S", ""),
    append("STREAM", "S", ""),
    create("STREAM"),
    get("STREAM", ""),
    read("STREAM", ""),
    pull("STREAM", "F", ""),
    durable("STREAM", "C", "F", ""),
    kv_create("B"),
    kv_read("B", ""),
    kv_write("B", ""),
    kv_watch("B", ""),
)


def permissions_markdown() -> str:
    """The tables of docs/operations.md: what each identity does (its row of :data:`TABLE`), the
    subjects each kind of use lets it publish and subscribe to, and what is denied by name."""
    lines = ["| identity | does | as |", "|---|---|---|"]
    for user in ALL_USERS:
        for use in row(user):
            lines.append(f"| `{user}` | {use.does} | {_how(use)} |")
    lines += ["", "| use | may publish | may subscribe |", "|---|---|---|"]
    for use in _LEGEND:
        answers = " (and answer each request once)" if use.responds else ""
        lines.append(f"| {_how(use)} | {_code(use.publish) or '–'} | {_code(use.subscribe) or '–'}{answers} |")
    lines.append(f"| every identity but `{REFEREE_SECRETS}` | – | `{inbox_prefix('<identity>')}.>`: its replies |")
    denials: dict[tuple[str, ...], list[str]] = {}
    for user in SERVICE_USERS:
        p = permissions(user)
        if p.publish_deny:
            denials.setdefault(p.publish_deny, []).append(user)
    for denied, users in denials.items():
        lines.append(f"| denied to {_code(users)}: the consumers of other services | {_code(denied)} | – |")
    return "\n".join(lines) + "\n"


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
