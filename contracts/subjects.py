"""Every NATS subject and stream name used by gamehall (the only place such strings live)."""

from __future__ import annotations

import hashlib
import zlib

MATCH_STREAM = "GH_MATCHES"
MATCH_SUBJECTS = "match.>"
SECRET_STREAM = "GH_SECRETS"
SECRET_SUBJECTS = "secret.>"
INTEGRATION_STREAM = "GH_INTEGRATION"
INTEGRATION_SUBJECTS = "integration.>"
# Signed match certificates (certificate.<game>.<match_id>) and the referees' public keys
# (certificate.keys.<key_id>).
CERTIFICATE_STREAM = "GH_CERTIFICATES"
CERTIFICATE_SUBJECTS = "certificate.>"
PUBLIC_KEY_SUBJECTS = "certificate.keys.*"
# Disputes of finished matches: every event of one match's disputes on dispute.<match_id>
# (contracts/disputes.py).  Only the gateway and the operator command write here.
DISPUTE_STREAM = "GH_DISPUTES"
DISPUTE_SUBJECTS = "dispute.>"
# The sealing keys of running card matches (seal.<game>.<match_id>): the referee writes them, the
# gateway reads them to open each seat's cards; no other identity may read or write them.
SEAL_STREAM = "GH_SEALS"
SEAL_SUBJECTS = "seal.>"
# Tournaments: every decision of one tournament on tournament.<tournament_id>
# (contracts.tournaments.TournamentRecord); commands to the tournaments service on
# TOURNAMENT_COMMANDS (request/reply, queue group TOURNAMENTS_QUEUE).
# Seasons and leagues (contracts/seasons.py): every event of one season on season.<season_id>;
# only the operator command line appends here.
SEASON_STREAM = "GH_SEASONS"
SEASON_SUBJECTS = "season.>"
TOURNAMENT_STREAM = "GH_TOURNAMENTS"
TOURNAMENT_SUBJECTS = "tournament.>"
TOURNAMENT_COMMANDS = "tournaments.cmd"
TOURNAMENTS_QUEUE = "tournaments"
# The tournaments service's durable consumer of finished matches (its games' results), and the
# key-value bucket of the server seeds of tournaments still in registration (only it reads them).
TOURNAMENTS_CONSUMER = "tournaments"
# ... and of the disputes stream: operators' rulings on its games (services/tournaments/rulings.py).
TOURNAMENT_RULINGS_CONSUMER = "tournaments-rulings"
TOURNAMENT_SEEDS_BUCKET = "GH_TOURNAMENT_SEEDS"

DEFAULT_PARTITIONS = 4
REFEREE_QUEUE = "referees"
COMMAND_SUBJECTS = "cmd.>"  # every command subject (command_subject below)
# A referee answers this subject (queue group) so that readiness can ask "is any referee there?".
REFEREE_PING = "gamehall.ping.referee"

MATCH_CREATED = "integration.match_created"
MATCH_FINISHED = "integration.match_finished"
RATING_APPLIED = "integration.rating_applied"
TABLE_FORMED = "integration.table_formed"

# Matchmaking requests (request/reply, served by the matchmaking service).
MATCHMAKING_JOIN = "matchmaking.join"
MATCHMAKING_LEAVE = "matchmaking.leave"
MATCHMAKING_STATUS = "matchmaking.status"
MATCHMAKING_SEEKS = "matchmaking.seeks"
MATCHMAKING_TABLES = "matchmaking.tables"
MATCHMAKING_QUEUE = "matchmakers"

# The matchmaking queue: a JetStream key-value bucket (stream ``KV_GH_TICKETS``), one entry per
# player (``contracts.matchmaking.QueueEntry``) and the lease of the matchmaker forming tables.
TICKETS_BUCKET = "GH_TICKETS"
FORMING_LEASE_KEY = "lease.forming"
# Shared durable consumers: integration events for the matchmakers, formed tables for the gateways.
MATCHMAKING_CONSUMER = "matchmaking"
TABLES_CONSUMER = "gateway-tables"

# Computer players: seats handed to the bots service (request/reply; carries seat tokens, never stored).
BOTS_ASSIGN = "bots.assign"
BOTS_QUEUE = "bots"

# Durable JetStream consumers of the read models.
SCORING_CONSUMER = "scoring"
LEADERBOARD_CONSUMER = "leaderboard"
RULINGS_CONSUMER = "scoring-rulings"  # scoring, on the disputes stream
MATCH_LIST_CONSUMER = "match-list"  # scoring, on the match stream: the list of stored matches

# Expected-sequence header of JetStream (optimistic concurrency) and dedupe header.
EXPECTED_LAST_SUBJECT_SEQ = "Nats-Expected-Last-Subject-Sequence"
MSG_ID = "Nats-Msg-Id"


def match_subject(game: str, match_id: str) -> str:
    return f"match.{game}.{match_id}"


def secret_subject(game: str, match_id: str) -> str:
    return f"secret.{game}.{match_id}"


def seal_subject(game: str, match_id: str) -> str:
    return f"seal.{game}.{match_id}"


def partition_of(match_id: str, partitions: int = DEFAULT_PARTITIONS) -> int:
    return zlib.crc32(match_id.encode()) % partitions


def command_subject(game: str, match_id: str, partitions: int = DEFAULT_PARTITIONS) -> str:
    """Commands go to the referee partition that owns the match (its state is in that memory)."""
    return f"cmd.{game}.{partition_of(match_id, partitions)}.{match_id}"


def command_subscription(game: str = "*", partition: int | str = "*") -> str:
    return f"cmd.{game}.{partition}.*"


def match_id_from_subject(subject: str) -> str:
    return subject.rsplit(".", 1)[1]


def game_from_subject(subject: str) -> str:
    return subject.split(".", 2)[1]


def certificate_subject(game: str, match_id: str) -> str:
    return f"certificate.{game}.{match_id}"


def public_key_subject(key_id: str) -> str:
    return f"certificate.keys.{key_id}"


def tournament_subject(tournament_id: str) -> str:
    return f"tournament.{tournament_id}"


def dispute_subject(match_id: str) -> str:
    return f"dispute.{match_id}"


def season_subject(season_id: str) -> str:
    return f"season.{season_id}"


def dispute_id_of(match_id: str, n: int) -> str:
    return f"{match_id}-{n}"


def match_id_of_dispute(dispute_id: str) -> str:
    """The match a dispute id names ("" when it is not a dispute id)."""
    match_id, sep, n = dispute_id.rpartition("-")
    return match_id if sep and n.isdigit() and match_id and "." not in match_id else ""


def ticket_key(player: str) -> str:
    """A player's key in the tickets bucket (any player name gives a valid key)."""
    return "player." + hashlib.sha256(player.encode()).hexdigest()[:32]


def kv_stream(bucket: str) -> str:
    return f"KV_{bucket}"
