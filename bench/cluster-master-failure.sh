#!/usr/bin/env bash
# One master of a three-master cluster paused, then another killed (ClusterMasterFailureTest, skipped by the build):
# tenants on the other masters must stay exact, the silent master's calls fail over within the decision timeout, and
# the dead master's tenants are decided exactly again once its replica took over. Runs it several times and prints
# each run's outcome and the time back to exact.
#
#   bench/cluster-master-failure.sh [runs=5]
#
# Needs redis-server on PATH. Not a test: a run that fails is printed with its assertion, and counted.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}

./mvnw -q -B install -DskipTests
failed=0
for run in $(seq 1 "$runs"); do
  out=$(./mvnw -B -o test -pl integration-tests -Dtest=ClusterMasterFailureTest -Dcluster-master-failure=true \
    -Dsurefire.failIfNoSpecifiedTests=false 2>&1 || true)
  if grep -q '<<< FAILURE' <<< "$out"; then
    failed=$((failed + 1))
    echo "run $run: FAILED $(grep -m1 -A3 'AssertionFailedError' <<< "$out" | tr '\n' ' ')"
  else
    echo "run $run: $(grep -o 'CLUSTER-MASTER-KILLED: .*' <<< "$out")"
  fi
done
echo "$failed of $runs runs failed"
