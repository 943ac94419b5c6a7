"""A PostgreSQL cluster under Patroni on one machine, loopback only: etcd, and three nodes with
synchronous replication (Debian's `patroni`, `etcd-server` and PostgreSQL 15), for the failover
tests and `scripts/ha`. Everything it starts lives in one temporary folder and is stopped, and
the folder removed, when the cluster is closed.

Run as root (as CI is), PostgreSQL and Patroni run as the `postgres` user, since PostgreSQL
refuses to run as root.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

PG_BIN = Path("/usr/lib/postgresql/15/bin")
PACKAGES = ("patroni", "etcd-server", "etcd-client")
SUPERUSER_PASSWORD = "ha-loopback"  # loopback only, a throw-away cluster
START_SECONDS = 120  # money-safe: seconds for the cluster to elect a leader and sync a standby


def missing() -> str | None:
    """Why the cluster cannot run here, or None."""
    for tool in ("patroni", "etcd"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian: apt-get install {' '.join(PACKAGES)})"
    if not (PG_BIN / "postgres").exists():
        return f"PostgreSQL 15 is not installed at {PG_BIN}"
    return None


def install() -> None:
    """The Debian packages, when run as root and they are missing."""
    if missing() and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends",
                        *PACKAGES], check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Node:
    name: str
    port: int
    api: int
    folder: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None


class Cluster:
    def __init__(self, nodes: int = 3) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="ledger-ha-"))
        self.scope = f"ledger-{os.getpid()}"
        self.etcd_port, self.etcd_peer = free_port(), free_port()
        self.nodes = [Node(f"pg{i + 1}", free_port(), free_port(), self.folder / f"pg{i + 1}")
                      for i in range(nodes)]
        self.etcd: subprocess.Popen[bytes] | None = None
        self.as_postgres = os.geteuid() == 0

    # -- where it is ---------------------------------------------------------------------------
    def url(self, dbname: str = "postgres", **more: str) -> str:
        hosts = ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)
        query = "&".join(f"{k}={v}" for k, v in {"target_session_attrs": "read-write",
                                                  **more}.items())
        return f"postgresql://postgres:{SUPERUSER_PASSWORD}@{hosts}/{dbname}?{query}"

    def node_url(self, node: Node, dbname: str = "postgres") -> str:
        return f"postgresql://postgres:{SUPERUSER_PASSWORD}@127.0.0.1:{node.port}/{dbname}"

    def members(self) -> list[dict[str, Any]]:
        for node in self.nodes:
            if node.process is None or node.process.poll() is not None:
                continue
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{node.api}/cluster",
                                            timeout=2) as answer:
                    return list(json.load(answer)["members"])
            except OSError:
                continue
        return []

    def leader(self) -> Node | None:
        for member in self.members():
            if member["role"] == "leader" and member["state"] == "running":
                return next(n for n in self.nodes if n.name == member["name"])
        return None

    def sync_standbys(self) -> list[str]:
        return [m["name"] for m in self.members()
                if m["role"] == "sync_standby" and m["state"] in ("running", "streaming")]

    # -- life ----------------------------------------------------------------------------------
    def start(self) -> Cluster:
        self.folder.chmod(0o755)
        self._etcd()
        for node in self.nodes:
            self._patroni(node)
        self.wait(lambda: self.leader() is not None and self.sync_standbys(),
                  "a leader with a synchronous standby")
        return self

    def wait(self, ready: Any, what: str, seconds: float = START_SECONDS) -> None:  # money-safe
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if ready():
                return
            time.sleep(0.5)
        raise RuntimeError(f"the Patroni cluster did not reach {what} within {seconds:.0f} s; "
                           f"its logs are in {self.folder}:\n{self.logs()}")

    def kill_leader(self) -> Node:
        """SIGKILL the leader's Patroni and its PostgreSQL, as a machine that dies."""
        leader = self.leader()
        if leader is None:
            raise RuntimeError("no leader to kill")
        pid = leader.postmaster_pid()
        assert leader.process is not None
        _signal_group(leader.process, signal.SIGKILL)  # runuser, Patroni
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        leader.process.wait()
        return leader

    def close(self) -> None:
        for node in self.nodes:
            if node.process is not None and node.process.poll() is None:
                _signal_group(node.process, signal.SIGTERM)
        for node in self.nodes:
            if node.process is not None:
                try:
                    node.process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    _signal_group(node.process, signal.SIGKILL)
            pid = node.postmaster_pid()  # a postmaster left behind by a killed Patroni
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        if self.etcd is not None:
            self.etcd.terminate()
            try:
                self.etcd.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.etcd.kill()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Self:
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc: object) -> None:
        self.close()

    def logs(self) -> str:
        tails = []
        for log in sorted(self.folder.glob("*.log")):
            tails.append(f"--- {log.name}\n" + "\n".join(
                log.read_text(errors="replace").splitlines()[-15:]))
        return "\n".join(tails)

    # -- the processes -------------------------------------------------------------------------
    def _etcd(self) -> None:
        data = self.folder / "etcd"
        peer = f"http://127.0.0.1:{self.etcd_peer}"
        client = f"http://127.0.0.1:{self.etcd_port}"
        self.etcd = subprocess.Popen(
            ["etcd", "--name", "ha", "--data-dir", str(data), "--enable-v2=true",
             "--listen-client-urls", client, "--advertise-client-urls", client,
             "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
             "--initial-cluster", f"ha={peer}"],
            stdout=(self.folder / "etcd.log").open("wb"), stderr=subprocess.STDOUT)

    def _patroni(self, node: Node) -> None:
        node.folder.mkdir(mode=0o700)
        config = {
            "scope": self.scope, "name": node.name,
            "restapi": {"listen": f"127.0.0.1:{node.api}",
                        "connect_address": f"127.0.0.1:{node.api}"},
            "etcd": {"host": f"127.0.0.1:{self.etcd_port}"},
            "bootstrap": {
                "dcs": {"ttl": 10, "loop_wait": 1, "retry_timeout": 3,
                        "synchronous_mode": True, "maximum_lag_on_failover": 0,
                        "postgresql": {"use_pg_rewind": True, "parameters": {
                            "wal_level": "logical", "hot_standby": "on",
                            "max_wal_senders": 10, "max_replication_slots": 10,
                            "wal_keep_size": "128MB"}}},
                "initdb": [{"encoding": "UTF8"}, {"locale": "C.UTF-8"}, "data-checksums"],
                "pg_hba": ["local all all trust", "host all all 127.0.0.1/32 trust",
                           "host replication all 127.0.0.1/32 trust"]},
            "postgresql": {
                "listen": f"127.0.0.1:{node.port}",
                "connect_address": f"127.0.0.1:{node.port}",
                "data_dir": str(node.data), "bin_dir": str(PG_BIN),
                "pgpass": str(node.folder / "pgpass"),
                # a standby that received WAL the new primary never had is rewound, or
                # rebuilt from it, rather than left unable to follow
                "remove_data_directory_on_rewind_failure": True,
                "remove_data_directory_on_diverged_timelines": True,
                "authentication": {
                    "superuser": {"username": "postgres", "password": SUPERUSER_PASSWORD},
                    "replication": {"username": "replicator", "password": "replicate"}},
                "parameters": {"unix_socket_directories": str(node.folder)}},
        }
        path = node.folder / "patroni.yml"
        path.write_text(json.dumps(config, indent=1))  # JSON is YAML
        command = ["patroni", str(path)]
        if self.as_postgres:
            shutil.chown(node.folder, "postgres", "postgres")
            shutil.chown(path, "postgres", "postgres")
            command = ["runuser", "-u", "postgres", "--", *command]
        log = (self.folder / f"{node.name}.log").open("wb")
        # in the node's folder: as `postgres` it cannot enter a checkout in a private folder
        node.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True, cwd=node.folder)


def _signal_group(process: subprocess.Popen[bytes], signum: int) -> None:
    try:
        os.killpg(process.pid, signum)
    except ProcessLookupError:
        pass
