#!/usr/bin/env bash
# Two instances of an application outside this build (bench/external-app, depending on the installed
# quarkus-rate-limit 999-SNAPSHOT) share one redis-server; a burst of concurrent requests of one tenant is spread
# over both. Prints how many were admitted per algorithm and how long the burst took.
#
#   bench/two-instances.sh [requests=400] [parallel=64]
#
# Needs redis-server on PATH (or RATE_LIMIT_REDIS_SERVER) and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-400}
parallel=${2:-64}
redis_server=${RATE_LIMIT_REDIS_SERVER:-redis-server}

./mvnw -q -B install -DskipTests
./mvnw -q -B -f bench/external-app/pom.xml package

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
redis_port=$(free_port); port_a=$(free_port); port_b=$(free_port)
work=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$redis_server" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no > "$work/redis.log" 2>&1 &
pids+=($!)
for port in "$port_a" "$port_b"; do
  java -Dquarkus.http.port="$port" -Dquarkus.redis.hosts="redis://127.0.0.1:$redis_port" \
    -jar bench/external-app/target/quarkus-app/quarkus-run.jar > "$work/app-$port.log" 2>&1 &
  pids+=($!)
done
for port in "$port_a" "$port_b"; do
  for _ in $(seq 1 300); do
    curl -s -o /dev/null -H 'X-Tenant-Id: readiness' "http://127.0.0.1:$port/labels" && break
    sleep 0.1
  done
done

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
