"""Re-check a match from its audit bundle: hash chain, pinned rules, every decision, the outcome.

Pure: bytes in, report out.  Every decision is re-decided from the state before it with the
recorded command and compared with the recorded events, so an edited move, an illegal move,
a wrong outcome or a forged deal all show up at the envelope where they happen.

Sealed decisions (``domain/core/seal.py``) are opened with the key derived from the revealed
server seed; their public events must be exactly what the opened events show a spectator.  Before
the seed is revealed (a running match) they are folded from their public events and counted as
not yet openable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from contracts.audit import AuditBundle, AuditReport
from contracts.certificate import MatchCertificate, SignedCertificate, certificate_decoder
from contracts.codecs import codec
from contracts.envelope import EventEnvelope, Rejected
from contracts.match import MatchCreated, ServerSeedRevealed
from domain.core import match as match_layer
from domain.core import seal
from domain.core.audit import envelope_hash, genesis_hash
from domain.core.decider import Decider
from domain.core.matchlog import Folded, fold_decision
from domain.core.rng import commitment
from domain.games import registry
from domain.matchmaking import provenance

bundle_decoder = msgspec.json.Decoder(AuditBundle)


def describe(event: Any) -> str:
    data = msgspec.to_builtins(event)
    tag = data.pop("type", type(event).__name__)
    parts = []
    for key, value in data.items():
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            value = "-".join(value)
        text = str(value)
        parts.append(f"{key}={text if len(text) <= 100 else text[:99] + '…'}")
    return f"{tag} " + " ".join(parts)


def _where(i: int, env: EventEnvelope[Any] | None) -> str:
    return f"envelope #{i + 1}" + (f" (seq {env.seq})" if env is not None else "")


# Checks a certificate's signature against published keys: None when it holds, else the problem.
# The caller supplies it (signatures are a library's business, not the rules'); see
# services/common/certificates.py.
SignatureCheck = Callable[[SignedCertificate, MatchCertificate], str | None]


def audit(
    bundle: AuditBundle, verify: SignatureCheck | None = None, tables: provenance.TableCheck | None = None
) -> AuditReport:
    """The full audit of a bundle; with a certificate in it, also the certificate: its signature
    (when ``verify`` is given) and that it pins exactly this log and this outcome.  A ranked match
    must record the matchmaking table it was created for, and a recorded table must be the match's
    own; ``tables`` checks its signature with the trusted matchmaking keys (docs/audit.md "Where a
    ranked match came from")."""
    report = _with_table(bundle, _audit_log(bundle), tables)
    if bundle.certificate is None:
        return report
    problems, notes, certified_by = _certificate_problems(bundle, report, verify)
    return msgspec.structs.replace(
        report,
        ok=report.ok and not problems,
        problems=report.problems + tuple(problems),
        notes=report.notes + tuple(notes),
        certified_by=certified_by,
    )


def _certificate_problems(
    bundle: AuditBundle, report: AuditReport, verify: SignatureCheck | None
) -> tuple[list[str], list[str], str | None]:
    signed = bundle.certificate
    assert signed is not None
    problems: list[str] = []
    notes: list[str] = []
    try:
        cert = certificate_decoder.decode(signed.certificate.encode())
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return [f"certificate (key {signed.key_id}): not a valid match certificate: {exc}"], notes, None
    name = f"certificate (key {signed.key_id})"
    if verify is None:
        notes.append(f"{name}: signature not checked (no public keys given)")
    else:
        bad = verify(signed, cert)
        if bad:
            problems.append(f"{name}: {bad}")
    for field, ours in (("match_id", bundle.match_id), ("game", bundle.game), ("rules_version", bundle.rules_version)):
        if getattr(cert, field) != ours:
            problems.append(f"{name}: certifies {field} {getattr(cert, field)!r}, the bundle is {ours!r}")
    held = len(bundle.envelopes)
    if held != cert.envelopes:
        lost = "envelopes were removed from its end" if held < cert.envelopes else "envelopes were added"
        problems.append(f"{name}: covers {cert.envelopes} envelopes but the bundle holds {held} ({lost})")
    elif bundle.envelopes and envelope_hash(bundle.envelopes[-1].data.encode()) != cert.head_hash:
        problems.append(
            f"{name}: the last envelope's sha256 does not match the certified head_hash "
            f"{cert.head_hash[:16]}… (the log was changed after it was certified)"
        )
    created = _created(bundle)
    if created is not None and created.ruleset_hash != cert.ruleset_hash:
        problems.append(f"{name}: certifies ruleset {cert.ruleset_hash[:16]}…, the log {created.ruleset_hash[:16]}…")
    if report.outcome is not None and msgspec.to_builtins(cert.outcome) != report.outcome:
        problems.append(f"{name}: certifies the outcome {msgspec.to_builtins(cert.outcome)}, the log {report.outcome}")
    if report.outcome is None and report.ok:
        problems.append(f"{name}: certifies a finished match but the log in the bundle never ends it")
    certified = not problems and verify is not None
    return problems, notes, signed.key_id if certified else None


def _with_table(bundle: AuditBundle, report: AuditReport, tables: provenance.TableCheck | None) -> AuditReport:
    try:
        first = codec(bundle.game).decode_envelope(bundle.envelopes[0].data.encode())
    except (KeyError, IndexError, msgspec.DecodeError, msgspec.ValidationError):
        return report  # the log's own audit says what is wrong with it
    created = first.events[0] if first.events else None
    if not isinstance(created, MatchCreated) or (created.table is None and not created.ranked):
        return report
    problem = provenance.recorded_problem(bundle.match_id, created, first.recorded_at, tables)
    if problem is not None:
        return msgspec.structs.replace(
            report, ok=False, problems=(*report.problems, f"{_where(0, first)}: {problem}")
        )
    assert created.table is not None
    if tables is None:
        note = f"table {created.table.table_id}: signature not checked (no table keys given)"
        return msgspec.structs.replace(report, notes=(*report.notes, note))
    return msgspec.structs.replace(
        report,
        table_signed_by=created.table.key_id,
        table_signer=created.table.signer,
        table_tournament=created.table.tournament_id,
    )


def _created(bundle: AuditBundle) -> MatchCreated | None:
    try:
        first = codec(bundle.game).decode_envelope(bundle.envelopes[0].data.encode())
    except (KeyError, IndexError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    event = first.events[0] if first.events else None
    return event if isinstance(event, MatchCreated) else None


def _audit_log(bundle: AuditBundle) -> AuditReport:
    problems: list[str] = []
    listing: list[str] = []
    notes: list[str] = []
    raw = [e.data.encode() for e in bundle.envelopes]

    sealed = [0, 0]  # sealed envelopes, and those opened
    counts = _Counts()

    def report(redecided: int = 0, finished: bool = False, outcome: Any = None) -> AuditReport:
        return _with_scope(AuditReport(
            sealed=sealed[0],
            opened=sealed[1],
            need_seed=counts.need_seed,
            unknown_state=counts.unknown,
            turns_checked=counts.turns,
            match_id=bundle.match_id,
            game=bundle.game,
            rules_version=bundle.rules_version,
            ok=not problems,
            problems=tuple(problems),
            listing=tuple(listing),
            envelopes=len(raw),
            redecided=redecided,
            finished=finished,
            outcome=msgspec.to_builtins(outcome) if outcome is not None else None,
            notes=tuple(notes),
        ), counts, bundle.certificate is not None)

    if not raw:
        problems.append("the bundle holds no envelopes")
        return report()
    # 1. The hash chain over the stored bytes.
    expected = genesis_hash(bundle.match_id)
    decoded: list[EventEnvelope[Any] | None] = []
    try:
        cdc = codec(bundle.game)
    except KeyError as exc:
        problems.append(str(exc))
        return report()
    for i, data in enumerate(raw):
        try:
            env = cdc.decode_envelope(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            problems.append(f"{_where(i, None)}: not a valid {bundle.game} envelope: {exc}")
            decoded.append(None)
            expected = envelope_hash(data)
            continue
        decoded.append(env)
        if env.prev_hash != expected:
            culprit = "the match id" if i == 0 else f"envelope #{i} (its bytes were changed)"
            problems.append(
                f"{_where(i, env)}: hash chain broken: prev_hash {env.prev_hash[:16]}… does not match "
                f"sha256 of {culprit} ({expected[:16]}…)"
            )
        expected = envelope_hash(data)
        if env.match_id != bundle.match_id or env.game != bundle.game:
            problems.append(
                f"{_where(i, env)}: belongs to {env.game}/{env.match_id}, not {bundle.game}/{bundle.match_id}"
            )
        if env.seq != i + 1:
            problems.append(f"{_where(i, env)}: seq {env.seq} out of order (expected {i + 1})")
        if env.rules_version != bundle.rules_version:
            problems.append(
                f"{_where(i, env)}: rules version {env.rules_version} differs from {bundle.rules_version}"
            )
    if expected != bundle.head_hash:
        problems.append(
            f"{_where(len(raw) - 1, decoded[-1])}: its sha256 {expected[:16]}… does not match the bundle's "
            f"head_hash {bundle.head_hash[:16]}… (the last envelope was changed)"
        )
    if any(env is None for env in decoded):
        return report()
    envelopes = [env for env in decoded if env is not None]
    # 2. The pinned rules version.
    try:
        game = registry.get(bundle.game, bundle.rules_version)
    except KeyError:
        problems.append(
            f"rules version {bundle.rules_version!r} of {bundle.game} is not available to this auditor"
        )
        return report()
    # 3. Re-decide every decision from the state before it.
    first = envelopes[0].events[0] if envelopes[0].events else None
    if not isinstance(first, MatchCreated):
        problems.append(f"{_where(0, envelopes[0])}: does not start with match_created")
        return report()
    seed = _revealed_seed(envelopes)
    if first.seed_commitment:
        if seed is None:
            notes.append(
                "the server seed is not revealed yet (match running): chance events are checked "
                "for consistency only, not re-derived"
            )
        elif commitment(seed) != first.seed_commitment:
            problems.append(
                f"revealed server seed does not match the commitment {first.seed_commitment[:16]}…"
            )
            seed = None
    counts.chance, counts.seed_known = bool(first.seed_commitment), seed is not None
    if match_layer.ruleset_hash(first.ruleset) != first.ruleset_hash:
        problems.append(f"{_where(0, envelopes[0])}: ruleset_hash does not match the recorded ruleset")
    # Sealed decisions: opened with the key of the revealed seed, their public part checked.
    key = seal.seal_key(seed) if seed is not None else None
    in_clear = 0
    for i, env in enumerate(envelopes):
        if not env.sealed:
            if seal.hides_something(game, env.events):
                in_clear += 1
            continue
        sealed[0] += 1
        if key is None:
            continue
        problem, opened = _open(game, env, key)
        if problem:
            problems.append(f"{_where(i, env)}: {problem}")
            return report()
        envelopes[i] = opened
        sealed[1] += 1
    if sealed[0] > sealed[1]:
        notes.append(
            f"{sealed[0] - sealed[1]} sealed decisions are not openable yet (the server seed is not revealed): "
            "their public events are folded, their commands and hidden events are checked once the match ends"
        )
    if in_clear:
        notes.append(
            f"{in_clear} decisions hold in the clear what a spectator may not see (stored unsealed)"
        )
    state: match_layer.MatchState | None = None
    redecided = 0
    # The state is fully known until a sealed decision that cannot be opened is folded from its
    # public events; from then on decisions are not re-decided, only their seat's turn checked.
    known = True
    for i, env in enumerate(envelopes):
        listing.append(_listing_line(env))
        idle = _idle_clock_problem(env, envelopes[i - 1] if i else None) or _timeout_clock_problem(
            env, envelopes[i - 1] if i else None, first
        )
        if idle:
            problems.append(f"{_where(i, env)}: {idle}")
        if env.command is not None:
            command = codec(env.game).decode_inner_command(env.command)
            turn = _turn_problem(game, state, env, command)
            if turn:
                problems.append(f"{_where(i, env)}: {turn}")
                return report(redecided)
            counts.turns += state is not None and _is_game_move(command)
            problem = _redecide(game, state, env, command, seed) if known else _UNKNOWN_STATE
            if problem is _NEEDS_SEED:
                counts.need_seed += 1
            elif problem is _UNKNOWN_STATE:
                counts.unknown += 1
            elif problem:
                problems.append(f"{_where(i, env)}: {problem}")
                return report(redecided)
            else:
                redecided += 1
        elif env.sealed and key is None:  # a sealed one's command is in its box
            known = False
            counts.unknown += 1
        else:
            problems.append(f"{_where(i, env)}: no recorded command to re-decide")
        current: list[Any] = [None]

        def check_chance(
            before: match_layer.MatchState | None,
            event: Any,
            i: int = i,
            env: Any = env,
            current: list[Any] = current,
        ) -> None:
            current[0] = event
            if game.verify_chance is not None and before is not None and seed is not None:
                mismatch = game.verify_chance(before.game_state, event)
                if mismatch:
                    problems.append(f"{_where(i, env)}: {mismatch}")

        try:
            folded = fold_decision(
                game, Folded(state=state, seq=i), i + 1, env.events, seed, check_chance, env.recorded_at, env.seat
            )
        except Exception as exc:  # noqa: BLE001 - a corrupt log must be reported, not crash the audit
            problems.append(f"{_where(i, env)}: event {describe(current[0])} cannot be applied: {exc}")
            return report(redecided)
        state = folded.state
    assert state is not None
    # 4. The recorded outcome against the rules' outcome.
    if state.outcome is not None:
        game_outcome = game.outcome(state.game_state)
        if (
            game_outcome is not None
            and game_outcome != state.outcome
            and state.outcome.reason not in ("resignation", "draw agreed")
        ):
            problems.append(
                f"recorded outcome {state.outcome} differs from the rules' outcome {game_outcome}"
            )
    elif game.outcome(state.game_state) is not None:
        problems.append("the rules say the match is over but no match_ended was recorded")
    return report(redecided, finished=state.outcome is not None, outcome=state.outcome)


def _idle_clock_problem(env: EventEnvelope[Any], before: EventEnvelope[Any] | None) -> str | None:
    """An ``expire_idle.v1`` decision (the abandonment rule, docs/audit.md) must carry the clocks
    of the log itself: ``at`` is its own envelope's ``recorded_at`` and ``last_decision_at`` the
    one before it, so re-deciding it re-checks that the match really was idle that long."""
    command = env.command
    if not isinstance(command, dict) or command.get("type") != "expire_idle.v1":
        return None
    if env.seat is not None:
        return "expire_idle was sent by a seat (it is the platform's command)"
    if command.get("at") != env.recorded_at:
        return f"expire_idle says at={command.get('at')} but the envelope was recorded at {env.recorded_at}"
    last = before.recorded_at if before is not None else None
    if command.get("last_decision_at") != last:
        return f"expire_idle says the last decision was at {command.get('last_decision_at')}, the log says {last}"
    return None


def _timeout_clock_problem(
    env: EventEnvelope[Any], before: EventEnvelope[Any] | None, created: MatchCreated
) -> str | None:
    """Clocks (docs/audit.md "Clocks") are computed from the envelopes' ``recorded_at`` alone: in a
    match with a time control the stamps never go back, and a ``claim_timeout.v1`` is the
    platform's, stamped with its own ``at`` (so is a ``claim_abandon.v1``).  Re-deciding it then
    re-checks that it was due."""
    if created.time_control is None:
        return None
    if before is not None and env.recorded_at < before.recorded_at:
        return f"recorded at {env.recorded_at}, before the previous decision ({before.recorded_at}): the clocks cannot be derived"
    command = env.command
    if not isinstance(command, dict) or command.get("type") not in ("claim_timeout.v1", "claim_abandon.v1"):
        return None
    name = str(command["type"]).removesuffix(".v1")
    if env.seat is not None:
        return f"{name} was sent by a seat (it is the platform's command)"
    if command.get("at") != env.recorded_at:
        return f"{name} says at={command.get('at')} but the envelope was recorded at {env.recorded_at}"
    return None


def _open(
    game: Decider[Any, Any, Any, Any, Any], env: EventEnvelope[Any], key: bytes
) -> tuple[str | None, EventEnvelope[Any]]:
    """A sealed envelope opened, or the problem: it does not open, its command is in the clear, or
    its public events are not the spectator's redaction of the sealed ones (something public was
    falsified)."""
    try:
        opened = seal.open_envelope(env, key)
    except seal.SealBroken as exc:
        return f"sealed events: {exc}", env
    if env.command is not None:
        return "a sealed decision carries its command in the clear (it belongs in the sealed part)", env
    shown = [msgspec.to_builtins(e) for e in seal.public_events(game, opened.events)]
    public = [msgspec.to_builtins(e) for e in env.events]
    for k in range(max(len(shown), len(public))):
        p = public[k] if k < len(public) else None
        a = shown[k] if k < len(shown) else None
        if p != a:
            if p is None or a is None or p.get("type") != a.get("type"):
                return (
                    f"public event {k + 1} is {_short(p)} but the sealed events show a spectator {_short(a)}",
                    env,
                )
            where, pv, av = _first_difference(p, a)
            return (
                f"public event {k + 1} ({p.get('type')}): {where} is {_short(pv)} in the clear, "
                f"the sealed events show a spectator {_short(av)}",
                env,
            )
    return None, opened


def _revealed_seed(envelopes: list[EventEnvelope[Any]]) -> bytes | None:
    for env in envelopes:
        for event in env.events:
            if isinstance(event, ServerSeedRevealed):
                try:
                    return bytes.fromhex(event.server_seed)
                except ValueError:
                    return None
    return None


class _Counts:
    """Decisions the audit could not re-decide, by why, and game moves whose turn it checked."""

    def __init__(self) -> None:
        self.need_seed = 0
        self.unknown = 0
        self.turns = 0
        self.chance = False  # the match draws from a committed server seed
        self.seed_known = False  # ... and the seed is revealed in the bundle


# _redecide's answers for a decision it cannot re-decide (not a problem of the log).
_NEEDS_SEED = "the decision draws chance and the server seed is not revealed"
_UNKNOWN_STATE = "a sealed decision before it cannot be opened yet"


def _is_game_move(command: Any) -> bool:
    return not isinstance(command, (Rejected, *match_layer.MATCH_COMMAND_TYPES))


def _turn_problem(
    game: Decider[Any, Any, Any, Any, Any], state: match_layer.MatchState | None, env: EventEnvelope[Any], command: Any
) -> str | None:
    """A game move by a seat the rules do not let move at that point (checked on the folded
    state, so it holds also where a decision cannot be re-decided)."""
    if state is None or state.outcome is not None or not _is_game_move(command):
        return None
    may_move = game.to_move(state.game_state)
    if env.seat in may_move:
        return None
    return f"{env.seat} moves out of turn (the rules let {', '.join(sorted(may_move)) or 'nobody'} move)"


def _with_scope(report: AuditReport, counts: _Counts, certified: bool) -> AuditReport:
    """``report`` with what it checked and what it could not, in words."""
    if report.problems:
        return report
    checked = ["the hash chain and the head hash"]
    unchecked: list[str] = []
    if report.redecided:
        checked.append(f"{_n(report.redecided, 'decision')} re-decided by the pinned rules, identically")
    if report.turns_checked:
        checked.append(f"the turn of every game move ({report.turns_checked})")
    if report.need_seed:
        unchecked.append(f"{_n(report.need_seed, 'decision')} that draw chance (the server seed is not revealed)")
    if report.unknown_state:
        unchecked.append(f"{_n(report.unknown_state, 'decision')} after a sealed decision that cannot be opened yet")
    if counts.chance and counts.seed_known:
        checked.append("the server seed against its commitment, and every draw from it")
    elif counts.chance:
        unchecked.append("the server seed and the draws from it (not revealed)")
    if report.finished:
        checked.append("the outcome against the rules")
    else:
        unchecked.append("the outcome (the match has not ended in this bundle)")
    if not certified:
        unchecked.append("a certificate (the bundle carries none)")
    return msgspec.structs.replace(report, checked=tuple(checked), unchecked=tuple(unchecked))


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _redecide(
    game: Decider[Any, Any, Any, Any, Any],
    state: match_layer.MatchState | None,
    env: EventEnvelope[Any],
    command: Any,
    seed: bytes | None,
) -> str | None:
    if isinstance(command, Rejected):
        return f"recorded command cannot be decoded: {command.detail}"
    decided = match_layer.decide(game, state, env.seat, command, seed, env.recorded_at)
    if isinstance(decided, Rejected) and decided.code == "seed_unavailable" and seed is None:
        return _NEEDS_SEED
    if isinstance(decided, Rejected):
        return f"the rules reject the recorded command {describe(command)}: {decided.code} ({decided.detail})"
    recorded = [msgspec.to_builtins(e) for e in env.events]
    again = [msgspec.to_builtins(e) for e in decided]
    for k in range(max(len(recorded), len(again))):
        r = recorded[k] if k < len(recorded) else None
        a = again[k] if k < len(again) else None
        if r != a:
            if r is None or a is None or r.get("type") != a.get("type"):
                return f"recorded event {k + 1} is {_short(r)} but the rules decide {_short(a)}"
            where, rv, av = _first_difference(r, a)
            return f"event {k + 1} ({r.get('type')}): {where} is {_short(rv)} in the log, the rules give {_short(av)}"
    return None


def _first_difference(recorded: Any, decided: Any, path: str = "") -> tuple[str, Any, Any]:
    """The first place where two decoded events differ, as a path like ``order[0]``."""
    if isinstance(recorded, dict) and isinstance(decided, dict):
        for key in list(recorded) + [k for k in decided if k not in recorded]:
            if recorded.get(key) != decided.get(key):
                return _first_difference(
                    recorded.get(key), decided.get(key), f"{path}.{key}" if path else key
                )
    if isinstance(recorded, (list, tuple)) and isinstance(decided, (list, tuple)):
        for i in range(max(len(recorded), len(decided))):
            r = recorded[i] if i < len(recorded) else None
            d = decided[i] if i < len(decided) else None
            if r != d:
                return _first_difference(r, d, f"{path}[{i}]")
    return path or "the event", recorded, decided


def _short(value: Any, limit: int = 160) -> str:
    text = msgspec.json.encode(value).decode() if value is not None else "(nothing)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _listing_line(env: EventEnvelope[Any]) -> str:
    who = env.seat or "-"
    what = "; ".join(describe(e) for e in env.events)
    if env.sealed and env.command is None:
        what += "  [sealed, not opened]"
    return f"{env.seq:>4}  {who:<8} {what}"


def decode_bundle(data: bytes) -> AuditBundle:
    return bundle_decoder.decode(data)
