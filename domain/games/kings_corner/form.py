"""The ruleset as rules/kings-corner.md §4.1 writes it (Decision D10): ``match_end`` is
``single_round``, ``fixed_rounds:N``, ``target:T`` or ``elimination:T``, one parameter for what
the ruleset struct keeps as ``match_end`` and ``match_end_value``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.core.decider import RulesetForm

_KINDS = ("single_round", "fixed_rounds", "target", "elimination")


def read(written: Mapping[str, Any]) -> dict[str, Any]:
    """§4.1 parameters -> the struct's: ``match_end = "fixed_rounds:5"`` becomes
    ``match_end = "fixed_rounds"`` and ``match_end_value = 5``; the split form passes as it is."""
    out = dict(written)
    value = out.get("match_end")
    if isinstance(value, str) and ":" in value:
        kind, _, number = value.partition(":")
        if kind not in _KINDS[1:] or not number.isdigit():
            raise ValueError(
                f"match_end: single_round, fixed_rounds:N, target:T or elimination:T (got {value!r})"
            )
        if "match_end_value" in out and out["match_end_value"] != int(number):
            raise ValueError(f"match_end {value!r} and match_end_value {out['match_end_value']!r} disagree")
        out["match_end"], out["match_end_value"] = kind, int(number)
    return out


def write(data: Mapping[str, Any]) -> dict[str, Any]:
    """The struct's parameters -> §4.1's: one ``match_end`` with its number."""
    out = dict(data)
    if "match_end" in out:
        kind = out["match_end"]
        number = out.pop("match_end_value", None)
        if kind != "single_round" and number is not None:
            out["match_end"] = f"{kind}:{number}"
    return out


FORM = RulesetForm(read=read, write=write)
