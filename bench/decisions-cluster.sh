#!/usr/bin/env bash
# RateLimiter.tryAcquire on a Redis Cluster of three masters (no replicas) against the same on one redis-server, in
# one run, interleaved: decisions per second, their ratio, and Redis CPU per decision (every master's process CPU, user
# and system, divided by the decisions). In a cluster a batch holds the decisions of one hash slot (Redis refuses a
# command over several slots), so decisions of spread tenants mostly go alone, while one hot tenant's go together.
#
#   bench/decisions-cluster.sh [seconds=10] [repetitions=3]
#
# Needs JDK 17, redis-server and redis-cli, curl, python3. Not a test: the figures depend on the machine.
source "$(dirname "$0")/lib.sh"
seconds=${1:-10}
repetitions=${2:-3}
build_bench_app
start_redis
single_port=$redis_port

masters=()
for i in 1 2 3; do
  port=$(node_port)
  mkdir -p "$work/$port"
  (cd "$work/$port" && exec "$redis_server" --port "$port" --bind 127.0.0.1 --save "" --appendonly no \
    --cluster-enabled yes --cluster-node-timeout 5000 > redis.log 2>&1) &
  pids+=($!)
  masters+=("$port")
done
for port in "${masters[@]}"; do
  until redis-cli -p "$port" ping > /dev/null 2>&1; do sleep 0.1; done
done
redis-cli --cluster create $(printf '127.0.0.1:%s ' "${masters[@]}") --cluster-yes > "$work/create.log" 2>&1
for port in "${masters[@]}"; do
  until redis-cli -p "$port" cluster info | grep -q 'cluster_state:ok'; do sleep 0.1; done
done

# start_bench_app <hosts> [options...]: a benchmark application on a free port, $bench_port
start_bench_app() {
  local hosts=$1; shift
  bench_port=$(free_port)
  java -Xmx1g "$@" -Dquarkus.http.port="$bench_port" -Dquarkus.redis.hosts="$hosts" \
    -jar bench/decisions-app/target/quarkus-app/quarkus-run.jar > "$work/app-$bench_port.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 300); do
    curl -s -o /dev/null "http://127.0.0.1:$bench_port/http/plain" && return 0
    sleep 0.1
  done
  echo "the benchmark application did not start:" >&2; cat "$work/app-$bench_port.log" >&2; exit 1
}
start_bench_app "redis://127.0.0.1:$single_port"
single_app=$bench_port
start_bench_app "$(printf 'redis://127.0.0.1:%s,' "${masters[@]}" | sed 's/,$//')" -Dquarkus.redis.client-type=cluster
cluster_app=$bench_port

# cpu_seconds <ports...>: the redis-server processes' CPU (user and system), summed
cpu_seconds() {
  for port in "$@"; do
    redis-cli -p "$port" info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/ {sum += $2} END {printf "%.6f\n", sum}'
  done | awk '{sum += $1} END {printf "%.6f\n", sum}'
}

declare -A rates cpus
configs=("single extension 64 100000" "cluster extension 64 100000" "single extension 64 1" "cluster extension 64 1"
  "single extension-blocking 64 100000" "cluster extension-blocking 64 100000")
for rep in $(seq 1 "$repetitions"); do
  for config in "${configs[@]}"; do
    read -r topology client inflight keys <<< "$config"
    if [[ $topology == single ]]; then app=$single_app; ports=("$single_port"); else app=$cluster_app; ports=("${masters[@]}"); fi
    before=$(cpu_seconds "${ports[@]}")
    bench_run "$app" "$client" "$inflight" "$keys" "$seconds"
    per_decision=$(cpu_per_decision "$before" "$(cpu_seconds "${ports[@]}")" "$all")
    echo "run $rep: $config: $line redis_usec_per_decision=$per_decision"
    rates["$config"]+="$rate "
    cpus["$config"]+="$per_decision "
  done
done

echo
echo "medians of $repetitions runs of ${seconds}s: decisions/s, Redis CPU per decision (all masters), cluster / single:"
for load in "extension 64 100000" "extension 64 1" "extension-blocking 64 100000"; do
  single=$(median_of "${rates["single $load"]}"); cluster=$(median_of "${rates["cluster $load"]}")
  printf '  %-34s single %7s (%s us)  cluster %7s (%s us)  ratio %.2f\n' "$load" "$single" \
    "$(median_of "${cpus["single $load"]}")" "$cluster" "$(median_of "${cpus["cluster $load"]}")" \
    "$(python3 -c "print($cluster / $single)")"
done
