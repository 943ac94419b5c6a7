# Sourced by scripts/demo, scripts/test and the benchmarks: makes .venv if it is missing and
# (re)installs the project when pyproject.toml has changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PYTHON="${PYTHON:-python3}"

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "error: the ledger needs Python 3.11 or newer; '$PYTHON' is $("$PYTHON" --version 2>&1)" >&2
    exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
    echo "creating $VENV" >&2
    "$PYTHON" -m venv "$VENV"
fi
STAMP="$VENV/.installed-$(sha256sum "$ROOT/pyproject.toml" | cut -c1-16)"
if [ ! -f "$STAMP" ]; then
    echo "installing the ledger and its dependencies into $VENV" >&2
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[test]" >&2
    rm -f "$VENV"/.installed-* && touch "$STAMP"
fi
export PATH="$VENV/bin:$PATH"
