"""The end of a 1000 deal (rules/thousand-and-farkle-flip.md §2.21.4) and the match's outcome.

``score_deal`` runs the steps of the end-of-deal algorithm of §2.21.4 in its order (Q16: deltas ->
freezes -> bolts -> apply -> barrel -> самосвал -> win -> golden-kon restart), one function each,
on a working ``Tally`` of the deal; the rotation of the dealer is the fold of ``DealScored``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from contracts.games.thousand import DealScored, SeatScore
from contracts.match import Outcome
from domain.games.thousand.legal import hand_points
from domain.games.thousand.rules import half5, round5
from domain.games.thousand.state import TState


@dataclass
class Tally:
    """The deal being scored: per seat its raw points, delta, marks and the counters the steps
    change (bolts, write-offs, the barrel), started from the state's."""

    s: TState
    raw: list[int]
    delta: list[int]
    marks: list[list[str]]
    writeoffs: list[int]
    bolts: list[int]
    on: list[bool]  # on the barrel
    attempts: list[int]
    falls: list[int]
    disabled: list[bool]
    score: list[int] = field(default_factory=list)
    used: list[bool] = field(default_factory=list)  # a barrel attempt used this deal
    fell: list[bool] = field(default_factory=list)
    frozen: list[bool] = field(default_factory=list)
    made: bool = False
    win_barrel: int = -1  # the sitter whose barrel succeeded
    bolt_eligible: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, s: TState) -> Tally:
        n = len(s.seats)
        return cls(
            s=s,
            raw=[0] * n,
            delta=[0] * n,
            marks=[[] for _ in range(n)],
            writeoffs=list(s.writeoffs),
            bolts=list(s.bolts),
            on=list(s.barrel_on),
            attempts=list(s.attempts),
            falls=list(s.falls),
            disabled=list(s.disabled),
            used=[False] * n,
            fell=[False] * n,
            frozen=[False] * n,
        )

    @property
    def contract(self) -> int:
        """c: the final contract (the winning bid W on a write-off)."""
        return self.s.bid if self.s.written_off else self.s.contract

    def fall(self, p: int) -> None:
        """``p`` falls off the barrel (on := false, falls++)."""
        self.on[p] = False
        self.falls[p] += 1
        self.fell[p] = True
        self.marks[p].append("fall")


def raw_points(t: Tally) -> None:
    """raw[p] = card points won + marriages credited to p + ``last_trick_bonus`` for the winner of
    trick 8 (§2.21.4; nothing on a write-off)."""
    s = t.s
    if s.written_off:
        return
    for p in s.active():
        bonus = s.rules.last_trick_bonus if p == s.last_winner else 0
        t.raw[p] = s.won_points[p] + s.marriage_pts[p] + bonus


def deltas(t: Tally) -> None:
    """The write-off (W1: −W and 60 each; W2: −W and half5(W); W3: 0 and half5(W), writeoffs++),
    or made = (round5(raw) if ``declarer_round_before_compare`` else raw) ≥ c, the declarer ±c
    and each defender round5(raw) (§2.21.4, §2.7)."""
    s, r = t.s, t.s.rules
    decl, c = s.declarer, t.contract
    if s.written_off:
        t.delta[decl] = -s.bid if r.writeoff_mode in ("W1", "W2") else 0
        for d in s.defenders():
            t.delta[d] = 60 if r.writeoff_mode == "W1" else half5(s.bid)
        t.writeoffs[decl] += 1
        t.marks[decl].append("write_off")
        return
    compared = round5(t.raw[decl]) if r.declarer_round_before_compare else t.raw[decl]
    t.made = compared >= c
    t.delta[decl] = c if t.made else -c
    for d in s.defenders():
        t.delta[d] = round5(t.raw[d])


def multiply(t: Tally) -> None:
    """delta[p] *= mult[p] = (2 in a golden deal) × (2 for a blind declarer) (§2.15, §2.14)."""
    s = t.s
    for p in s.active():
        t.delta[p] *= (2 if s.golden else 1) * (2 if p == s.declarer and s.blind_declarer else 1)


