"""docs/api.md carries every game's commands, views, rejection codes and a worked example,
generated from the contracts by scripts/api_docs.py: the file must be what the script writes now."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import msgspec.inspect as mi

from domain.games import registry

ROOT = Path(__file__).resolve().parents[2]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("api_docs", ROOT / "scripts" / "api_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("api_docs", module)
    spec.loader.exec_module(module)
    return module


def test_docs_api_md_is_up_to_date() -> None:
    gen = generator()
    text = (ROOT / "docs" / "api.md").read_text()
    assert gen.updated(text) == text, "docs/api.md is out of date: run make docs"


def test_every_game_has_its_section_with_every_command_view_field_and_code() -> None:
    text = (ROOT / "docs" / "api.md").read_text()
    generated = text.split(generator().BEGIN, 1)[1]
    sections = generated.split("\n### ")[1:]
    assert len(sections) == len(registry.GAMES)
    for name in sorted(registry.GAMES):
        game = registry.get(name)
        section = next(s for s in sections if s.split("\n", 1)[0].endswith(f"(`{name}`)"))
        info = mi.type_info(game.contract.command_type)
        for struct in info.types if isinstance(info, mi.UnionType) else (info,):
            assert f"| `{struct.tag}` |" in section, (name, struct.tag)
        for field in game.contract.view_type.__struct_fields__:
            assert f"`{field}`:" in section, (name, field)
        for code in game.contract.rejection_codes:
            assert f"`{code}`" in section, (name, code)
        for preset in game.presets:
            assert f"- `{preset}`:" in section, (name, preset)
        assert "POST /api/matches  {" in section and '200 {"type": "accepted.v1"' in section, name
