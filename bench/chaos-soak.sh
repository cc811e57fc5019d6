#!/usr/bin/env bash
# Chaos soak: two instances of bench/soak-app on one redis-server under mixed load over every algorithm, failure mode
# and a concurrency limit, with a fault every interval (kill -9, pause, flush, restart empty, in turn). Prints and checks
# what bench/chaos_soak.py says (no 5xx but the fail-closed 503s, no ERROR in the logs, flat heap and key count, every
# key with a TTL, no lease left, exact after each recovery); exits non-zero when a check fails. Not a test: not in CI.
#
#   bench/chaos-soak.sh [minutes=20] [seconds between faults=60]
#
# Needs redis-server and redis-cli on PATH (or RATE_LIMIT_REDIS_SERVER), a JDK (java, jcmd) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-20}
interval=${2:-60}

./mvnw -q -B install -DskipTests
./mvnw -q -B -f bench/soak-app/pom.xml package
work=$(mktemp -d)
echo "logs in $work"
# the driver: bench/chaos_soak.py, or the cluster's (bench/chaos-soak-cluster.sh sets it)
python3 "bench/${SOAK_DRIVER:-chaos_soak.py}" --minutes "$minutes" --interval "$interval" \
  --jar bench/soak-app/target/quarkus-app/quarkus-run.jar \
  --redis-server "${RATE_LIMIT_REDIS_SERVER:-redis-server}" --work "$work"
