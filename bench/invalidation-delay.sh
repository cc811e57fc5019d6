#!/usr/bin/env bash
# How long a refund made on one instance takes to end the cached refusal of another: two instances of the demo
# application (integration-tests, packaged) on one redis-server; bench/invalidation-delay/InvalidationDelay.java
# measures from the refund's answer on B to A's first admitting answer, over many rounds (p50, p99, max).
#
#   bench/invalidation-delay.sh [rounds=200]
#
# Needs redis-server and redis-cli on PATH (or RATE_LIMIT_REDIS_SERVER), curl, python3. About a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-200}
redis_server=${RATE_LIMIT_REDIS_SERVER:-redis-server}

./mvnw -q -B install -DskipTests -pl integration-tests -am

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
redis_port=$(free_port); port_a=$(free_port); port_b=$(free_port)
work=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$redis_server" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no > "$work/redis.log" 2>&1 &
pids+=($!)
until redis-cli -p "$redis_port" ping >/dev/null 2>&1; do sleep 0.1; done
for port in "$port_a" "$port_b"; do
  java -Dquarkus.http.port="$port" -Dquarkus.redis.hosts="redis://127.0.0.1:$redis_port" \
    -jar integration-tests/target/quarkus-app/quarkus-run.jar > "$work/app-$port.log" 2>&1 &
  pids+=($!)
done
for port in "$port_a" "$port_b"; do
  for _ in $(seq 1 300); do
    curl -s -o /dev/null -H 'X-Tenant-Id: readiness' "http://127.0.0.1:$port/search" && break
    sleep 0.1
  done
done
java bench/invalidation-delay/InvalidationDelay.java "http://127.0.0.1:$port_a" "http://127.0.0.1:$port_b" "$rounds"
