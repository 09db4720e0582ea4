"""Move text of two-seat board games in the PGN family (PGN, PDN): tag
pairs, numbered moves, comments and a result, written from and read into a game record
(rules/records.md; ``Decider.notations``).

Written: the tag pairs, then ``1. a b 2. c d ...`` where a move of the second seat with no move of
the first seat before it in its number is ``N... d``, then the result token.  Match-level actions
(a resignation, a claim, a draw by agreement, an idle expiry) are comments in the fixed form
``{gamehall: resign black}`` / ``{gamehall: expire}``, which ordinary readers skip and
``read`` turns back into the record's actions; the record's result is the ``Result`` tag with a
``Termination`` tag naming the reason.

Read: tag pairs; move numbers (``12.``, ``12...``) tell whose move follows; ``{comments}``,
``; line comments``, ``(variations)``, numeric annotation glyphs (``$14``) and annotation
symbols after a move (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``, ``+``, ``#``) are skipped;
a result token ends the game.  Errors raise ``ValueError`` naming what is malformed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

RESULTS_DEFAULT = {"1-0": (1, 2), "0-1": (2, 1), "1/2-1/2": (1, 1), "*": None}
MATCH_ACTIONS = ("resign", "timeout", "abandon", "offer_draw", "accept_draw", "decline_draw")
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_NUMBER = re.compile(r"^(\d+)(\.+)(.*)$")
_ANNOTATION = re.compile(r"[!?+#]+$")


@dataclass(frozen=True, kw_only=True)
class Style:
    """What differs between the members of the family: the game's tags and result tokens."""

    game: str  # the record's "game"
    seats: tuple[str, str]  # seat names, first to move first
    tag_of_preset: str = "Preset"
    fixed_tags: Mapping[str, str] = None  # type: ignore[assignment]  # tags always written, e.g. GameType
    results: Mapping[str, tuple[int, int] | None] = None  # type: ignore[assignment]  # token -> ranks
    default_preset: str = ""
    # A written move of a record action (its third element) and the inverse; identity by default.
    write_move: Callable[[str], str] = lambda text: text
    read_move: Callable[[str], str] = lambda text: text

    def result_tokens(self) -> Mapping[str, tuple[int, int] | None]:
        return self.results or RESULTS_DEFAULT


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write(record: Mapping[str, Any], style: Style, extra_tags: Mapping[str, str] | None = None) -> str:
    """The move text of a record of a two-seat game without deals."""
    players = list(record.get("players") or ["?", "?"])
    result = record.get("result")
    token = _result_token(style, result)
    tags: dict[str, str] = {
        "Event": str(record.get("event", "gamehall match")),
        "Site": "?",
        "Date": "????.??.??",
        "Round": "-",
        "White": players[0],
        "Black": players[1],
        "Result": token,
        **(style.fixed_tags or {}),
        style.tag_of_preset: str(record.get("preset", style.default_preset)),
    }
    if record.get("overrides"):
        tags["Overrides"] = json.dumps(record["overrides"], sort_keys=True, ensure_ascii=False)
    if isinstance(result, Mapping) and result.get("reason"):
        tags["Termination"] = str(result["reason"])
    tags.update(extra_tags or {})
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    return "\n".join(lines) + "\n\n" + _wrap(_movetext(record.get("actions") or [], style) + [token]) + "\n"


def _result_token(style: Style, result: Any) -> str:
    if not isinstance(result, Mapping) or not isinstance(result.get("ranks"), list):
        return "*"
    ranks = tuple(result["ranks"])
    for token, value in style.result_tokens().items():
        if value == ranks:
            return token
    return "*"


def _movetext(actions: Sequence[Any], style: Style) -> list[str]:
    words: list[str] = []
    number, pending = 0, False  # pending: the first seat moved in this number, the second not yet
    for action in actions:
        if action and action[0] == "move":
            text = style.write_move(action[2])
            if action[1] == 0:
                number += 1
                words.append(f"{number}. {text}")
            elif pending:
                words.append(text)
            else:  # the first seat passed: the second seat's move opens the next number
                number += 1
                words.append(f"{number}... {text}")
            pending = action[1] == 0
        elif action == ["expire"]:
            words.append("{gamehall: expire}")
        elif action and action[0] in MATCH_ACTIONS:
            words.append(f"{{gamehall: {action[0]} {style.seats[action[1]]}}}")
        else:
            raise ValueError(f"{style.game} move text has no place for the action {action!r}")
    return words


