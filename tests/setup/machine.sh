#!/usr/bin/env bash
# What `make test` needs from the machine, beyond .venv: Debian's Chromium (the browser tests drive
# it; Playwright's own browser download can't be used here) and, when it can be had, a throwaway
# PostgreSQL database for tests/test_postgres.py. Installs with apt where it may (root, or sudo
# without a password); otherwise says in one line what to run. Prints the PostgreSQL URL on stdout
# (nothing when there is none); everything else goes to stderr.
set -uo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO="none"; fi
fi
have_apt() { command -v apt-get >/dev/null 2>&1; }

apt_install() {  # apt_install PACKAGE...: 0 when installed
  [ "$SUDO" != "none" ] && have_apt || return 1
  echo "make test: installing $* with apt-get (once)" >&2
  $SUDO apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

chromium="${CHROMIUM:-$(command -v chromium || true)}"
if [ -z "$chromium" ] || [ ! -x "$chromium" ]; then
  if ! apt_install chromium; then
    echo "make test: the browser tests need Chromium; run: sudo apt-get install -y chromium   (or set CHROMIUM=/path/to/chromium)" >&2
    exit 1
  fi
fi

# PostgreSQL: optional. Its tests are skipped, with this line's reason, when it can't be had.
[ -n "${COMPANION_TEST_POSTGRES_URL:-}" ] && { echo "$COMPANION_TEST_POSTGRES_URL"; exit 0; }
skip() { echo "make test: PostgreSQL tests skipped: $*" >&2; exit 0; }
command -v pg_lsclusters >/dev/null 2>&1 || apt_install postgresql || skip "no PostgreSQL (sudo apt-get install -y postgresql)"
version=$(pg_lsclusters -h 2>/dev/null | awk 'NR==1 {print $1}')
[ -n "$version" ] || skip "no PostgreSQL cluster"
as_postgres() {  # a command as the postgres user, root or not
  if [ "$(id -u)" -eq 0 ]; then su postgres -c "$(printf '%q ' "$@")"; else $SUDO -u postgres "$@"; fi
}
[ "$SUDO" != "none" ] || skip "making a test database needs root or sudo (or set COMPANION_TEST_POSTGRES_URL)"
pg_lsclusters -h | grep -q online || $SUDO pg_ctlcluster "$version" main start >&2 2>/dev/null \
  || skip "PostgreSQL $version would not start"
as_postgres psql -qc "DROP DATABASE IF EXISTS companion_test" >/dev/null 2>&1
as_postgres psql -qc "DO \$\$BEGIN CREATE ROLE companion LOGIN PASSWORD 'companion'; EXCEPTION WHEN duplicate_object THEN NULL; END\$\$" >/dev/null 2>&1
as_postgres createdb -O companion companion_test >/dev/null 2>&1 || skip "could not create the test database"
echo "postgresql+psycopg://companion:companion@127.0.0.1/companion_test"
