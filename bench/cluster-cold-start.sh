#!/usr/bin/env bash
# Cold start on a fresh cluster, many times: each round creates a new Redis Cluster (three masters, three replicas,
# redis-cli --cluster create), starts two new instances of bench/external-app on it (fail-closed, so that every call
# Redis did not decide shows as a 503), and sends their very first requests as one burst (one tenant, spread over both
# instances). Then each instance must decide on Redis again: a fresh tenant's 60 calls to that instance alone admit
# exactly the limit, 50, within 30 s, or the round counts that instance as locked up. An instance whose Redis client
# locked up (the cold-start deadlock of vertx-redis-client in cluster mode) never decides again.
#
#   bench/cluster-cold-start.sh [rounds=10] [requests=600] [parallel=64]
#
# Needs redis-server and redis-cli on PATH (or RATE_LIMIT_REDIS_SERVER), curl, python3. Not a test: it starts and
# stops 6 Redis nodes and 2 JVMs per round (about 20 s each). The lock-up was seen with a build running alongside:
# SKIP_BUILD=1 uses the last build, so that one can run while ./mvnw verify keeps the cores busy.
source "$(dirname "$0")/lib.sh"
rounds=${1:-10}
requests=${2:-600}
parallel=${3:-64}

if [ -z "${SKIP_BUILD:-}" ]; then # SKIP_BUILD=1: use the application built last time (say, while a build runs)
  ./mvnw -q -B install -DskipTests
  ./mvnw -q -B -f bench/external-app/pom.xml package
fi

stop_all() { kill -9 "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; pids=(); }
trap 'stop_all; rm -rf "$work"' EXIT

# admitted TENANT PORT: how many of the tenant's 60 calls to one instance were admitted
admitted() {
  seq 1 60 | xargs -P 8 -I{} curl -s -o /dev/null -w "%{http_code}\n" -X POST -H "X-Tenant-Id: $1" \
    "http://127.0.0.1:$2/labels" | grep -c '^200$' || true
}

locked=0
for round in $(seq 1 "$rounds"); do
  nodes=()
  for i in 1 2 3 4 5 6; do
    port=$(node_port)
    mkdir -p "$work/$round/$port"
    (cd "$work/$round/$port" && exec "$redis_server" --port "$port" --bind 127.0.0.1 --save "" --appendonly no \
      --cluster-enabled yes --cluster-node-timeout 2000 --cluster-require-full-coverage no > redis.log 2>&1) &
    pids+=($!)
    nodes+=("127.0.0.1:$port")
  done
  for node in "${nodes[@]}"; do
    for _ in $(seq 1 100); do redis-cli -p "${node#*:}" ping > /dev/null 2>&1 && break; sleep 0.1; done
  done
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes > "$work/$round/create.log" 2>&1
  for node in "${nodes[@]}"; do
    until redis-cli -p "${node#*:}" cluster info | grep -q 'cluster_state:ok'; do sleep 0.1; done
  done
  hosts=$(printf 'redis://%s,' "${nodes[@]}"); hosts=${hosts%,}

  ports=()
  for instance in a b; do
    port=$(free_port)
    java -Dquarkus.http.port="$port" -Dquarkus.redis.hosts="$hosts" -Dquarkus.redis.client-type=cluster \
      -Dquarkus.rate-limit.failure-mode=fail-closed \
      -jar bench/external-app/target/quarkus-app/quarkus-run.jar > "$work/$round/app-$instance.log" 2>&1 &
    pids+=($!)
    ports+=("$port")
  done
  for port in "${ports[@]}"; do # up, without a decision yet: an unknown path is a 404
    until curl -s -o /dev/null "http://127.0.0.1:$port/up"; do sleep 0.1; done
  done

  tenant="cold-$round-$RANDOM"
  burst=$(seq 1 "$requests" | xargs -P "$parallel" -I{} sh -c \
    'if [ $(({} % 2)) -eq 0 ]; then p='"${ports[0]}"'; else p='"${ports[1]}"'; fi; curl -s -o /dev/null -w "%{http_code}\n" -X POST -H "X-Tenant-Id: '"$tenant"'" http://127.0.0.1:$p/labels' \
    | sort | uniq -c | awk '{printf "%s x %s, ", $1, $2}')

  verdict=""
  for i in 0 1; do
    deadline=$((SECONDS + 30)); result="locked up"; seen=""
    while [ $SECONDS -lt $deadline ]; do
      got=$(admitted "fresh-$round-$i-$RANDOM" "${ports[$i]}")
      if [ "$got" = 50 ]; then
        result="exact after $((30 - deadline + SECONDS)) s${seen:+ (before: admitted$seen)}"; break
      fi
      seen+=" $got"
      sleep 1
    done
    [ "$result" = "locked up" ] && locked=$((locked + 1))
    verdict+="instance $i $result; "
  done
  echo "round $round: first burst ${burst}then ${verdict}"
  stop_all
done
echo "$locked locked-up instances in $rounds rounds ($((2 * rounds)) instances)"
[ "$locked" -eq 0 ]
