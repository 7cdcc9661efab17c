#!/usr/bin/env bash
# Runs before `npm test`: the e2e specs need Debian's Chromium, the integration tests a
# PostgreSQL server on 127.0.0.1:5432 and `bench:metrics --smoke` Debian's scikit-learn. Installs or starts what is missing when it can (root or
# passwordless sudo), otherwise says exactly what to do.
set -euo pipefail
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif sudo -n true 2>/dev/null; then sudo -n "$@"; else return 1; fi; }

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Chromium is missing; installing Debian's chromium…"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
    || { echo "Install Chromium first: sudo apt-get install -y chromium (or set CHROMIUM_PATH)." >&2; exit 1; }
fi

if ! command -v pdftotext >/dev/null; then
  echo "pdftotext is missing (the PDF export's test reads the PDF's text); installing Debian's poppler-utils…"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null \
    || { echo "Install pdftotext first: sudo apt-get install -y poppler-utils." >&2; exit 1; }
fi

if ! /usr/bin/python3 -c 'import sklearn' 2>/dev/null; then
  echo "scikit-learn is missing (bench:metrics compares the engine with it, also in its smoke run); installing Debian's python3-sklearn…"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-sklearn >/dev/null \
    || { echo "Install scikit-learn first: sudo apt-get install -y python3-sklearn." >&2; exit 1; }
fi

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "PostgreSQL is not answering on 127.0.0.1:5432; starting it…"
  as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start \
    || { echo "Start PostgreSQL on 127.0.0.1:5432 (or set TEST_DATABASE_URL and E2E_DATABASE_URL)." >&2; exit 1; }
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
