"""Helpers for checking what a seat may see."""

from __future__ import annotations

from typing import Any

import msgspec


def strings(obj: Any) -> set[str]:
    """Every string value and key inside a struct (card ids are whole strings, never substrings)."""
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(msgspec.to_builtins(obj))
    return out
