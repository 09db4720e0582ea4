from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.natsserver import nats_server


@pytest.fixture(scope="session")
def nats_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real nats-server for the session; tests isolate themselves by match ids."""
    with nats_server(tmp_path_factory.mktemp("nats")) as url:
        yield url


@pytest.fixture(scope="session")
def pg_url() -> str | None:
    return os.environ.get("GAMEHALL_TEST_PG_URL") or None


@pytest.fixture
def artifacts_dir() -> Path:
    path = Path(os.environ.get("GAMEHALL_TEST_ARTIFACTS", "test-artifacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path


# Every test runs once: a test that fails once is a bug in the code or in the test.  An old
# environment may still have pytest-rerunfailures installed; neither its --reruns nor a flaky
# mark is accepted.
def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("rerunfailures") and (config.getoption("reruns", None) or 0) > 0:
        raise pytest.UsageError("the suite runs every test once: no --reruns")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rerun = [item.nodeid for item in items if item.get_closest_marker("flaky")]
    if rerun:
        raise pytest.UsageError(f"the suite runs every test once; remove the flaky mark of {rerun}")
