"""Schemathesis against the gateway's own OpenAPI description, on a real gateway, referee and
nats-server (issue 9): generated requests, valid and invalid, to every operation; no answer is
a 5xx and every 4xx is ``{code, detail}``.

``make test`` runs a bounded, seeded run (``GAMEHALL_FUZZ_EXAMPLES``, 25 per operation and mode);
``make fuzz`` a longer one.  The run's figures are printed (``-s`` shows them)."""

from __future__ import annotations

import collections
import os
from collections.abc import Iterator

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, seed, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.support.gateway import OPEN, running_gateway

pytestmark = pytest.mark.integration
EXAMPLES = int(os.environ.get("GAMEHALL_FUZZ_EXAMPLES", "25"))


@pytest.fixture(scope="module")
def gateway(nats_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_gateway(
        nats_url, tmp_path_factory.mktemp("fuzz"), OPEN, services=("referee", "matchmaking", "gateway")
    ) as url:
        # one real match, so that a stored match for the generated requests to meet
        httpx.post(f"{url}/api/matches", json={"game": "ugolki"}, timeout=30)
        yield url


def check_answer(response: object, statuses: collections.Counter[int], label: str) -> None:
    status = response.status_code  # type: ignore[attr-defined]
    statuses[status] += 1
    assert status < 500, f"{label}: {status} {response.text[:300]}"  # type: ignore[attr-defined]
    if status >= 400:
        ctype = response.headers.get("content-type") or [""]  # type: ignore[attr-defined]
        assert (ctype[0] if isinstance(ctype, list) else ctype).startswith("application/json"), label
        body = response.json()  # type: ignore[attr-defined]
        assert isinstance(body, dict) and isinstance(body.get("code"), str) and isinstance(body.get("detail"), str), (
            label,
            status,
            body,
        )


def fuzz_operation(operation: object, mode: GenerationMode, gateway: str, statuses: collections.Counter[int]) -> int:
    """Requests sent to one operation."""
    label = f"{operation.method.upper()} {operation.path}"  # type: ignore[attr-defined]
    strategy = operation.as_strategy(generation_mode=mode)  # type: ignore[attr-defined]
    sent = 0

    @seed(20261201)
    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def run(case: schemathesis.Case) -> None:
        nonlocal sent
        sent += 1
        check_answer(case.call(base_url=gateway, timeout=30), statuses, label)

    try:
        run()
    except Unsatisfiable:  # nothing to get wrong in this operation (no parameters, no body)
        pass
    return sent


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_generated_request_gets_a_5xx_and_every_4xx_is_typed(gateway: str, mode: GenerationMode) -> None:
    schema = schemathesis.openapi.from_url(f"{gateway}/openapi.json")
    statuses: collections.Counter[int] = collections.Counter()
    requests = sum(fuzz_operation(result.ok(), mode, gateway, statuses) for result in schema.get_all_operations())
    print(f"\nschemathesis {mode.value}: {requests} requests, statuses {dict(sorted(statuses.items()))}")
    assert requests > 0 and not any(s >= 500 for s in statuses)
