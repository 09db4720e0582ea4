"""Fixtures shared by the integration tests: a connection to the session's nats-server, a
referee on it, and a gateway with a referee for a module's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from nats.aio.client import Client

from services.common.natsio import connect, ensure_streams
from services.referee.core import Referee
from tests.support.gateway import OPEN, running_gateway


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


@pytest.fixture(scope="module")
def gateway(nats_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a gateway, a referee and scoring (which projects the match list; limits off)
    that one module's tests share."""
    with running_gateway(nats_url, tmp_path_factory.mktemp("gateway"), OPEN, ("referee", "scoring", "gateway")) as url:
        yield url


@pytest.fixture
def client(gateway: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=gateway, timeout=30) as c:
        yield c
