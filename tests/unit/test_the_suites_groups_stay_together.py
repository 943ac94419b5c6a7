"""A whole run spreads the tests over processes but keeps each `xdist_group` on one (`scripts/
test`: `--dist loadgroup`), so a module's expensive fixture (a simulated week, a Patroni
cluster) is built once. pytest 9 broke that silently with pytest-xdist (each test ran where it
fell, and every process built the fixture again): this runs a group of two under the suite's
own options and asks where they ran."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SAMPLE = '''
import os
import pytest

pytestmark = pytest.mark.xdist_group("together")


@pytest.mark.parametrize("n", range(4))
def test_where(n):
    with open(os.environ["GROUP_LOG"], "a") as log:
        log.write(os.environ["PYTEST_XDIST_WORKER"] + " ")
'''


def test_a_group_runs_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    (tmp_path / "test_other.py").write_text("def test_other():\n    pass\n")
    log = tmp_path / "workers.log"
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2",
                           "--dist", "loadgroup", "-q", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "GROUP_LOG": str(log)})
    assert done.returncode == 0, done.stdout + done.stderr
    ran_on = log.read_text().split()
    assert len(ran_on) == 4 and len(set(ran_on)) == 1, ran_on