def barrel_declarer(t: Tally) -> None:
    """A declarer on the barrel: success (per ``barrel_success``) scores max(c, required), not
    doubled (T8); made without success, or failed at exactly the required contract under
    ``attempt_at_required_else_minus``, scores 0 and uses an attempt; otherwise −c and a fall.
    A write-off on the barrel is scored as above and uses one attempt (T9) (§2.10, §2.21.4)."""
    s, r = t.s, t.s.rules
    decl, c, req = s.declarer, t.contract, r.required()
    if not (r.barrel_on and t.on[decl]):
        return
    if s.written_off:
        t.used[decl] = True
        return
    if r.barrel_success == "contract_ge_required_and_made":
        success = t.made and c >= req
    else:
        success = t.made and t.raw[decl] >= req
    if success:
        t.delta[decl] = max(c, req)
        t.win_barrel = decl
        t.marks[decl].append("barrel_made")
    elif t.made or r.barrel_fail_mode == "attempt_at_required_else_minus" and c == req:
        t.delta[decl] = 0
        t.used[decl] = True
    else:
        t.delta[decl] = -c
        t.fall(decl)


def freeze(t: Tally) -> None:
    """A defender on the barrel scores 0, gets no bolt and uses an attempt; with
    ``barrel_freeze_opponents`` a barrel declarer at exactly the required contract freezes the
    defenders too (delta 0, no bolt) (§2.10, §2.21.4)."""
    s, r = t.s, t.s.rules
    if not r.barrel_on:
        return
    for d in s.defenders():
        if t.on[d]:
            t.delta[d] = 0
            t.frozen[d] = True
            t.used[d] = True
            t.marks[d].append("frozen")
    if r.barrel_freeze_opponents and t.on[s.declarer] and t.contract == r.required():
        for d in s.defenders():
            if not t.frozen[d]:
                t.delta[d] = 0
                t.frozen[d] = True
                t.marks[d].append("frozen")


def sit_out(t: Tally) -> None:
    """``sitout_4p``: the dealer sitting out scores round5(the talon's card points) × the golden
    factor, or 0 on the barrel; no bolt, no attempt (§2.18, §2.21.4)."""
    s = t.s
    q = s.sitout
    if q < 0:
        return
    sitting = s.rules.barrel_on and t.on[q]
    t.delta[q] = 0 if sitting else round5(hand_points(s.talon_all())) * (2 if s.golden else 1)


def third_write_off(t: Tally) -> None:
    """Penalty (after mult, never doubled): the declarer's third write-off costs
    ``writeoff_third_penalty`` (§2.7, §2.21.4)."""
    s, r = t.s, t.s.rules
    if r.writeoff_third_penalty and s.written_off and t.writeoffs[s.declarer] == 3:
        t.delta[s.declarer] -= r.writeoff_third_penalty
        t.marks[s.declarer].append("third_write_off")


def bolts(t: Tally) -> None:
    """Penalty (never doubled): a bolt for each defender not frozen in a played deal with 0 points
    (``zero_points``) or no trick (``no_tricks``), and for the declarer of a W3 write-off; at
    ``bolt_limit`` bolts (1 when ``immediate``) −``bolt_penalty`` and the count restarts.  In
    ``consecutive`` mode a deal without a bolt resets the count, the declarer's too (§2.11, T6)."""
    s, r = t.s, t.s.rules
    decl = s.declarer
    limit = 1 if r.bolt_mode == "immediate" else r.bolt_limit
    eligible = [] if s.written_off else [d for d in s.defenders() if not t.frozen[d]]
    w3 = s.written_off and r.writeoff_mode == "W3"
    if w3:
        eligible.append(decl)
    for p in eligible:
        if p == decl and w3:
            bolt = True
        elif r.bolt_trigger == "zero_points":
            bolt = t.delta[p] == 0
        else:
            bolt = s.tricks_count[p] == 0
        if bolt:
            t.bolts[p] += 1
            t.marks[p].append("bolt")
            if t.bolts[p] >= limit:
                t.delta[p] -= r.penalty(r.bolt_penalty)
                t.bolts[p] = 0
                t.marks[p].append("bolt_penalty")
        elif r.bolt_mode == "consecutive":
            t.bolts[p] = 0
    if r.bolt_mode == "consecutive":
        for p in s.active():
            if p not in eligible and not t.frozen[p]:
                t.bolts[p] = 0


