"""A 1000 game record writes each command under its name of §2.21.2 as records.md lists them
(``["declare_blind", s]``, ...), and reads back what it writes."""

from __future__ import annotations

from typing import Any

import pytest

from contracts.games.thousand import DeclareBlind, DeclineBlind, KeepHand, Pass, Ready, WriteOff
from contracts.match import Resign
from domain.games.thousand.record import RECORD
from tests.unit.thousand.support import CLASSIC, HANDS, deal


@pytest.mark.parametrize(
    ("command", "name"),
    [
        (DeclareBlind(), "declare_blind"),
        (DeclineBlind(), "decline_blind"),
        (KeepHand(), "keep_hand"),
        (Pass(), "pass"),
        (WriteOff(), "write_off"),
        (Resign(), "resign"),
        (Ready(), "ready"),
    ],
)
def test_a_command_without_arguments_is_written_under_its_name_2_21_2(command: Any, name: str) -> None:
    s = deal(CLASSIC, HANDS)
    action = RECORD.format_action(s, "p2", command)
    assert action == [name, 1]
    assert RECORD.parse_action(s, "p2", action) == command
