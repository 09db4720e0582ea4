"""Every setting of every service: one typed class read from the environment, a section per
service, with embedded defaults for a laptop.

Each field names its environment variable (``validation_alias``) and says what it means
(``description``); docs/operations.md lists them all, and a test keeps the two in step.  A value
that does not parse stops the process at start-up with the variable's name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from contracts.subjects import DEFAULT_PARTITIONS
from domain.matchmaking.pairing import GapStep, Policy
from domain.rating.ranked import RatingPolicy
from services.common.natsauth import Credential, credential_for

_RATING = RatingPolicy()
_PAIRING = Policy()


class _Section(BaseSettings):
    # ``NATS_URL=`` in a shell or a compose file means "not set", as it always did.
    model_config = SettingsConfigDict(
        frozen=True, extra="ignore", populate_by_name=True, env_ignore_empty=True
    )

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed, validated as if read from the environment."""
        current = {name: getattr(self, name) for name in type(self).model_fields}
        return type(self).model_validate({**current, **changes})


def _split(raw: Any, sep: str) -> Any:
    if isinstance(raw, str):
        return [part.strip() for part in raw.split(sep) if part.strip()]
    return raw


class RefereeSettings(_Section):
    owned_partitions: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        None,
        validation_alias="GAMEHALL_REFEREE_PARTITIONS",
        description="partitions this referee owns, comma-separated (e.g. `0,1`); all when unset",
    )
    idle_expiry_hours: float = Field(
        72.0,
        ge=0,
        validation_alias="GAMEHALL_IDLE_EXPIRY_HOURS",
        description="a running match with no decision for this long ends as abandoned (docs/audit.md); "
        "0 turns the rule off",
    )

    matchmaking_keys: Annotated[tuple[str, ...] | None, NoDecode] = Field(
        None,
        validation_alias="GAMEHALL_MATCHMAKING_KEYS",
        description="the matchmaking public keys a referee trusts to sign ranked tables (only those become "
        "ranked matches): hex Ed25519 keys or files of them (one a line), comma-separated; the `.pub` beside "
        "`GAMEHALL_MATCHMAKING_KEY` when unset",
    )

    tournament_keys: Annotated[tuple[str, ...] | None, NoDecode] = Field(
        None,
        validation_alias="GAMEHALL_TOURNAMENT_KEYS",
        description="the tournaments service's public keys a referee trusts to sign rated tournaments' tables "
        "(only those become ranked tournament games; never a matchmaking key): hex Ed25519 keys or files of "
        "them, comma-separated; the `.pub` beside `GAMEHALL_TOURNAMENTS_KEY` when unset",
    )

    @field_validator("owned_partitions", mode="before")
    @classmethod
    def _parts(cls, raw: Any) -> Any:
        return _split(raw, ",")

    @field_validator("matchmaking_keys", "tournament_keys", mode="before")
    @classmethod
    def _keys(cls, raw: Any) -> Any:
        parts = _split(raw, ",")
        return parts or None


class ScoringSettings(_Section):
    seasons: str | None = Field(
        None,
        validation_alias="GAMEHALL_SEASONS",
        description='explicit seasons per game: JSON `{"ugolki": [{"name", "start_ms", "end_ms"}]}` '
        "or the path of such a file; calendar quarters (`2026-Q4`) when unset",
    )
    rating_period_ms: int = Field(
        _RATING.period_ms,
        gt=0,
        validation_alias="GAMEHALL_RATING_PERIOD_MS",
        description="length of a Glicko-2 rating period, over which an idle player's RD grows",
    )
    glicko_tau: float = Field(
        _RATING.tau, gt=0, validation_alias="GAMEHALL_GLICKO_TAU", description="Glicko-2 system constant tau"
    )
    doctor_every_s: float = Field(
        300.0,
        ge=0,
        validation_alias="GAMEHALL_DOCTOR_EVERY_S",
        description="seconds between scoring's sampled checks of derived data (match list, history) against "
        "the log (`gamehall_derived_rows_differing`); 0 turns the check off",
    )
    doctor_sample: int = Field(
        50,
        ge=1,
        validation_alias="GAMEHALL_DOCTOR_SAMPLE",
        description="matches each sampled check rebuilds and compares",
    )
    doctor_full_every_s: float = Field(
        900.0,
        ge=0,
        validation_alias="GAMEHALL_DOCTOR_FULL_EVERY_S",
        description="seconds between the checks that also rebuild ratings, standings, players and rulings "
        "from the whole log (at a sampled check's turn); 0: never",
    )


