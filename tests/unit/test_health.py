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
