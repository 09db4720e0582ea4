"""/readyz of a service without an HTTP server of its own (services/common/health.py)."""

from __future__ import annotations


async def test_readiness_names_each_failing_check_and_asks_to_retry() -> None:
    import asyncio

    from services.common.health import HealthServer, not_yet

    async def fine() -> None:
        return None

    server = HealthServer({"nats": not_yet("not connected to NATS"), "streams": fine})
    port = await server.start(0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n")
        await writer.drain()
        answer = (await reader.read()).decode()
        writer.close()
    finally:
        await server.stop()
    assert answer.startswith("HTTP/1.1 503 ")
    assert "Retry-After: 1\r\n" in answer
    assert '"nats": "not connected to NATS"' in answer and '"streams": "ok"' in answer


def gauge(check: str) -> float | None:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value("gamehall_ready_check", {"check": check})


async def wait_for_gauge(check: str, value: float, timeout: float = 30.0) -> None:
    import asyncio

    deadline = asyncio.get_running_loop().time() + timeout
    while gauge(check) != value:
        assert asyncio.get_running_loop().time() < deadline, f"gamehall_ready_check{{check={check!r}}} != {value}"
        await asyncio.sleep(0.02)


async def test_each_check_is_sampled_into_a_gauge_without_a_request() -> None:
    """A failing check reads 0 and a passing one 1 with nobody asking /readyz; a check that hangs
    reads 0 once its timeout has passed, and a check that recovers reads 1 again."""
    import asyncio

    from services.common.health import HealthServer

    state = {"broken": True}
    hang = asyncio.Event()

    async def failing_then_fine() -> str | None:
        return "broken" if state["broken"] else None

    async def hung() -> str | None:
        if not hang.is_set():
            await asyncio.Event().wait()  # never answers
        return None

    async def fine() -> None:
        return None

    server = HealthServer({"unit-failing": failing_then_fine, "unit-hung": hung, "unit-fine": fine}, sample_interval_s=0.05)
    await server.start(0)
    try:
        await wait_for_gauge("unit-failing", 0)
        await wait_for_gauge("unit-fine", 1)
        await wait_for_gauge("unit-hung", 0)
        state["broken"] = False
        hang.set()
        await wait_for_gauge("unit-failing", 1)
        await wait_for_gauge("unit-hung", 1)
    finally:
        await server.stop()
