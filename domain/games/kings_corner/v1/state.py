"""kings-corner-1's initial state.  The state struct is the current package's ``KCState``: its later
fields (``king_charges`` of D1, ``resigned`` of D3) stay empty under kings-corner-1, whose code never
sets them, and the fields kings-corner-1 knows are pinned by tests/golden/kings_corner_1.
"""

from __future__ import annotations

from contracts.games.kings_corner import KingsCornerRuleset
from domain.games.kings_corner.state import KCState
from domain.games.kings_corner.v1.validation import seats_problem


def initial_state(ruleset: KingsCornerRuleset, seats: tuple[str, ...], seed: bytes | None) -> KCState:
    n = len(seats)
    return KCState(
        ruleset=ruleset,
        seats=tuple(seats),
        seed=seed,
        seat_problem=seats_problem(ruleset, n),
        client_seeds=("",) * n,
        ready=(False,) * n,
        totals=(0,) * n,
        out_round=(0,) * n,
        first_turn=(False,) * n,
        ace_completions=(0,) * n,
        decisions_1202=False,  # before D8 and D9 (see KCState)
    )


__all__ = ["KCState", "initial_state"]
