#!/bin/sh
# Install PostgreSQL's server programs for the tests: every store test runs on SQLite and on a
# throwaway PostgreSQL cluster (tests/pgcluster.py starts it in a temporary folder and stops it).
# Debian's postgresql package; no default cluster is created or started by the install.
# BANMEN_TEST_POSTGRES=postgresql://... (a server of your own) makes the programs unnecessary.
set -eu
[ -n "${BANMEN_TEST_POSTGRES:-}" ] && exit 0
command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1 && exit 0
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing PostgreSQL (postgresql) with apt-get for the store tests..."
  export DEBIAN_FRONTEND=noninteractive
  mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/banmen-tests.conf
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  exit 0
fi
echo "PostgreSQL is missing (the store tests run on it too). As root run: apt-get install postgresql" >&2
echo "(or set BANMEN_TEST_POSTGRES to a postgresql:// URL of a server you run)." >&2
exit 1
