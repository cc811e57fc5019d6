#!/usr/bin/env bash
# How long a refund made on one instance takes to end the cached refusal of another: two instances of the demo
# application (integration-tests, packaged) on one redis-server; bench/invalidation-delay/InvalidationDelay.java
# measures from the refund's answer on B to A's first admitting answer, over many rounds (p50, p99, max).
#
#   bench/invalidation-delay.sh [rounds=200]
#
# Needs redis-server and redis-cli on PATH (or RATE_LIMIT_REDIS_SERVER), curl, python3. About a minute.
source "$(dirname "$0")/lib.sh"
rounds=${1:-200}

./mvnw -q -B install -DskipTests -pl integration-tests -am
start_redis
ports=()
for instance in a b; do
  port=$(free_port)
  java -Dquarkus.http.port="$port" -Dquarkus.redis.hosts="redis://127.0.0.1:$redis_port" \
    -jar integration-tests/target/quarkus-app/quarkus-run.jar > "$work/app-$instance.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
done
for port in "${ports[@]}"; do
  for _ in $(seq 1 300); do
    curl -s -o /dev/null -H 'X-Tenant-Id: readiness' "http://127.0.0.1:$port/search" && break
    sleep 0.1
  done
done
java bench/invalidation-delay/InvalidationDelay.java "http://127.0.0.1:${ports[0]}" "http://127.0.0.1:${ports[1]}" "$rounds"
