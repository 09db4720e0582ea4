"""The audit re-checks the hash chain, every decision under the pinned rules, and the outcome
(ARCHITECTURE §5; issue: edit one byte of a bundle and the audit must say where)."""

from __future__ import annotations

import msgspec

from contracts.games.ugolki import MovePiece, PieceMoved
from contracts.match import MatchEnded, Outcome
from domain.audit import audit
from tests.support.bundles import chain, played_match


def test_a_complete_match_audits_clean() -> None:
    bundle, decisions = played_match(seed=3)
    report = audit(bundle)
    assert report.ok, report.problems
    assert report.finished and report.redecided == len(decisions) == report.envelopes
    assert len(report.listing) == len(decisions)


def test_one_edited_byte_is_located() -> None:
    bundle, _ = played_match(seed=4)
    k = 5
    data = bundle.envelopes[k].data
    edited = data.replace('"recorded_at":', '"recorded_at":1', 1)
    envs = list(bundle.envelopes)
    envs[k] = msgspec.structs.replace(envs[k], data=edited)
    report = audit(msgspec.structs.replace(bundle, envelopes=tuple(envs)))
    assert not report.ok
    assert any(f"envelope #{k + 2}" in p and "hash chain broken" in p for p in report.problems), (
        report.problems
    )


def test_editing_the_last_envelope_is_caught_by_the_head_hash() -> None:
    bundle, _ = played_match(seed=5)
    envs = list(bundle.envelopes)
    envs[-1] = msgspec.structs.replace(
        envs[-1], data=envs[-1].data.replace('"recorded_at":', '"recorded_at":9', 1)
    )
    report = audit(msgspec.structs.replace(bundle, envelopes=tuple(envs)))
    assert any(f"envelope #{len(envs)}" in p and "head_hash" in p for p in report.problems), report.problems


def test_an_illegal_move_with_a_rebuilt_chain_is_refused_by_the_rules() -> None:
    """A forger who re-hashes the whole chain still cannot get an illegal move past the re-decision."""
    _, decisions = played_match(seed=6)
    forged = list(decisions[:3])
    seat = forged[2][0]
    other = "black" if seat == "white" else "white"
    bogus = MovePiece(path=("a1", "h8"))
    forged.append((other, bogus, (PieceMoved(seat=other, path=("a1", "h8")),)))
    report = audit(chain("m-forged", "ugolki", forged))
    assert not report.ok
    assert any("envelope #4" in p and "reject" in p for p in report.problems), report.problems


def test_a_wrong_recorded_outcome_is_reported() -> None:
    _, decisions = played_match(seed=7)
    seat, command, events = decisions[-1]
    assert isinstance(events[-1], MatchEnded)
    flipped = MatchEnded(
        outcome=Outcome(
            ranks=tuple(reversed(events[-1].outcome.ranks)),
            reason=events[-1].outcome.reason,
            draw=events[-1].outcome.draw,
            scores=events[-1].outcome.scores,
        )
    )
    if flipped == events[-1]:
        flipped = MatchEnded(outcome=Outcome(ranks=(1, 2), reason="forged"))
    decisions[-1] = (seat, command, (*events[:-1], flipped))
    report = audit(chain("m-outcome", "ugolki", decisions))
    assert not report.ok
    assert any(f"envelope #{len(decisions)}" in p for p in report.problems), report.problems


def test_a_bundle_of_an_unknown_rules_version_is_refused() -> None:
    bundle, _ = played_match(seed=8)
    report = audit(msgspec.structs.replace(bundle, rules_version="ugolki-0"))
    assert not report.ok
    assert any("not available" in p or "rules version" in p for p in report.problems)


def test_a_card_match_audits_clean_and_re_derives_every_deal() -> None:
    """ARCHITECTURE §4: the audit of a finished card match re-derives every shuffle from the
    revealed server seed."""
    bundle, decisions = played_match(game="kings-corner", seed=11, max_moves=3000)
    report = audit(bundle)
    assert report.ok, report.problems
    assert report.finished and report.redecided == len(decisions)


def test_a_forged_deal_is_reported_at_its_envelope() -> None:
    """Swap two cards of a recorded deal and rebuild the whole chain: the deal no longer matches
    rng_v1 under the revealed seed, and the audit names the envelope."""
    from contracts.games.kings_corner import RoundDealt

    _, decisions = played_match(game="kings-corner", seed=12, max_moves=3000)
    k = next(
        i for i, (_, _, events) in enumerate(decisions) if any(isinstance(e, RoundDealt) for e in events)
    )
    seat, command, events = decisions[k]
    forged_events = []
    for e in events:
        if isinstance(e, RoundDealt):
            order = list(e.order)
            order[0], order[1] = order[1], order[0]
            e = msgspec.structs.replace(e, order=tuple(order))
        forged_events.append(e)
    decisions[k] = (seat, command, tuple(forged_events))
    report = audit(chain("m-deal", "kings-corner", decisions))
    assert not report.ok
    assert any(f"envelope #{k + 1}" in p and "order[0]" in p for p in report.problems), report.problems


def test_a_wrong_revealed_seed_is_reported() -> None:
    from contracts.match import ServerSeedRevealed

    _, decisions = played_match(game="kings-corner", seed=13, max_moves=3000)
    seat, command, events = decisions[-1]
    decisions[-1] = (
        seat,
        command,
        tuple(
            ServerSeedRevealed(server_seed="00" * 32) if isinstance(e, ServerSeedRevealed) else e
            for e in events
        ),
    )
    report = audit(chain("m-seed", "kings-corner", decisions))
    assert not report.ok
    assert any("commitment" in p for p in report.problems), report.problems
