"""prometheus-client metrics shared by the services (counters end in _total, base units, no ids)."""

from __future__ import annotations

from collections.abc import Iterable

from prometheus_client import Counter, Gauge, Histogram

COMMANDS = Counter("gamehall_commands_total", "Commands decided by referees", ["game", "result", "code"])
COMMAND_LATENCY = Histogram(
    "gamehall_command_latency_seconds",
    "Time from receiving a command to replying",
    ["game"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
APPEND_CONFLICTS = Counter(
    "gamehall_append_conflicts_total", "Appends refused by expected sequence", ["game"]
)
STALE_REJECTIONS_AVOIDED = Counter(
    "gamehall_stale_rejections_avoided_total",
    "Rejections a referee withdrew because the log had newer decisions than its memory",
    ["game"],
)
MATCH_RELOADS = Counter("gamehall_match_reloads_total", "Match states rebuilt from the log", ["game"])
ACTIVE_MATCHES = Gauge("gamehall_active_matches", "Matches held in a referee's memory", ["game"])
MATCHES_FINISHED = Counter("gamehall_matches_finished_total", "Matches finished", ["game"])
MATCHES_EXPIRED = Counter(
    "gamehall_matches_expired_total", "Matches ended as abandoned after no decision for the idle limit", ["game"]
)
TIMEOUTS = Counter("gamehall_timeouts_total", "Seats whose clock ran out (claim_timeout.v1 decided)", ["game"])
ABANDONED_SEATS = Counter(
    "gamehall_abandoned_seats_total", "Seats gone past grace_s (claim_abandon.v1 decided)", ["game"]
)
HTTP_REQUESTS = Counter("gamehall_http_requests_total", "Gateway HTTP requests", ["route", "status"])
WS_CONNECTIONS = Gauge("gamehall_websocket_connections", "Open WebSocket connections at the gateway")
CONSUMER_EVENTS = Counter("gamehall_consumer_events_total", "Events applied by a projection", ["consumer"])
CONSUMER_LAG = Gauge(
    "gamehall_consumer_lag_events",
    "Stream messages a projection has not committed yet: those the server still holds for it plus those "
    "it holds in memory, read from the server every few seconds (also while its database is down)",
    ["consumer"],
)
CONSUMER_POSITION = Gauge(
    "gamehall_consumer_position", "The stream sequence a projection has committed (stored with its rows)", ["consumer"]
)
CONSUMER_LAST_COMMIT = Gauge(
    "gamehall_consumer_last_commit_timestamp_seconds",
    "Unix time of a projection's last committed batch (set at start too)",
    ["consumer"],
)
CONSUMER_OUT_OF_ORDER = Counter(
    "gamehall_consumer_out_of_order_total",
    "Messages a projection saw out of stream order (a repeat or a gap): never applied, the reader restarts "
    "from the stored position; 0 on a healthy stack",
    ["consumer", "kind"],
)
CONSUMER_RESETS = Counter(
    "gamehall_consumer_resets_total",
    "Times a projection's reader started again from the stored position: its server-side consumer was lost "
    "(nats-server restarted), or the stored position moved under it (a rebuild replaced the tables)",
    ["consumer", "reason"],
)
CONSUMER_COMMIT_FAILURES = Counter(
    "gamehall_consumer_commit_failures_total",
    "Batches whose transaction failed (the database down or locked): retried, never skipped",
    ["consumer"],
)
# Readiness, sampled every few seconds by every service (1: the check passes, 0: it fails), so an
# alert fires while NATS is down or hung even though /metrics still answers.
READY_CHECK = Gauge("gamehall_ready_check", "1 while a readiness check passes, 0 while it fails", ["check"])
# The supervisor (`gamehall up`, `gamehall deploy`): restarts of each service it runs.
SERVICE_RESTARTS = Counter(
    "gamehall_service_restarts_total", "Times the supervisor restarted a service that exited", ["service"]
)
SERVICE_UP = Gauge("gamehall_service_running", "1 while the supervisor's child for a service runs", ["service"])
# The standing check of derived data (`gamehall doctor`, and scoring every few minutes on a sample).
DERIVED_DIFFERING = Gauge(
    "gamehall_derived_rows_differing",
    "Rows of a read model that differ from a rebuild from the log at the last check",
    ["model"],
)
DERIVED_CHECKED = Gauge(
    "gamehall_derived_check_timestamp_seconds", "Unix time of the last finished check of a read model", ["model"]
)
# Matchmaking: who waits, and for how long.
QUEUE_DEPTH = Gauge("gamehall_matchmaking_queue_depth", "Tickets waiting in the queue", ["game"])
QUEUE_OLDEST_WAIT = Gauge(
    "gamehall_matchmaking_oldest_wait_seconds", "How long the oldest waiting ticket has waited", ["game"]
)
QUEUE_WAIT = Histogram(
    "gamehall_matchmaking_wait_seconds",
    "Time from joining the queue to being seated",
    ["game"],
    buckets=(1, 2, 5, 10, 20, 30, 60, 120, 300, 600),
)
# Refusals of the NATS server (natsio.connect's error callback): a service that tries what its
# allow-list (services/common/natsauth.py) does not give it, or someone using its credential.
NATS_PERMISSION_DENIED = Counter(
    "gamehall_nats_permission_denied_total",
    "Publishes and subscriptions the NATS server refused a service (permissions violation)",
    ["service"],
)
JETSTREAM_CONSUMERS = Gauge(
    "gamehall_jetstream_consumers", "Consumers the NATS server holds on a gamehall stream", ["stream"]
)


def init_game_series(games: Iterable[str]) -> None:
    """Create every per-game series at zero, so dashboards and alert expressions return a series
    (rate 0) before the first conflict, reload or finished match rather than nothing."""
    for game in games:
        COMMAND_LATENCY.labels(game)
        COMMANDS.labels(game, "accepted", "")
        APPEND_CONFLICTS.labels(game)
        STALE_REJECTIONS_AVOIDED.labels(game)
        MATCH_RELOADS.labels(game)
        ACTIVE_MATCHES.labels(game)
        MATCHES_FINISHED.labels(game)
        MATCHES_EXPIRED.labels(game)
        TIMEOUTS.labels(game)
        ABANDONED_SEATS.labels(game)
