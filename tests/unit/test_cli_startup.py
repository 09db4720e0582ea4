"""`gamehall --help` and the light commands start fast: importing the command line pulls in typer
and the standard library, not the services' heavy dependencies (issue 15, "The command line")."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = (
    "sqlalchemy", "faststream", "pydantic", "pydantic_settings", "nats", "nacl", "prometheus_client", "fastapi",
    "domain.games.registry", "httpx", "yaml", "asyncio",
)  # fmt: skip
# typer itself builds its parameter coercion with pydantic once a sub-command is parsed, so the
# sub-commands' help is held to everything else.
SERVICES = tuple(m for m in HEAVY if m != "pydantic")


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_importing_the_cli_loads_no_heavy_module() -> None:
    loaded = _modules_after("import services.cli.main")
    assert "typer" in loaded
    assert [m for m in HEAVY if m in loaded] == []


def test_help_of_rules_and_audit_loads_no_heavy_module() -> None:
    for args in (["--help"], ["rules", "--help"], ["audit", "--help"], ["apps", "--help"], ["ratings", "--help"]):
        code = (
            "import sys\nfrom services.cli.main import app\n"
            f"try:\n    app({args!r}, prog_name='gamehall')\nexcept SystemExit:\n    pass"
        )
        loaded = _modules_after(code)
        assert [m for m in SERVICES if m in loaded] == [], args


COMMANDS = (
    [], ["up"], ["serve"], ["demo"], ["export"], ["leaderboard"], ["audit"], ["audit", "shuffle"],
    ["rules"], ["rules", "show"], ["rules", "perft"], ["rules", "replay"], ["rules", "presets"],
    ["ratings"], ["ratings", "rebuild"], ["keys"], ["keys", "rotate"], ["apps"], ["apps", "add"],
    ["apps", "list"], ["apps", "revoke"], ["accounts"], ["accounts", "grant-operator"],
    ["accounts", "revoke-operator"], ["accounts", "list"], ["disputes"], ["disputes", "list"],
    ["disputes", "show"], ["disputes", "open"], ["disputes", "note"], ["disputes", "rule"],
)  # fmt: skip


def test_root_help_imports_no_sub_command_module() -> None:
    from services.cli.main import LAZY

    code = (
        "import sys\nfrom services.cli.main import app\n"
        "try:\n    app(['--help'], prog_name='gamehall')\nexcept SystemExit:\n    pass"
    )
    loaded = _modules_after(code)
    assert sorted({module for module, _, _ in LAZY.values()} & loaded) == []
    assert [m for m in HEAVY if m in loaded] == []


def test_root_help_lists_each_lazy_command_by_its_own_help() -> None:
    from typer.testing import CliRunner

    from services.cli.main import LAZY, app, load_lazy

    listed = CliRunner().invoke(app, ["--help"], prog_name="gamehall").output
    for name, (_, _, line) in LAZY.items():
        command = load_lazy(name)
        assert (command.help or "").split("\n\n")[0].replace("\n", " ").strip() == line, name
        assert f"  {name}  " in listed, name
    # a lazy command runs as before: its own help names its sub-commands
    rules = CliRunner().invoke(app, ["rules", "--help"], prog_name="gamehall")
    assert rules.exit_code == 0 and "presets" in rules.output


def test_help_has_no_type_placeholders_on_flags_and_names_match_id() -> None:
    from typer.testing import CliRunner

    from services.cli.main import app

    runner = CliRunner()
    for args in COMMANDS:
        result = runner.invoke(app, [*args, "--help"], prog_name="gamehall")
        assert result.exit_code == 0, (args, result.output)
        assert "<bool>" not in result.output and "list[str]" not in result.output, (args, result.output)
        for line in result.output.splitlines():
            # Every option's help starts with a capital letter (or a quoted name).
            if line.startswith("  -") and "  " in line.strip():
                text = line.strip().split("  ", 1)[1].strip()
                assert text[:1].isupper() or text[:1] in "`'[", (args, line)
    assert "MATCH_ID" in runner.invoke(app, ["audit", "--help"], prog_name="gamehall").output