def apply(t: Tally) -> None:
    """score += delta (§2.21.4)."""
    t.score = [t.s.scores[p] + t.delta[p] for p in range(len(t.s.seats))]


def barrel_attempts(t: Tally) -> None:
    """Barrel (b): a sitter who used an attempt and did not fall counts it; the last attempt
    (``barrel_attempts``) costs ``barrel_attempts_fail_penalty`` and a fall (§2.10)."""
    r = t.s.rules
    for p in range(len(t.s.seats)):
        if t.used[p] and not t.fell[p] and t.on[p] and p != t.win_barrel:
            t.attempts[p] += 1
            t.marks[p].append("barrel_attempt")
            if t.attempts[p] >= r.barrel_attempts:
                t.score[p] -= r.penalty(r.barrel_attempts_fail_penalty)
                t.fall(p)
                t.marks[p].append("attempts_exhausted")


def _sits(t: Tally, p: int) -> None:
    t.on[p] = True
    t.attempts[p] = 0
    t.marks[p].append("barrel_on")


def _knock_off(t: Tally, sitters: list[int]) -> None:
    r = t.s.rules
    for p in sitters:
        t.score[p] -= r.penalty(r.barrel_knockoff_penalty)
        t.fall(p)
        t.marks[p].append("knocked_off")


def barrel_climbers(t: Tally) -> None:
    """Barrel (c): every non-sitter (not disabled) at ``barrel_at`` or more (below the target with
    ``barrel_jump``) is capped to ``barrel_at``; all sit unless ``barrel_exclusive``; two or more
    climbers each pay ``simultaneous_climb_penalty`` and fall, and knock a sitter off; one climber
    knocks a sitter off and sits (§2.10)."""
    r = t.s.rules
    n = len(t.s.seats)
    climbers = [
        p
        for p in range(n)
        if not t.on[p]
        and not t.disabled[p]
        and not t.fell[p]
        and p != t.win_barrel
        and t.score[p] >= r.barrel_at
        and (not r.barrel_jump or t.score[p] < r.target)
    ]
    for p in climbers:
        t.score[p] = r.barrel_at
    sitters = [p for p in range(n) if t.on[p] and p != t.win_barrel]
    if climbers and not r.barrel_exclusive:
        for p in climbers:
            _sits(t, p)
    elif len(climbers) >= 2:
        for p in climbers:
            t.score[p] -= r.penalty(r.simultaneous_climb_penalty)
            t.fall(p)
            t.marks[p].append("simultaneous_climb")
        _knock_off(t, sitters)
    elif len(climbers) == 1:
        _knock_off(t, sitters)
        _sits(t, climbers[0])


def barrel_falls(t: Tally) -> None:
    """Barrel (d): at ``barrel_falls_limit`` falls the score becomes 0 (or 5) and the falls 0; with
    ``barrel_disabled_after_falls`` the barrel is off for good (§2.10)."""
    r = t.s.rules
    if r.barrel_falls_result == "none":
        return
    for p in range(len(t.s.seats)):
        if t.falls[p] >= r.barrel_falls_limit:
            t.score[p] = 0 if r.barrel_falls_result == "zero" else 5
            t.falls[p] = 0
            t.marks[p].append("falls_reset")
            if r.barrel_disabled_after_falls:
                t.disabled[p] = True
                t.on[p] = False


def barrel(t: Tally) -> None:
    """Barrel (b)-(d) of §2.21.4 (a barrel success wins below, in ``win``)."""
    if not t.s.rules.barrel_on:
        return
    barrel_attempts(t)
    barrel_climbers(t)
    barrel_falls(t)