class MatchmakingSettings(_Section):
    steps: Annotated[tuple[tuple[int, float], ...], NoDecode] = Field(
        tuple((step.after_ms, step.gap) for step in _PAIRING.steps),
        min_length=1,
        validation_alias="GAMEHALL_MM_STEPS",
        description="how the allowed rating gap widens with waiting time: `wait_ms:gap,...` (`inf`: any gap)",
    )
    bot_fill_ms: int = Field(
        _PAIRING.bot_fill_after_ms,
        ge=0,
        validation_alias="GAMEHALL_MM_BOT_FILL_MS",
        description="wait before computer players fill a table whose players allow it",
    )
    table_key: Path | None = Field(
        None,
        validation_alias="GAMEHALL_MATCHMAKING_KEY",
        description="file of matchmaking's Ed25519 key that signs ranked tables, readable by matchmaking only "
        "(made on first start, mode 0600, its public key beside it as `.pub`); `keys/matchmaking.key` in the "
        "data folder when unset",
    )

    def policy(self) -> Policy:
        return Policy(
            steps=tuple(GapStep(a, gap) for a, gap in self.steps), bot_fill_after_ms=self.bot_fill_ms
        )

    @field_validator("steps", mode="before")
    @classmethod
    def _steps(cls, raw: Any) -> Any:
        parts = _split(raw, ",")
        if isinstance(raw, str):
            try:
                return [tuple(part.split(":")) for part in parts]
            except ValueError:
                raise ValueError("write the steps as wait_ms:gap,wait_ms:gap,...") from None
        return parts


class TournamentsSettings(_Section):
    table_key: Path | None = Field(
        None,
        validation_alias="GAMEHALL_TOURNAMENTS_KEY",
        description="file of the tournaments service's Ed25519 key that signs rated tournaments' tables, "
        "readable by the tournaments service only (made on first start, mode 0600, its public key beside it "
        "as `.pub`); `keys/tournaments.key` in the data folder when unset",
    )


class BotsSettings(_Section):
    think_ms: int = Field(
        600,
        ge=0,
        validation_alias="GAMEHALL_BOT_THINK_MS",
        description="a computer player's pause before each move, unless its table sets `bot_think_ms`",
    )
    gateway_url: str | None = Field(
        None,
        validation_alias="GAMEHALL_GATEWAY_URL",
        description="where computer players reach the gateway; the URL in the seat assignment, "
        "else `GAMEHALL_HTTP_HOST`/`GAMEHALL_HTTP_PORT`, when unset",
    )


@dataclass(frozen=True)
class Rate:
    """A token bucket: ``per_s`` tokens a second up to ``burst``; ``per_s`` 0 turns it off."""

    per_s: float
    burst: float

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"RATE/BURST"`` (e.g. ``"100/400"``), ``"RATE"`` (burst = rate), ``"0"`` or ``"off"``."""
        text = text.strip().lower()
        if text in ("", "0", "off", "none"):
            return cls(0.0, 0.0)
        rate, _, burst = text.partition("/")
        per_s = float(rate)
        if per_s < 0 or (burst and float(burst) < 0):
            raise ValueError("a rate is RATE/BURST with numbers >= 0, or off")
        return cls(per_s, float(burst) if burst else max(per_s, 1.0))

    def __str__(self) -> str:
        return "off" if not self.per_s else f"{self.per_s:g}/{self.burst:g}"


@dataclass(frozen=True)
class EdgeLimits:
    """The gateway's limits (docs/operations.md "Limits"); the bench raises them."""

    per_address: Rate = Rate(100.0, 400.0)
    per_credential: Rate = Rate(30.0, 120.0)
    create_match: Rate = Rate(2.0, 30.0)
    auth_failures: Rate = Rate(1.0, 20.0)
    sign_up: Rate = Rate(0.1, 20.0)
    max_connections_per_address: int = 128
    max_sockets_per_address: int = 32
    ws_send_queue: int = 64
    header_timeout_s: float = 5.0
    body_timeout_s: float = 10.0
    idempotency_window_s: float = 24 * 3600.0


_EDGE = EdgeLimits()


