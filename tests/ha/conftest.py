"""One Patroni cluster for the HA tests (about 7 s to start), stopped and removed after them."""

from __future__ import annotations

import pytest

from tests.ha.cluster import Cluster, install, missing


@pytest.fixture(scope="session")
def cluster():
    install()
    why = missing()
    if why:
        pytest.skip(f"no Patroni cluster here: {why}")
    with Cluster() as running:
        yield running
