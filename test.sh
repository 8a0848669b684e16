#!/usr/bin/env bash
# The whole test suite: compile, unit tests, MiniCluster tests, formatting and dependency checks.
set -euo pipefail
cd "$(dirname "$0")"
exec mvn -B verify "$@"
