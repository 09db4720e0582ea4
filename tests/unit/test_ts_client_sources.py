"""The TypeScript client's generated sources (clients/ts/src/schemas.ts, operations.ts) are what
scripts/ts_client.py writes now from the OpenAPI and AsyncAPI documents of the code: a type per
component schema and per socket frame, a method per operation."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ts_client", ROOT / "scripts" / "ts_client.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("ts_client", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def files(gen: ModuleType) -> dict[Path, str]:
    generated: dict[Path, str] = gen.generated()
    return generated


@pytest.fixture(scope="module")
def openapi(gen: ModuleType) -> dict[str, Any]:
    document: dict[str, Any] = gen.documents()[0]
    return document


def test_the_committed_sources_are_what_the_generator_writes(files: dict[Path, str]) -> None:
    for path, text in files.items():
        assert path.exists() and path.read_text() == text, (
            f"{path.relative_to(ROOT)} is out of date: run python scripts/ts_client.py"
        )


def test_every_schema_and_socket_frame_has_its_type(gen: ModuleType, files: dict[Path, str], openapi: dict[str, Any]) -> None:
    schemas = files[gen.SRC / "schemas.ts"]
    declared = set(re.findall(r"^export (?:interface|type) (\w+)", schemas, re.M))
    for name in openapi["components"]["schemas"]:
        assert gen.ts_name(name) in declared, name
    for name in (*gen.SOCKET_SCHEMAS, "Accepted", "ErrorBody", "GameMatchView", "CommandReply", "ServerFrame"):
        assert name in declared, name
    assert 'type: "rejected.v1";' in schemas and 'type: "accepted.v1";' in schemas


def test_every_operation_has_a_typed_method(gen: ModuleType, files: dict[Path, str], openapi: dict[str, Any]) -> None:
    operations = files[gen.SRC / "operations.ts"]
    for path, ops in openapi["paths"].items():
        for method, op in ops.items():
            name = gen.handler_name(op, method, path)
            assert re.search(rf"^  {name}\(.*\): Promise<", operations, re.M), (method, path, name)
            assert f'this.call("{method.upper()}", `' in operations
    assert re.search(r"^  createMatch\(body: CreateMatchBody, .*Promise<MatchCreated>", operations, re.M)
    assert re.search(r"^  postCommand\(matchId: string, body: .*UgolkiCommandRequest.*Promise<Accepted>", operations, re.M)
