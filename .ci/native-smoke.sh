#!/usr/bin/env bash
# Smoke test of the demo application built as a native executable: a redis-server of its own on a free port, the
# executable on another, then the search limit (5 in 10 s per tenant) answers 5 x 200 and a 429 with Retry-After.
# Needs: redis-server and curl on the PATH; the executable as $1. Run by .github/workflows/native.yml.
set -euo pipefail
runner=${1:?the native executable}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
redis_port=$(free_port)
http_port=$(free_port)
redis-server --port "$redis_port" --save '' --appendonly no --daemonize no >/tmp/native-redis.log 2>&1 &
redis_pid=$!
"$runner" -Dquarkus.http.port="$http_port" -Dquarkus.redis.hosts="redis://127.0.0.1:$redis_port" >/tmp/native-app.log 2>&1 &
app_pid=$!
trap 'kill $app_pid $redis_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf -o /dev/null -H 'X-Tenant-Id: smoke-ready' "localhost:$http_port/search" && break
  sleep 0.1
done
codes=""
for _ in 1 2 3 4 5 6; do
  codes="$codes $(curl -s -o /dev/null -w '%{http_code}' -H 'X-Tenant-Id: smoke' "localhost:$http_port/search")"
done
echo "search, 6 calls:$codes"
[ "$codes" = " 200 200 200 200 200 429" ] || { cat /tmp/native-app.log; exit 1; }
curl -s -D - -o /dev/null -H 'X-Tenant-Id: smoke' "localhost:$http_port/search" | grep -qi '^retry-after:' \
  || { echo "no Retry-After on the refusal"; exit 1; }
echo "native smoke test passed"