class GatewaySettings(_Section):
    rate_address: str = Field(
        str(_EDGE.per_address),
        validation_alias="GAMEHALL_RATE_ADDRESS",
        description="the gateway's token bucket per client address: `RATE/BURST` per second; `off` disables",
    )
    rate_credential: str = Field(
        str(_EDGE.per_credential),
        validation_alias="GAMEHALL_RATE_CREDENTIAL",
        description="token bucket per seat token or bearer",
    )
    rate_create: str = Field(
        str(_EDGE.create_match),
        validation_alias="GAMEHALL_RATE_CREATE",
        description="token bucket of `POST /api/matches` per client address",
    )
    rate_auth_failures: str = Field(
        str(_EDGE.auth_failures),
        validation_alias="GAMEHALL_RATE_AUTH_FAILURES",
        description="failed authentications (401) per client address; when spent, requests with a credential wait",
    )
    rate_signup: str = Field(
        str(_EDGE.sign_up),
        validation_alias="GAMEHALL_RATE_SIGNUP",
        description="token bucket of sign-ups (`POST /api/accounts`) per client address",
    )
    max_connections_per_address: int = Field(
        _EDGE.max_connections_per_address,
        ge=0,
        validation_alias="GAMEHALL_MAX_CONNECTIONS_PER_ADDRESS",
        description="open HTTP and WebSocket connections per client address (`0`: no cap)",
    )
    max_sockets_per_address: int = Field(
        _EDGE.max_sockets_per_address,
        ge=0,
        validation_alias="GAMEHALL_MAX_SOCKETS_PER_ADDRESS",
        description="open match WebSockets per client address; one more is closed with 4429 `too_many_sockets` "
        "(`0`: no cap)",
    )
    ws_send_queue: int = Field(
        _EDGE.ws_send_queue,
        ge=2,
        validation_alias="GAMEHALL_WS_SEND_QUEUE",
        description="frames a match WebSocket that does not read (more than 4 KiB sent to it still unsent, or "
        "no room in its peer's window) may fall behind; one more and the socket is closed with 4408 "
        "`slow_consumer`",
    )
    header_timeout_s: float = Field(
        _EDGE.header_timeout_s,
        ge=0,
        validation_alias="GAMEHALL_HEADER_TIMEOUT_S",
        description="a request's headers must arrive within this many seconds (slow clients are dropped)",
    )
    body_timeout_s: float = Field(
        _EDGE.body_timeout_s,
        gt=0,
        validation_alias="GAMEHALL_BODY_TIMEOUT_S",
        description="a request's whole body must arrive within this many seconds of its headers; later, "
        "408 `body_timeout` and the connection is closed",
    )
    idempotency_window_s: float = Field(
        _EDGE.idempotency_window_s,
        gt=0,
        validation_alias="GAMEHALL_IDEMPOTENCY_WINDOW_S",
        description="how long the gateway keeps a creation's first reply in memory for its `Idempotency-Key` "
        "(later, and after a restart, it is rebuilt from the stored match)",
    )
    forwarded_allow_ips: str | None = Field(
        None,
        validation_alias="GAMEHALL_FORWARDED_ALLOW_IPS",
        description="proxies whose `X-Forwarded-For` names the client; the socket's peer is the client when unset",
    )

    @field_validator("rate_address", "rate_credential", "rate_create", "rate_auth_failures", "rate_signup", mode="after")
    @classmethod
    def _rate(cls, value: str) -> str:
        Rate.parse(value)
        return value

    def limits(self) -> EdgeLimits:
        return EdgeLimits(
            per_address=Rate.parse(self.rate_address),
            per_credential=Rate.parse(self.rate_credential),
            create_match=Rate.parse(self.rate_create),
            auth_failures=Rate.parse(self.rate_auth_failures),
            sign_up=Rate.parse(self.rate_signup),
            max_connections_per_address=self.max_connections_per_address,
            max_sockets_per_address=self.max_sockets_per_address,
            ws_send_queue=self.ws_send_queue,
            header_timeout_s=self.header_timeout_s,
            body_timeout_s=self.body_timeout_s,
            idempotency_window_s=self.idempotency_window_s,
        )

    @classmethod
    def of(cls, limits: EdgeLimits) -> GatewaySettings:
        """The section that gives ``limits`` (tests and benchmarks)."""
        return cls(
            rate_address=str(limits.per_address),
            rate_credential=str(limits.per_credential),
            rate_create=str(limits.create_match),
            rate_auth_failures=str(limits.auth_failures),
            rate_signup=str(limits.sign_up),
            max_connections_per_address=limits.max_connections_per_address,
            max_sockets_per_address=limits.max_sockets_per_address,
            ws_send_queue=limits.ws_send_queue,
            header_timeout_s=limits.header_timeout_s,
            body_timeout_s=limits.body_timeout_s,
            idempotency_window_s=limits.idempotency_window_s,
        )


