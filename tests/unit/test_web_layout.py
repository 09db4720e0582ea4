"""The web client's shape: one renderer file per game in web/games/, named by its game and loaded
by that convention for the games GET /api/games lists, and no game knowledge in the page itself or
rules in a renderer."""

from __future__ import annotations

import re
from pathlib import Path

from domain.games import registry

WEB = Path(__file__).resolve().parents[2] / "web"


def app_js() -> str:
    return (WEB / "app.js").read_text()


def test_every_renderer_is_one_file_named_by_a_registered_game() -> None:
    files = {p.stem for p in (WEB / "games").glob("*.js")}
    assert files, "no renderer in web/games/"
    assert files <= set(registry.GAMES), (
        f"renderers of no registered game: {sorted(files - set(registry.GAMES))}"
    )
    for game in files:
        assert "export function create(" in (WEB / "games" / f"{game}.js").read_text()


def test_the_page_loads_a_renderer_by_its_game_name_for_the_games_the_server_lists() -> None:
    app = app_js()
    assert "import(`./games/${encodeURIComponent(game)}.js`)" in app
    assert "`/api/games?lang=${asked}`" in app


def test_the_page_names_no_game() -> None:
    body = app_js()
    for game in registry.GAMES:
        assert f'"{game}"' not in body and f"'{game}'" not in body, f"web/app.js names {game}"
    titles = [registry.get(g).title for g in registry.GAMES]
    assert not [t for t in titles if t in body], "game titles come from GET /api/games"
    assert "heuristic" not in body and "greedy" not in body, "bot strengths come from GET /api/games"