def _wrap(words: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line])


def _tag_pairs(text: str) -> tuple[dict[str, str], int]:
    tags: dict[str, str] = {}
    body_start = 0
    for match in _TAG.finditer(text):
        if text[body_start : match.start()].strip():
            break
        tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
        body_start = match.end()
    return tags, body_start


def tags(text: str) -> dict[str, str]:
    """The tag pairs at the head of a move text."""
    return _tag_pairs(text)[0]


def read(text: str, style: Style) -> dict[str, Any]:
    """The record a move text holds (``ValueError`` naming what is malformed)."""
    tags, body_start = _tag_pairs(text)
    actions, result_token = _read_moves(text[body_start:], style)
    record: dict[str, Any] = {
        "format": "gamehall-record/1",
        "game": style.game,
        "preset": tags.get(style.tag_of_preset, style.default_preset),
        "players": [tags.get("White", "white"), tags.get("Black", "black")],
        "actions": actions,
    }
    if "Overrides" in tags:
        try:
            record["overrides"] = json.loads(tags["Overrides"])
        except ValueError:
            raise ValueError("the Overrides tag is not a JSON object") from None
    token = tags.get("Result", result_token or "*")
    if result_token is not None and result_token != token:
        raise ValueError(f"the result {result_token} after the moves differs from the Result tag {token}")
    ranks = style.result_tokens().get(token)
    if token not in style.result_tokens():
        raise ValueError(f"unknown result {token!r}; known: {', '.join(style.result_tokens())}")
    if ranks is not None and "Termination" in tags:
        record["result"] = {"ranks": list(ranks), "reason": tags["Termination"]}
    return record


def _tokens(body: str) -> list[str]:
    """The words of a move text without comments, variations and glyphs (gamehall comments kept)."""
    out: list[str] = []
    i, depth = 0, 0
    while i < len(body):
        c = body[i]
        if c == "{":
            end = body.find("}", i)
            if end < 0:
                raise ValueError("a comment { is not closed")
            comment = body[i + 1 : end].strip()
            if depth == 0 and comment.startswith("gamehall:"):
                out.append("{" + comment + "}")
            i = end + 1
        elif c == ";":
            end = body.find("\n", i)
            i = len(body) if end < 0 else end + 1
        elif c == "(":
            depth += 1
            i += 1
        elif c == ")":
            if depth == 0:
                raise ValueError("a variation ) closes none that was opened")
            depth -= 1
            i += 1
        elif c.isspace():
            i += 1
        else:
            j = i
            while j < len(body) and not body[j].isspace() and body[j] not in "{}();":
                j += 1
            if depth == 0 and not body[i:j].startswith("$"):
                out.append(body[i:j])
            i = j
    if depth:
        raise ValueError("a variation ( is not closed")
    return out


def _read_moves(body: str, style: Style) -> tuple[list[Any], str | None]:
    actions: list[Any] = []
    seat = 0
    results = style.result_tokens()
    words = _tokens(body)
    for k, word in enumerate(words):
        if word.startswith("{gamehall:"):
            actions.append(_match_action(word[len("{gamehall:") : -1].split(), style))
            continue
        if word in results:
            if k != len(words) - 1:
                raise ValueError(f"moves after the result {word}")
            return actions, word
        number = _NUMBER.match(word)
        if number:
            seat = 1 if len(number.group(2)) >= 3 else 0
            word = number.group(3)
            if not word:
                continue
        move = _ANNOTATION.sub("", word)
        if not move:
            raise ValueError(f"{word!r} is not a move")
        actions.append(["move", seat, style.read_move(move)])
        seat = 1 - seat
    return actions, None


def _match_action(words: list[str], style: Style) -> list[Any]:
    if words == ["expire"]:
        return ["expire"]
    if len(words) == 2 and words[0] in MATCH_ACTIONS and words[1] in style.seats:
        return [words[0], style.seats.index(words[1])]
    raise ValueError(f"unknown gamehall comment {' '.join(words)!r}")
