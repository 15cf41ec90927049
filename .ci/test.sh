#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh machine, then lint, type-check, test.
#   bash .ci/test.sh            (the README's test command)
# System packages (Chromium for the browser tests, strace for the network check, fonts for
# the sample renderer) are installed with apt-get when running as root or with sudo;
# otherwise those tests skip.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(chromium strace fonts-urw-base35 fonts-liberation2 fonts-dejavu-core
              fonts-dkg-handwriting fonts-breip fonts-comic-neue)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else SUDO="none"; fi
  if [ "$SUDO" = none ]; then
    echo "warning: cannot install ${missing[*]} (not root, no sudo): browser/font tests will skip" >&2
  else
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
fi

PY=${PYTHON:-python3}
VENV=${VENV:-.venv}
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
VENV=$(cd "$VENV" && pwd)  # absolute: mypy runs from another folder
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q -e ".[test]"

export STREAMLIT_BROWSER_GATHER_USAGE_STATS=false

echo "== ruff"
"$VENV/bin/ruff" check .
"$VENV/bin/ruff" format --check .

echo "== mypy"
# The repository root is the package `sudokucam`: type-check it under that name.
pkgroot=$(mktemp -d)
trap 'rm -rf "$pkgroot"' EXIT
ln -s "$PWD" "$pkgroot/sudokucam"
root=$PWD
(cd "$pkgroot" && MYPYPATH="$pkgroot" "$VENV/bin/mypy" --config-file "$root/pyproject.toml" -p sudokucam)

echo "== pytest"
"$VENV/bin/pytest" -q
