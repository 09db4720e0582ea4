"""The TypeScript client (clients/ts) against a real nats-server, referee, scoring and gateway: the
package and its test script are compiled with the project's pinned TypeScript (installed by
`make install`, `npm ci` in clients/ts), then node runs clients/ts/test/stack.ts against the
stack: a match created, a seat's typed view, a legal move accepted, typed refusals (409, 401,
404), and the per-seat WebSocket URL of the create reply played on, with its replies and the
close of a wrong token; and docs/api.md's TypeScript example, as printed there, against a stack
with the bots service."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from contracts.games.ugolki import UGOLKI_REJECTION_CODES
from services.cli.stackrun import in_process_stack
from tests.support.gateway import open_settings, running_bots

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "clients" / "ts"
TSC = TS / "node_modules" / "typescript" / "bin" / "tsc"


def node() -> str:
    """The node binary; the TypeScript client's test needs node 20+ and the packages of `make install`."""
    path = shutil.which("node")
    if path is None:
        pytest.fail("node is not installed: the TypeScript client's test needs node 20+ and npm (then make install)")
    major = int(subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout[1:].split(".")[0])
    if major < 20:
        pytest.fail(f"node {major} is too old for the TypeScript client: it needs node 20+")
    if not TSC.exists():
        pytest.fail("clients/ts/node_modules is missing: run make install (npm ci in clients/ts; needs npm)")
    return path


def compiled(node_bin: str) -> None:
    """clients/ts/dist and the test script compiled from the sources as they are now (offline)."""
    for project in ("tsconfig.json", "test/tsconfig.json"):
        done = subprocess.run([node_bin, str(TSC), "-p", project], cwd=TS, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"tsc -p {project} failed:\n{done.stdout}{done.stderr}"


def websocket_flag(node_bin: str) -> list[str]:
    """Node 22 has a global WebSocket; node 20 has it behind a flag."""
    probe = subprocess.run([node_bin, "-e", "process.exit(typeof WebSocket === 'function' ? 0 : 1)"])
    return [] if probe.returncode == 0 else ["--experimental-websocket"]


def test_the_typescript_client_plays_against_a_running_stack(gateway: str) -> None:
    node_bin = node()
    compiled(node_bin)
    run = subprocess.run(
        [node_bin, *websocket_flag(node_bin), "test/build/stack.js", gateway],
        cwd=TS,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert run.returncode == 0 and lines and lines[-1] == {"ok": True}, run.stdout + run.stderr
    steps: dict[str, Any] = {line["step"]: line for line in lines if "step" in line}

    assert steps["created"]["seats"] == ["white", "black"]
    assert steps["created"]["websocket"].startswith(gateway.replace("http://", "ws://") + "/ws/matches/")
    assert steps["view"]["viewer"] == "white" and steps["view"]["to_move"] == ["white"]
    refused = steps["refused"]
    assert refused["status"] == 409 and refused["rejected"] == {
        "type": "rejected.v1", "code": refused["code"], "detail": refused["rejected"]["detail"], "status": 409
    }
    assert refused["bad_token"] == [401, "bad_token"] and refused["unknown"] == [404, "match_not_found"]
    assert steps["accepted"] == {"step": "accepted", "type": "accepted.v1", "seq": 2, "command_id": "m1"}
    socket = steps["socket"]
    assert socket["reply"] == "accepted.v1" and socket["accepted"] == 3 and socket["next_view_seq"] >= 3
    assert socket["refused"] == [409, "not_your_turn"]
    assert steps["socket_refused"] == {"step": "socket_refused", "close_code": 4401, "code": "bad_token"}


async def test_the_example_in_docs_api_md_runs(nats_url: str, tmp_path: Path) -> None:
    """The TypeScript example of docs/api.md, compiled as printed there, plays a match against the
    computer to the end without answering a stale view."""
    node_bin = node()
    compiled(node_bin)
    section = (ROOT / "docs" / "api.md").read_text().split("## The TypeScript client", 1)[1]
    snippet = section.split("```ts\n", 1)[1].split("```", 1)[0]
    build = TS / "test" / "build"
    build.mkdir(parents=True, exist_ok=True)
    (build / "docs_example.ts").write_text(snippet + "\nexport {};\n")
    flags = ["--strict", "--target", "ES2022", "--module", "ES2022", "--moduleResolution", "bundler"]
    flags += ["--lib", "ES2022,DOM", "--skipLibCheck", "--rootDir", str(build), "--outDir", str(build)]
    done = subprocess.run([node_bin, str(TSC), *flags, str(build / "docs_example.ts")], cwd=TS, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    source = (build / "docs_example.js").read_text()
    settings = open_settings(nats_url, tmp_path)
    async with in_process_stack(settings, ("referee", "gateway")) as url, running_bots(settings, url):
        (build / "docs_example.js").write_text(source.replace("http://127.0.0.1:8000", url))
        run = await asyncio.to_thread(
            subprocess.run,
            [node_bin, *websocket_flag(node_bin), "test/build/docs_example.js"],
            cwd=TS,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    status, kind, code = lines[0].split()
    assert (status, kind) == ("409", "rejected.v1") and code in UGOLKI_REJECTION_CODES
    assert lines[1].startswith("outcome: ") and json.loads(lines[1].split(" ", 1)[1])["ranks"]
    assert lines[2] == "refused on the socket: 0"
