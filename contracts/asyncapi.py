"""The AsyncAPI 3.0 description of gamehall's messages: the NATS subjects the services speak on and
the match WebSocket of the gateway, generated from the msgspec contracts (like the OpenAPI of the
HTTP routes).  ``GET /asyncapi.json`` serves it; docs/api.md "Messages (AsyncAPI)" explains it.

Operations are written from the side of a program that joins the bus or opens the socket: it
*receives* what the services publish (match events, certificates, keys, disputes, integration
events) and *sends* requests that get a reply (commands to a referee, matchmaking, bot seats).
Every game has its own envelope messages on the shared channels, so a client decodes a match's
events with the schema of its game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from contracts import subjects
from contracts.api import CommandFrame, CommandReply, ErrorFrame, EventsFrame, ReplyFrame, ViewFrame
from contracts.bots import BotSeatAssigned, BotSeatTaken
from contracts.certificate import PublicKey, SignedCertificate
from contracts.disputes import DisputeOpened, NoteAdded, RulingIssued
from contracts.envelope import Accepted, CommandEnvelope, EventEnvelope, Rejected
from contracts.games.registry import CONTRACTS
from contracts.integration import MatchFinished, MatchStarted, RatingApplied, RatingsRevised, TableFormed
from contracts.match import MatchCommand, MatchEvent
from contracts.matchmaking import (
    Idle,
    JoinQueue,
    LeaveQueue,
    Left,
    ListSeeks,
    ListTables,
    OpenTables,
    Queued,
    QueueStatus,
    Seated,
    Seeks,
)
from contracts.seasons import SeasonRecord
from contracts.tournaments import TournamentRecord, TournamentViewFrame

REF = "#/components/schemas/{name}"


def _name(kind: Any) -> str:
    return getattr(kind, "__name__", str(kind))


class _Builder:
    """Channels, operations and messages, with the payload types whose schemas the doc needs."""

    def __init__(self) -> None:
        self.channels: dict[str, Any] = {}
        self.operations: dict[str, Any] = {}
        self.messages: dict[str, Any] = {}
        self.types: list[Any] = []

    def message(self, name: str, kind: Any, summary: str, title: str | None = None) -> dict[str, str]:
        self.messages[name] = {
            "name": name,
            "title": title or name,
            "summary": summary,
            "payload": len(self.types),
        }
        self.types.append(kind)
        return {"$ref": f"#/components/messages/{name}"}

    def channel(
        self,
        cid: str,
        address: str | None,
        description: str,
        messages: dict[str, dict[str, str]],
        parameters: dict[str, str] | None = None,
        server: str = "nats",
    ) -> None:
        self.channels[cid] = {
            "address": address,
            "description": description,
            "messages": messages,
            "servers": [{"$ref": f"#/servers/{server}"}],
        }
        if parameters:
            self.channels[cid]["parameters"] = {
                name: {"description": text} for name, text in parameters.items()
            }

    def operation(self, oid: str, action: str, cid: str, summary: str, reply: str | None = None) -> None:
        op: dict[str, Any] = {"action": action, "channel": {"$ref": f"#/channels/{cid}"}, "summary": summary}
        if reply is not None:
            op["reply"] = {"channel": {"$ref": f"#/channels/{reply}"}}
        self.operations[oid] = op


def _games(b: _Builder) -> None:
    envelopes, commands = {}, {}
    for game, contract in sorted(CONTRACTS.items()):
        key = game.replace("-", "_")
        events = contract.event_type | MatchEvent
        commands_of = contract.command_type | MatchCommand
        envelopes[f"{key}_envelope"] = b.message(
            f"{key}_envelope",
            EventEnvelope[events],  # type: ignore[valid-type]
            f"One stored decision of a {game} match: its command, events and hash-chain link.",
        )
        commands[f"{key}_command"] = b.message(
            f"{key}_command",
            CommandEnvelope[commands_of],  # type: ignore[valid-type]
            f"A command for a {game} match, sent to the referee that owns its partition.",
        )
    game_param = "The game's name (GET /api/games)."
    b.channel(
        "matchEvents",
        "match.{game}.{match_id}",
        "The append-only log of one match (JetStream stream GH_MATCHES): one envelope per decision.",
        envelopes,
        {"game": game_param, "match_id": "The match id."},
    )
    b.channel(
        "commands",
        "cmd.{game}.{partition}.{match_id}",
        "Commands to the referees (a queue group): the partition is sha256(match_id) mod the partitions.",
        commands,
        {"game": game_param, "partition": "0..partitions-1", "match_id": "The match id."},
    )
    b.channel(
        "commandReplies",
        None,
        "The referee's answer to a command, on the request's reply subject.",
        {
            "accepted": b.message("accepted", Accepted, "The command was decided and stored.", "accepted.v1"),
            "rejected": b.message(
                "rejected", Rejected, "The command was refused: a stable code per game.", "rejected.v1"
            ),
        },
    )
    b.operation("receiveMatchEvents", "receive", "matchEvents", "Follow the decisions of a match.")
    b.operation(
        "sendCommand", "send", "commands", "Send a command; the referee replies.", reply="commandReplies"
    )


def _platform(b: _Builder) -> None:
    b.channel(
        "certificates",
        "certificate.{game}.{match_id}",
        "The referee's signed certificate of a finished match (stream GH_CERTIFICATES).",
        {"certificate": b.message("certificate", SignedCertificate, "A signed match certificate.")},
        {"game": "The game's name.", "match_id": "The match id."},
    )
    b.channel(
        "publicKeys",
        subjects.PUBLIC_KEY_SUBJECTS.replace("*", "{key_id}"),
        "The public keys that sign certificates; the last record of a key is its state (retired or not).",
        {"public_key": b.message("public_key", PublicKey, "An Ed25519 public key with its validity.")},
        {"key_id": "The key id."},
    )
    b.channel(
        "disputes",
        "dispute.{match_id}",
        "Disputes of finished matches and their rulings (stream GH_DISPUTES).",
        {
            "dispute_opened": b.message("dispute_opened", DisputeOpened, "A dispute was opened."),
            "dispute_note": b.message("dispute_note", NoteAdded, "A note on a dispute."),
            "dispute_ruling": b.message("dispute_ruling", RulingIssued, "An operator's ruling."),
        },
        {"match_id": "The disputed match."},
    )
    b.channel(
        "tournaments",
        "tournament.{tournament_id}",
        "Tournaments (stream GH_TOURNAMENTS, appended by the tournaments service): each message one "
        "decision, hash-chained to the one before (prev_hash: sha256 of its stored bytes).",
        {"tournament_record": b.message("tournament_record", TournamentRecord, "One decision of a tournament.")},
        {"tournament_id": "The tournament's id."},
    )
    b.channel(
        "seasons",
        "season.{season_id}",
        "Seasons and leagues with divisions (stream GH_SEASONS, appended by the operator command "
        "line only): each message one decision's events (opened with its placements, an end "
        "scheduled, closed with the frozen standings, promotions and relegations).",
        {"season_record": b.message("season_record", SeasonRecord, "The events of one decision on a season.")},
        {"season_id": "The season's id."},
    )
    for cid, subject, kind, text in (
        ("matchCreated", subjects.MATCH_CREATED, MatchStarted, "A match was created."),
        ("matchFinished", subjects.MATCH_FINISHED, MatchFinished, "A match ended, with its outcome."),
        ("ratingApplied", subjects.RATING_APPLIED, RatingApplied, "A rated match changed ratings."),
        (
            "ratingsRevised",
            subjects.RATING_APPLIED.replace("rating_applied", "ratings_revised"),
            RatingsRevised,
            "Ratings were recomputed after a ruling.",
        ),
        ("tableFormed", subjects.TABLE_FORMED, TableFormed, "Matchmaking formed a table."),
    ):
        b.channel(cid, subject, f"{text} (stream GH_INTEGRATION).", {cid: b.message(cid, kind, text)})
        b.operation(f"receive{cid[0].upper()}{cid[1:]}", "receive", cid, text)
    for cid in ("certificates", "publicKeys", "disputes", "tournaments", "seasons"):
        b.operation(f"receive{cid[0].upper()}{cid[1:]}", "receive", cid, b.channels[cid]["description"])


def _requests(b: _Builder) -> None:
    requests: Iterable[tuple[str, str, Any]] = (
        ("matchmakingJoin", subjects.MATCHMAKING_JOIN, JoinQueue),
        ("matchmakingLeave", subjects.MATCHMAKING_LEAVE, LeaveQueue),
        ("matchmakingStatus", subjects.MATCHMAKING_STATUS, QueueStatus),
        ("matchmakingSeeks", subjects.MATCHMAKING_SEEKS, ListSeeks),
        ("matchmakingTables", subjects.MATCHMAKING_TABLES, ListTables),
    )
    replies = {
        name: b.message(name, kind, f"Matchmaking's answer: {name}.")
        for name, kind in (
            ("queued", Queued),
            ("left_queue", Left),
            ("seated", Seated),
            ("idle", Idle),
            ("seeks", Seeks),
            ("open_tables", OpenTables),
        )
    }
    replies["rejected"] = {"$ref": "#/components/messages/rejected"}
    b.channel("matchmakingReplies", None, "Matchmaking's answer on the request's reply subject.", replies)
    for cid, subject, kind in requests:
        b.channel(
            cid,
            subject,
            f"A {_name(kind)} request to matchmaking (a queue group).",
            {cid: b.message(cid, kind, f"A {_name(kind)} request.")},
        )
        b.operation(
            f"send{cid[0].upper()}{cid[1:]}",
            "send",
            cid,
            f"Ask matchmaking: {_name(kind)}.",
            "matchmakingReplies",
        )
    b.channel(
        "botsAssign",
        subjects.BOTS_ASSIGN,
        "A seat handed to the computer players' service.",
        {"bot_seat_assigned": b.message("bot_seat_assigned", BotSeatAssigned, "A seat to play.")},
    )
    b.channel(
        "botsReplies",
        None,
        "The bots service's answer.",
        {
            "bot_seat_taken": b.message("bot_seat_taken", BotSeatTaken, "The seat was taken."),
            "rejected": {"$ref": "#/components/messages/rejected"},
        },
    )
    b.operation("sendBotsAssign", "send", "botsAssign", "Hand a seat to a computer player.", "botsReplies")


def _socket(b: _Builder) -> None:
    b.channel(
        "matchSocket",
        "/ws/matches/{match_id}",
        "The gateway's live socket of one match (?token=SEAT_TOKEN to play a seat, &since=SEQ, "
        "&lang=en|ru): events, then the view after every decision, and the reply to each command.",
        {
            "events_frame": b.message(
                "events_frame", EventsFrame, "Decisions since the last frame.", "events"
            ),
            "view_frame": b.message("view_frame", ViewFrame, "The match as this seat sees it now.", "view"),
            "reply_frame": b.message(
                "reply_frame", ReplyFrame, "The answer to a command sent here.", "reply"
            ),
            "error_frame": b.message(
                "error_frame", ErrorFrame, "Sent before a close with a 44xx code.", "error"
            ),
            "command_frame": b.message(
                "command_frame", CommandFrame, "A command for this socket's seat.", "command"
            ),
        },
        {"match_id": "The match id."},
        server="gateway",
    )
    b.operation(
        "receiveMatchSocket", "receive", "matchSocket", "Watch a match live (events, views, replies)."
    )
    b.operation("sendOnMatchSocket", "send", "matchSocket", "Send a command as the socket's seat.")
    b.channel(
        "tournamentSocket",
        "/ws/tournaments/{tournament_id}",
        "The gateway's live socket of one tournament (&lang=en|ru): its view at once and after every "
        "record stored for it (the latest only, for a socket that reads slowly).",
        {
            "tournament_view_frame": b.message(
                "tournament_view_frame", TournamentViewFrame, "The tournament as it stands now.", "view"
            ),
            "tournament_error_frame": b.message(
                "tournament_error_frame", ErrorFrame, "Sent before a close with a 44xx code.", "error"
            ),
        },
        {"tournament_id": "The tournament's id."},
        server="gateway",
    )
    b.operation("receiveTournamentSocket", "receive", "tournamentSocket", "Watch a tournament live (its views).")
    b.types.append(CommandReply)


def _asyncapi_schemas(schemas: dict[str, Any], messages: dict[str, Any]) -> dict[str, Any]:
    """msgspec's JSON Schemas as AsyncAPI Schema Objects: a ``discriminator`` is the name of the
    tag property (OpenAPI's object form is not AsyncAPI's), and a generic envelope's schema is named
    after its message (``ugolki_envelope``) instead of the union it is generic over."""
    renamed: dict[str, str] = {}
    for name, message in messages.items():
        ref = message["payload"].get("$ref", "")
        old = ref.rsplit("/", 1)[-1]
        if "_" in old and old.split("_", 1)[0] in ("EventEnvelope", "CommandEnvelope"):
            renamed[old] = name
            message["payload"] = {"$ref": REF.format(name=name)}

    def fix(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: fix(v) for k, v in node.items()}
            if isinstance(out.get("discriminator"), dict):
                out["discriminator"] = out["discriminator"]["propertyName"]
            ref = out.get("$ref")
            if isinstance(ref, str) and ref.rsplit("/", 1)[-1] in renamed:
                out["$ref"] = REF.format(name=renamed[ref.rsplit("/", 1)[-1]])
            return out
        if isinstance(node, list):
            return [fix(v) for v in node]
        return node

    return {renamed.get(k, k): fix(v) for k, v in schemas.items()}


def document(
    version: str, gateway_host: str = "127.0.0.1:8000", nats_host: str = "127.0.0.1:4222"
) -> dict[str, Any]:
    """The AsyncAPI 3.0.0 document (a JSON object)."""
    b = _Builder()
    _games(b)
    _platform(b)
    _requests(b)
    _socket(b)
    refs, schemas = msgspec.json.schema_components(b.types, ref_template=REF)
    for message in b.messages.values():
        message["payload"] = refs[message["payload"]]
    schemas = _asyncapi_schemas(schemas, b.messages)
    for channel in b.channels.values():
        if channel["address"] is None:
            channel.pop("servers")
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "gamehall messages",
            "version": version,
            "description": __doc__.split("\n\n")[0].replace("\n", " "),
        },
        "defaultContentType": "application/json",
        "servers": {
            "nats": {"host": nats_host, "protocol": "nats", "description": "The message bus (JetStream)."},
            "gateway": {"host": gateway_host, "protocol": "ws", "description": "The gateway's WebSocket."},
        },
        "channels": b.channels,
        "operations": b.operations,
        "components": {"schemas": schemas, "messages": b.messages},
    }
