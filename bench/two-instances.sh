#!/usr/bin/env bash
# Two instances of an application outside this build (bench/external-app, depending on the installed
# quarkus-rate-limit 999-SNAPSHOT) share one redis-server; a burst of concurrent requests of one tenant is spread
# over both. Prints how many were admitted per algorithm and how long the burst took.
#
#   bench/two-instances.sh [requests=400] [parallel=64]
#
# Needs redis-server and redis-cli on PATH (or RATE_LIMIT_REDIS_SERVER), curl and python3.
source "$(dirname "$0")/lib.sh"
requests=${1:-400}
parallel=${2:-64}

./mvnw -q -B install -DskipTests
./mvnw -q -B -f bench/external-app/pom.xml package

start_redis
start_instances bench/external-app/target/quarkus-app/quarkus-run.jar /labels

burst() { # method path
  local tenant="bench-$RANDOM-$RANDOM" start end
  start=$(date +%s%N)
  seq 1 "$requests" | xargs -P "$parallel" -I{} sh -c \
    'if [ $(({} % 2)) -eq 0 ]; then p='"$port_a"'; else p='"$port_b"'; fi; curl -s -o /dev/null -w "%{http_code}\n" -X '"$1"' -H "X-Tenant-Id: '"$tenant"'" http://127.0.0.1:$p'"$2" \
    | sort | uniq -c | tr '\n' ' '
  end=$(date +%s%N)
  echo "in $(( (end - start) / 1000000 )) ms"
}
echo "limit 50 per hour, $requests concurrent requests ($parallel at a time), one tenant, two instances:"
echo "  SLIDING_WINDOW_COUNTER (POST /labels): $(burst POST /labels)"
echo "  FIXED_WINDOW           (GET /labels):  $(burst GET /labels)"