class Settings(_Section):
    data_dir: Path = Field(
        Path(".gamehall"),
        validation_alias="GAMEHALL_DATA_DIR",
        description="data folder: embedded NATS store, SQLite, logs, stack.json, bot seats",
    )
    nats_url: str | None = Field(
        None,
        validation_alias="NATS_URL",
        description="an existing NATS with JetStream; `gamehall up` starts an embedded nats-server "
        "when unset",
    )
    db_url: str | None = Field(
        None,
        validation_alias="GAMEHALL_DB_URL",
        description="SQLAlchemy URL of the read models, e.g. `postgresql+psycopg://…`; SQLite in the "
        "data folder when unset",
    )
    http_host: str = Field(
        "127.0.0.1", validation_alias="GAMEHALL_HTTP_HOST", description="address the gateway listens on"
    )
    http_port: int = Field(
        8000,
        ge=0,
        le=65535,
        validation_alias="GAMEHALL_HTTP_PORT",
        description="the gateway's HTTP port (`gamehall up` takes a free one when it is in use)",
    )
    partitions: int = Field(
        DEFAULT_PARTITIONS,
        ge=1,
        validation_alias="GAMEHALL_PARTITIONS",
        description="number of referee partitions; must be the same for every process",
    )
    log_format: Literal["json", "console", "auto"] = Field(
        "auto",
        validation_alias="GAMEHALL_LOG_FORMAT",
        description="`json`, `console`, or `auto` (JSON unless stderr is a terminal)",
    )
    metrics_port: int | None = Field(
        None,
        ge=0,
        le=65535,
        validation_alias="GAMEHALL_METRICS_PORT",
        description="fixed `/metrics` port of a service (the gateway's operations port: its public port "
        "serves no `/metrics`); a free loopback port when unset",
    )
    metrics_host: str = Field(
        "127.0.0.1",
        validation_alias="GAMEHALL_METRICS_HOST",
        description="address the `/metrics`, `/healthz` and `/readyz` of a service listen on (the gateway's "
        "operations port too; `0.0.0.0` in a container that Prometheus scrapes)",
    )
    profile: str | None = Field(
        None,
        validation_alias="GAMEHALL_PROFILE",
        description="write a cProfile of `gamehall serve <name>` to `<value>.<name>` when it stops",
    )
    stream_replicas: int = Field(
        1,
        ge=1,
        le=5,
        validation_alias="GAMEHALL_STREAM_REPLICAS",
        description="copies of each JetStream stream: 1 on one nats-server, 3 on a three-node "
        "cluster (existing streams are raised to it at start-up)",
    )
    nats_credentials: Path | None = Field(
        None,
        validation_alias="GAMEHALL_NATS_CREDENTIALS",
        description="folder of NATS credentials, one `<user>.json` per service (see NATS accounts below); "
        "`gamehall up` sets it for its embedded nats-server; an open server when unset",
    )
    signing_keys: Path | None = Field(
        None,
        validation_alias="GAMEHALL_SIGNING_KEYS",
        description="folder of the referees' Ed25519 keys that sign match certificates "
        "(`keys` in the data folder when unset)",
    )
    server_key: Path | None = Field(
        None,
        validation_alias="GAMEHALL_SERVER_KEY",
        description="file of the server key that seals app secrets and keys the hashes of API tokens "
        "(`keys/server.key` in the data folder when unset; made on first use, mode 0600; back it up)",
    )
    referees: int | None = Field(
        None,
        ge=1,
        le=8,
        validation_alias="GAMEHALL_REFEREES",
        description="referee processes `gamehall up` starts (a crash or kill of one then costs no client "
        "error); 2 when the machine has at least 2 cores, else 1, when unset",
    )
    instance: str | None = Field(
        None,
        validation_alias="GAMEHALL_INSTANCE",
        description="set by `gamehall up` for what it starts: a random name per start that the gateway's "
        "`/readyz` returns as `instance`, so `up` knows the gateway it reports is its own",
    )
    supervisor_pid: int | None = Field(
        None,
        validation_alias="GAMEHALL_SUPERVISOR_PID",
        description="set by `gamehall up` for what it starts: the pid of `up`; `gamehall serve` stops "
        "when that process is gone (even after a SIGKILL), so no service outlives its supervisor",
    )
    referee: RefereeSettings = Field(default_factory=RefereeSettings)
    scoring: ScoringSettings = Field(default_factory=ScoringSettings)
    matchmaking: MatchmakingSettings = Field(default_factory=MatchmakingSettings)
    tournaments: TournamentsSettings = Field(default_factory=TournamentsSettings)
    bots: BotsSettings = Field(default_factory=BotsSettings)
    gateway: GatewaySettings = Field(default_factory=GatewaySettings)

    def nats_credential(self, user: str) -> Credential | None:
        """The NATS credential of ``user``; None for an open server (no credentials folder)."""
        return credential_for(self.nats_credentials, user)

    @field_validator("data_dir", mode="after")
    @classmethod
    def _absolute(cls, value: Path) -> Path:
        return value.resolve()

    @property
    def signing_keys_dir(self) -> Path:
        return self.signing_keys or self.data_dir / "keys"

    @property
    def server_key_file(self) -> Path:
        return self.server_key or self.data_dir / "keys" / "server.key"

    @property
    def matchmaking_key_file(self) -> Path:
        return self.matchmaking.table_key or self.data_dir / "keys" / "matchmaking.key"

    @property
    def trusted_matchmaking_keys(self) -> tuple[str, ...]:
        """``GAMEHALL_MATCHMAKING_KEYS``, else the public key file beside matchmaking's key."""
        return self.referee.matchmaking_keys or (str(self.matchmaking_key_file.with_suffix(".pub")),)

    @property
    def tournaments_key_file(self) -> Path:
        return self.tournaments.table_key or self.data_dir / "keys" / "tournaments.key"

    @property
    def trusted_tournament_keys(self) -> tuple[str, ...]:
        """``GAMEHALL_TOURNAMENT_KEYS``, else the public key file beside the tournaments service's key."""
        return self.referee.tournament_keys or (str(self.tournaments_key_file.with_suffix(".pub")),)

    @property
    def sqlite_url(self) -> str:
        return f"sqlite:///{self.data_dir / 'gamehall.sqlite3'}"

    @property
    def database_url(self) -> str:
        return self.db_url or self.sqlite_url


