"""Fixtures of the integration tests that talk to the session's nats-server directly."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from nats.aio.client import Client

from services.common.natsio import connect, ensure_streams
from services.referee.core import Referee


@pytest.fixture
async def nc(nats_url: str) -> AsyncIterator[Client]:
    """A connection to the session's nats-server, its streams ensured."""
    client = await connect(nats_url, "test")
    await ensure_streams(client.jetstream())
    yield client
    await client.close()


@pytest.fixture
async def referee(nc: Client) -> AsyncIterator[Referee]:
    """A started referee on ``nc``, stopped after the test."""
    ref = Referee(nc, nc.jetstream())
    await ref.start()
    yield ref
    await ref.stop()
