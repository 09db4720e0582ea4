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
CONSUMER_LAG = Gauge("gamehall_consumer_lag_events", "Events a projection has not applied yet", ["consumer"])
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
