#!/usr/bin/env bash
# The carrier gateway's outgoing calls on a fleet: two packaged instances of the demo, one Redis, one strict carrier
# stub (50 requests in any second, counting what it refuses). Callers ask the gateways for labels for the given time
# after a 3 s warm-up; prints what the carrier accepted and refused (the share of its quota the fleet used) and the
# gateway's latencies of admitted calls (their wait for a slot, maxWait 2 s) and refused ones. It runs CarrierQuotaIT
# of the integration tests, which also checks the figures (exits non-zero when the carrier refused a call).
#
#   bench/carrier-quota.sh [seconds=60] [callers per instance=64]
#
# Needs only the JDK and redis-server.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
callers=${2:-64}
./mvnw -B -q install -DskipTests -pl runtime,deployment,local-redis -am > /dev/null
./mvnw -B verify -pl integration-tests -Dtest=none -Dit.test=CarrierQuotaIT -Dsurefire.failIfNoSpecifiedTests=false \
  -Dcarrier-quota.seconds="$seconds" -Dcarrier-quota.callers="$callers" 2>&1 \
  | grep -E '^carrier quota|Tests run:.*CarrierQuotaIT|FAIL' || true
