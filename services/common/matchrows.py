"""A finished match's read-model rows (``match_history`` and its latest ``match_rulings`` row) as
the plain dicts the paged listings (``services/common/listing.py``) answer with."""

from __future__ import annotations

from typing import Any

from services.common.db import MatchRecord, MatchRuling


def ruling_dict(ruling: MatchRuling | None) -> dict[str, Any] | None:
    if ruling is None:
        return None
    return {
        "dispute_id": ruling.dispute_id,
        "ruling": ruling.ruling,
        "ranks": list(ruling.ranks),
        "scores": list(ruling.scores),
        "reason": ruling.reason,
        "ruled_by": ruling.ruled_by,
        "ruled_at": ruling.ruled_at,
    }


def match_dict(record: MatchRecord, ruling: MatchRuling | None = None) -> dict[str, Any]:
    """A match as recorded (``ranks``, ``scores``) and as it counts after its latest ruling:
    ``status`` ("" without one, else upheld / amended / void), ``ruling`` and
    ``effective_ranks`` (None for a void match)."""
    effective: list[int] | None = list(record.ranks)
    if ruling is not None and ruling.ruling == "amended":
        effective = list(ruling.ranks)
    elif ruling is not None and ruling.ruling == "void":
        effective = None
    return {
        "match_id": record.match_id,
        "game": record.game,
        "preset": record.preset,
        "season": record.season,
        "ranked": record.ranked,
        "rated": record.rated,
        "model": record.model,
        "seats": list(record.seats),
        "players": list(record.players),
        "ranks": list(record.ranks),
        "scores": list(record.scores),
        "draw": record.draw,
        "reason": record.reason,
        "moves": record.moves,
        "finished_at": record.finished_at,
        "status": ruling.ruling if ruling is not None else "",
        "ruling": ruling_dict(ruling),
        "effective_ranks": effective,
    }