SECTIONS: dict[str, type[_Section]] = {
    "": Settings,
    "referee": RefereeSettings,
    "scoring": ScoringSettings,
    "matchmaking": MatchmakingSettings,
    "tournaments": TournamentsSettings,
    "bots": BotsSettings,
    "gateway": GatewaySettings,
}


def explicit_data_dir() -> Path | None:
    """``GAMEHALL_DATA_DIR`` when it is set and not empty (the command line's data folder rule
    looks for a ``.gamehall`` folder upward from the current one otherwise)."""
    raw = os.environ.get("GAMEHALL_DATA_DIR", "")
    return Path(raw).expanduser() if raw else None


def load() -> Settings:
    """The settings of this process, from its environment (a bad value stops it, naming the variable)."""
    try:
        return Settings()
    except ValidationError as exc:
        raise SystemExit(f"gamehall: a setting in the environment is not valid: {exc}") from None


def _shown(value: Any) -> str:
    if value is None:
        return "unset"
    if isinstance(value, tuple):
        return ",".join(
            ":".join(_number(v) for v in item) if isinstance(item, tuple) else str(item) for item in value
        )
    return str(value)


def _number(value: Any) -> str:
    if isinstance(value, float):
        return "inf" if value == float("inf") else f"{value:g}"
    return str(value)


def reference_rows() -> list[str]:
    """The settings as markdown table rows (variable, section, default, meaning): docs/operations.md."""
    rows = []
    for section, cls in SECTIONS.items():
        for field in cls.model_fields.values():
            if field.validation_alias is None:
                continue  # a section
            default = _shown(field.get_default(call_default_factory=True))
            rows.append(
                f"| `{field.validation_alias}` | {section or 'all'} | `{default}` | {field.description} |"
            )
    return rows
