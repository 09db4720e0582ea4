"""The nats-server configurations in deploy/ are valid for the nats-server gamehall installs."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from services.common.embedded import nats_server_binary

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = sorted((ROOT / "deploy/nats").rglob("*.conf"))


@pytest.mark.parametrize("conf", CONFIGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_nats_config_parses(conf: Path) -> None:
    # Passwords of the service users come from the server's environment (deploy/nats/README.md).
    # (accounts.conf, which every server config includes.)
    names = {var for path in CONFIGS for var in re.findall(r"\$(GH_NATS_\w+)", path.read_text())}
    env = dict(os.environ, **{var: "test-password" for var in names})
    done = subprocess.run(
        [nats_server_binary(), "-c", str(conf), "-t"], capture_output=True, text=True, cwd=conf.parent, env=env
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_cluster_nodes_route_to_each_other() -> None:
    nodes = sorted((ROOT / "deploy/nats/cluster").glob("n*.conf"))
    assert len(nodes) == 3
    for i, conf in enumerate(nodes, start=1):
        text = conf.read_text()
        assert f"server_name: n{i}" in text
        routes = {f"nats-route://nats-{j}:6222" for j in (1, 2, 3) if j != i}
        assert all(r in text for r in routes) and f"nats-{i}:6222" not in text


def test_every_server_config_runs_the_embedded_servers_accounts() -> None:
    """deploy/nats/accounts.conf is the layout of services/common/natsauth.py: the same users,
    the same denials; every server config (single and cluster nodes) includes it."""
    from services.common import natsauth

    accounts = (ROOT / "deploy/nats/accounts.conf").read_text()
    for user in natsauth.ALL_USERS:
        assert f"user: {user}," in accounts, user
    for subject in (*natsauth.DENY_PUBLISH, *natsauth.DENY_SUBSCRIBE, *natsauth.DENY_QUEUE_WRITE):
        assert f'"{subject}"' in accounts, subject
    # each user's permission block denies exactly what natsauth denies it (only the matchmakers
    # write the queue bucket, only the gateway and cli append disputes)
    import re

    blocks = {
        name: set(re.findall(r'"([^"]+)"', deny))
        for name, deny in re.findall(r"^(\w+) = \{\s*publish: \{\s*deny: \[(.*?)\]", accounts, re.S | re.M)
    }
    for user in natsauth.SERVICE_USERS:
        line = next(x for x in accounts.splitlines() if f"user: {user}," in x)
        if user == natsauth.REFEREE:
            assert "permissions" not in line
            continue
        block = line.rsplit("$", 1)[1].rstrip("}").strip()
        assert blocks[block] == set(natsauth.deny_publish(user)), (user, block)
        writes_queue = not set(natsauth.DENY_QUEUE_WRITE) & set(natsauth.deny_publish(user))
        assert writes_queue is (user == natsauth.QUEUE_WRITER), user
    servers = [ROOT / "deploy/nats/nats.conf", *sorted((ROOT / "deploy/nats/cluster").glob("n*.conf"))]
    for conf in servers:
        assert "accounts.conf" in conf.read_text(), conf


def test_only_the_gateway_and_the_operator_command_write_disputes() -> None:
    """accounts.conf gives the same users as natsauth.py the right to append to dispute.>."""
    import re

    from services.common import natsauth

    accounts = (ROOT / "deploy/nats/accounts.conf").read_text()
    assert '"dispute.>"' in accounts
    for user in natsauth.SERVICE_USERS:
        if user == natsauth.REFEREE:
            continue
        line = re.search(rf"\{{user: {re.escape(user)},.*\}}", accounts)
        assert line is not None, user
        writer = user in natsauth.DISPUTE_WRITERS
        assert line.group(0).endswith("$RESTRICTED}") is writer, user
        assert ("dispute.>" in natsauth.deny_publish(user)) is not writer, user