def samosval(t: Tally) -> None:
    """Самосвал: a score of exactly 555 or −555 becomes 0 (§2.12)."""
    if not t.s.rules.samosval:
        return
    for p in range(len(t.s.seats)):
        if t.score[p] in (555, -555):
            t.score[p] = 0
            t.marks[p].append("samosval")


def win(t: Tally) -> tuple[int, tuple[int, ...], str]:
    """Candidates: a barrel success and every seat at the target where the barrel is off,
    ``barrel_jump`` is on or its barrel is disabled; the winner by the tie rule of §2.16 (the
    higher score, then the declarer, then seat order from the dealer's left), the others ranked by
    score.  The winner, the ranks and the reason (``barrel`` or ``target``), or (-1, (), "")."""
    s, r = t.s, t.s.rules
    n = len(s.seats)
    candidates = {t.win_barrel} if t.win_barrel >= 0 else set()
    for p in range(n):
        if t.score[p] >= r.target and (not r.barrel_on or r.barrel_jump or t.disabled[p]):
            candidates.add(p)
    if not candidates:
        return -1, (), ""
    seat_order = [(s.dealer + k) % n for k in range(1, n + 1)]
    score = t.score
    winner = min(candidates, key=lambda p: (-score[p], p != s.declarer, seat_order.index(p)))
    others = [p for p in range(n) if p != winner]
    ranks = tuple(1 if p == winner else 2 + sum(1 for q in others if score[q] > score[p]) for p in range(n))
    return winner, ranks, "barrel" if winner == t.win_barrel else "target"


def golden_restart(t: Tally, winner: int) -> bool:
    """After the third golden deal with no golden declarer made, everything restarts (§2.15)."""
    s = t.s
    return (
        winner < 0
        and s.golden
        and s.golden_left == 1
        and not (s.golden_made or (t.made and not s.written_off))
    )


def _line(t: Tally, p: int, restart: bool) -> SeatScore:
    s = t.s
    return SeatScore(
        seat=s.seats[p],
        role="declarer" if p == s.declarer else "sitout" if p == s.sitout else "defender",
        raw=t.raw[p],
        delta=t.score[p] - s.scores[p],
        score=0 if restart else t.score[p],
        marks=tuple(t.marks[p]) + (("golden_restart",) if restart else ()),
        bolts=0 if restart else t.bolts[p],
        writeoffs=0 if restart else t.writeoffs[p],
        barrel=False if restart else t.on[p],
        attempts=0 if restart else t.attempts[p],
        falls=0 if restart else t.falls[p],
        disabled=False if restart else t.disabled[p],
    )


def score_deal(s: TState) -> DealScored:
    """The ``DealScored`` of a finished (or written-off) deal: the steps of §2.21.4 in order."""
    t = Tally.of(s)
    for step in (raw_points, deltas, multiply, barrel_declarer, freeze, sit_out, third_write_off, bolts):
        step(t)
    apply(t)
    barrel(t)
    samosval(t)
    winner, ranks, reason = win(t)
    restart = golden_restart(t, winner)
    return DealScored(
        deal_no=s.deal_no + 1,
        declarer=s.seats[s.declarer],
        bid=s.bid,
        contract=t.contract,
        result="written_off" if s.written_off else "made" if t.made else "failed",
        golden=s.golden,
        blind=s.blind_declarer,
        seats=tuple(_line(t, p, restart) for p in range(len(s.seats))),
        talon=s.talon_all(),
        golden_restart=restart,
        match_over=winner >= 0,
        winner=s.seats[winner] if winner >= 0 else None,
        ranks=ranks,
        reason=reason,
    )


def outcome(state: TState) -> Outcome | None:
    if state.phase != "finished":
        return None
    return Outcome(
        ranks=state.ranks,
        scores=tuple(float(x) for x in state.scores),
        reason=state.end_reason,
        draw=False,
    )
