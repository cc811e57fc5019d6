#!/usr/bin/env bash
# Counts lost in a Sentinel failover: a master, a replica and three Sentinels on local ports (as RedisSentinelTest
# starts them); 400 tenants with a fail-closed limit of 5 each take a burst from 16 threads, and the master is killed
# (kill -9) once half of all their limits has been admitted. Once the promoted replica decides, every tenant asks again
# until refused. Redis replicates asynchronously, so whatever the master wrote and the replica never received is
# admitted a second time: the run prints how many calls were admitted beyond the limits. One failover per run.
#
#   bench/failover-loss.sh [runs=5]
#
# Needs redis-server and redis-sentinel (or redis-server --sentinel) on PATH. A measurement, not a test: the build
# skips SentinelFailoverLossMeasurement unless -Dmeasure-failover-loss=true.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}

./mvnw -q -B install -DskipTests
for run in $(seq 1 "$runs"); do
  ./mvnw -B -o test -pl integration-tests -Dtest=SentinelFailoverLossMeasurement -Dmeasure-failover-loss=true \
    -Dsurefire.failIfNoSpecifiedTests=false 2>&1 | grep -o 'FAILOVER-LOSS: .*' | sed "s/^FAILOVER-LOSS/run $run/"
done
