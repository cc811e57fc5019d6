#!/usr/bin/env bash
# Counts lost in a Sentinel failover: a master, a replica and three Sentinels on local ports (as RedisSentinelTest
# starts them); 400 tenants with a fail-closed limit of 5 each take a burst from 16 threads, and the master is killed
# (kill -9) once half of all their limits has been admitted. Once the promoted replica decides, every tenant asks again
# until refused. Redis replicates asynchronously, so whatever the master wrote and the replica never received is
# admitted a second time: the run prints how many calls were admitted beyond the limits. One failover per run.
#
#   bench/failover-loss.sh [runs=5] [durable-replicas=0] [replica-lag-ms=0] [setup=sentinel|cluster]
#
# durable-replicas=1 measures durable decisions (quarkus.rate-limit.durable.replicas). replica-lag-ms pauses the replica
# that long before the master dies (and resumes it right after): a lagging replica, where asynchronous replication
# loses the most. setup=cluster kills one of three cluster masters instead (durable decisions do not exist there).
#
# Needs redis-server and redis-sentinel (or redis-server --sentinel) on PATH. A measurement, not a test: the build
# skips the measurement unless -Dmeasure-failover-loss=true.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
durable=${2:-0}
lag=${3:-0}
setup=${4:-sentinel}
test=$([ "$setup" = cluster ] && echo ClusterFailoverLossMeasurement || echo SentinelFailoverLossMeasurement)

./mvnw -q -B install -DskipTests
for run in $(seq 1 "$runs"); do
  ./mvnw -B -o test -pl integration-tests -Dtest="$test" -Dmeasure-failover-loss=true \
    -Dquarkus.rate-limit.durable.replicas="$durable" -Dreplica-lag-ms="$lag" \
    -Dsurefire.failIfNoSpecifiedTests=false 2>&1 | grep -o 'FAILOVER-LOSS: .*' | sed "s/^FAILOVER-LOSS/run $run/"
done