def _call_args(text: str, call: str) -> list[str]:
    """The argument text of every ``call(...)`` in ``text``, nested parentheses and strings kept."""
    out = []
    for m in re.finditer(re.escape(call) + r"\(", text):
        depth, i, quote = 1, m.end(), ""
        while i < len(text) and depth:
            c = text[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = ""
            elif c in "\"'`":
                quote = c
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        out.append(text[m.end() : i - 1].strip())
    return out


def test_renderers_send_only_listed_moves_and_parse_no_notation() -> None:
    for path in (WEB / "games").glob("*.js"):
        text = path.read_text()
        assert "legal_moves" in text, f"{path.name} does not offer the view's legal moves"
        sent = _call_args(text, "ctx.send")
        assert sent and all(arg.endswith(".command") for arg in sent), (path.name, sent)
        assert ".split(" not in text, f"{path.name} splits strings (notation parsing)"


# ------------------------------------------------------------------ the page's words
# web/i18n.js holds the page's dictionary; each renderer and module adds its own words with
# addStrings({en: {...}, ru: {...}}).  Every key the page says (t("key"), data-i18n="key")
# must be there in English and in Russian.
KEY_USE = re.compile(r"""(?<![\w.])(?:t|has)\(\s*(["'])([^"'$]+)\1""")
DYNAMIC_USE = re.compile(r"(?<![\w.])(?:t|has)\(\s*`([^`$]*)\$\{")


def _block(text: str, start: int) -> str:
    """The text of the {...} that opens at ``start``, strings and nested braces skipped."""
    depth, i, quote = 0, start, ""
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
        i += 1
    raise AssertionError("unbalanced braces")


def _top_level_keys(block: str) -> set[str]:
    """The quoted keys of a dictionary block, not those of the plural objects inside it."""
    keys: set[str] = set()
    depth, i, quote = 0, 0, ""
    while i < len(block):
        c = block[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c == '"' and depth == 0:
            end = block.index('"', i + 1)
            rest = block[end + 1 :].lstrip()
            if rest.startswith(":"):
                keys.add(block[i + 1 : end])
            i = end
        elif c in "'`":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        i += 1
    return keys


def dictionaries() -> dict[str, set[str]]:
    """Every key of the page, per language: i18n.js's DICT and every addStrings block."""
    out: dict[str, set[str]] = {"en": set(), "ru": set()}
    for path in [*WEB.glob("*.js"), *(WEB / "games").glob("*.js")]:
        text = path.read_text()
        starts = [m.end() - 1 for m in re.finditer(r"(?:const DICT =|addStrings\()\s*\{", text)]
        for start in starts:
            body = _block(text, start)
            for lang in out:
                for m in re.finditer(rf"(?<![\w\"]){lang}\s*:\s*\{{", body):
                    out[lang] |= _top_level_keys(_block(body, m.end() - 1))
    return out


def used_keys() -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(file, key) said by the page, and (file, prefix) of the keys it builds (t(`ug.${piece}`))."""
    fixed, prefixes = set(), set()
    for path in [*WEB.glob("*.js"), *(WEB / "games").glob("*.js")]:
        text = path.read_text()
        fixed |= {(path.name, m.group(2)) for m in KEY_USE.finditer(text)}
        prefixes |= {(path.name, m.group(1)) for m in DYNAMIC_USE.finditer(text)}
    html = (WEB / "index.html").read_text()
    fixed |= {("index.html", k) for k in re.findall(r'data-i18n="([^"]+)"', html)}
    return fixed, prefixes


def test_every_key_the_page_says_is_there_in_english_and_russian() -> None:
    words = dictionaries()
    assert len(words["en"]) > 300, "the dictionaries were not found"
    fixed, prefixes = used_keys()
    assert len(fixed) > 250, "the keys the page says were not found"
    for lang, keys in words.items():
        missing = sorted(f"{where}: {key}" for where, key in fixed if key not in keys)
        assert not missing, f"not in {lang}: {missing}"
        for where, prefix in prefixes:
            assert any(k.startswith(prefix) for k in keys), f"{where}: no {lang} key starts with {prefix!r}"
    assert words["en"] == words["ru"], (
        f"only in English: {sorted(words['en'] - words['ru'])}; only in Russian: {sorted(words['ru'] - words['en'])}"
    )


def test_every_card_table_renderer_says_its_words_through_i18n() -> None:
    """No English sentence is left in a renderer's markup: its words are keys with translations."""
    for path in (WEB / "games").glob("*.js"):
        text = path.read_text()
        assert "addStrings(" in text, f"{path.name} has no words of its own"
        code = text[text.index("});", text.index("addStrings(")) :]  # after the dictionary
        left = re.findall(r">\s*([A-Z][a-z]+(?: [a-z]+){1,})\s*<", code)
        assert not left, f"{path.name}: untranslated {left}"


def test_farkle_flip_combinations_are_named_in_both_languages() -> None:
    """The server names every combination in both languages (the view's pattern_names); the
    renderer draws those names and keeps none of its own."""
    from contracts.games.farkle_flip import PATTERN_NAMES
    from domain.games.farkle_flip.words import WORDS

    for name in PATTERN_NAMES:
        assert f"pattern.{name}" in WORDS.table["en"] and f"pattern.{name}" in WORDS.table["ru"], name
    renderer = (WEB / "games" / "farkle-flip.js").read_text()
    assert "pattern_names" in renderer and "ff.pattern." not in renderer


# ------------------------------------------------------------------ the server's error codes
# The page says every error a player can meet in words (errorText in web/i18n.js, "code.<code>"),
# not the server's English detail: the rejection codes of every game's contract, the error codes
# ROUTE_ERRORS declares for each route the page calls (and the edge's own), and the WebSocket's.
API_CALL = re.compile(r"""(?<![\w.])api\(\s*["`](/api/[^"`?]*)""")
SOCKET_CODE = re.compile(r"""(?:"code": |ApiError\(\d+, )"([a-z_]+)\"""")


def _route_shape(path: str) -> str:
    return re.sub(r"\$\{[^}]*\}|\{[^}]*\}", "{}", path)


def called_routes() -> set[str]:
    """The ROUTE_ERRORS keys whose path the page's api(...) calls name (any method)."""
    from services.gateway.errors import ROUTE_ERRORS

    called = set()
    for path in [*WEB.glob("*.js"), *(WEB / "games").glob("*.js")]:
        called |= {_route_shape(m.group(1)) for m in API_CALL.finditer(path.read_text())}
    assert called, "no api(...) call found in the page"
    known = {_route_shape(key.split(" ", 1)[1]) for key in ROUTE_ERRORS}
    assert called <= known, f"the page calls routes ROUTE_ERRORS does not declare: {sorted(called - known)}"
    return {key for key in ROUTE_ERRORS if _route_shape(key.split(" ", 1)[1]) in called}


def error_codes_the_page_meets() -> set[str]:
    from contracts.games.registry import CONTRACTS
    from services.gateway.errors import EDGE_CODES, ROUTE_ERRORS

    codes = {code for contract in CONTRACTS.values() for code in contract.rejection_codes}
    for key in called_routes():
        codes |= {code for listed in ROUTE_ERRORS[key].values() for code in listed}
    codes |= {code for listed in EDGE_CODES.values() for code in listed}
    sockets = WEB.parents[0] / "services" / "gateway" / "sockets.py"
    codes |= set(SOCKET_CODE.findall(sockets.read_text()))
    return codes


def test_every_error_code_the_page_meets_has_a_sentence_in_english_and_russian() -> None:
    codes = error_codes_the_page_meets()
    assert {"not_your_turn", "name_taken", "vrednyugi", "must_overtrump", "slow_consumer"} <= codes
    assert "POST /api/matches/{match_id}/commands" in called_routes()
    from contracts.games.registry import CONTRACTS

    words = dictionaries()
    for lang, keys in words.items():
        served = {code for c in CONTRACTS.values() for code, said in c.rejection_text(lang).items() if said}
        missing = sorted(code for code in codes if f"code.{code}" not in keys and code not in served)
        assert not missing, f"no {lang} sentence for {missing}"


def test_the_page_shows_server_errors_through_error_text() -> None:
    """No server detail reaches the page without its code looked up: every e.message goes
    through failure(e), and the socket's errors and refusals through errorText."""
    for path in [*WEB.glob("*.js"), *(WEB / "games").glob("*.js")]:
        if path.name in ("i18n.js", "api.js"):
            continue
        text = path.read_text()
        shown = re.findall(r"detail: e\.message|: e\.message;|\$\{msg\.detail\}|detail: reply\.detail", text)
        assert not shown, f"{path.name} shows a server detail without its code: {shown}"
    app = app_js()
    assert "errorText(msg.code, msg.detail)" in app and "errorText(reply.code, reply.detail)" in app
