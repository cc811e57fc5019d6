#!/usr/bin/env bash
# Decisions per second of RateLimiter.tryAcquire (asynchronous and blocking) against the hand-written baseline
# (Lettuce's async API, EVALSHA of a minimal sliding-window-counter script, every call pipelined on one connection), in
# one run on one redis-server, interleaved over the repetitions. Prints each run and the medians with their ratios, and
# the transport's ceiling: the baseline's script sent through Quarkus's Redis client alone (pipelined, on one
# connection, no rate limiter code), which the extension must use. And the libraries a user would pick instead, on the
# same load: Bucket4j on Redis through Lettuce (compare-and-swap) and Redisson's RRateLimiter (bench/decisions-app, Peers).
#
#   bench/decisions.sh [seconds=10] [repetitions=3]
#
# Needs JDK 17, redis-server and redis-cli, curl, python3. Not a test: the figures depend on the machine.
source "$(dirname "$0")/lib.sh"
seconds=${1:-10}
repetitions=${2:-3}
build_bench_app
start_redis
start_app -Xmx1g

declare -A results redis_cpu app_cpu
configs=("extension 64 100000" "lettuce 64 100000" "quarkus-client 64 100000" "extension 64 1" "lettuce 64 1"
  "extension 16 100000" "lettuce 16 100000" "quarkus-client 16 100000" "extension-blocking 64 100000"
  "quarkus-client-blocking 64 100000" "bucket4j 64 100000" "redisson 64 100000" "bucket4j 64 1" "redisson 64 1")
for rep in $(seq 1 "$repetitions"); do
  for config in "${configs[@]}"; do
    read -r client inflight keys <<< "$config"
    redis config resetstat > /dev/null
    cpu_before=$(redis_cpu_seconds)
    app_before=$(process_cpu_seconds "$app_pid")
    bench_run "$app_port" "$client" "$inflight" "$keys" "$seconds"
    # the application's CPU per decision, its load generator's included (the same for every client): steadier than a
    # rate on a busy machine
    app_per_decision=$(cpu_per_decision "$app_before" "$(process_cpu_seconds "$app_pid")" "$all")
    cpu=$(script_usec_per_call)
    # Redis CPU per decision (the process's, warm-up included): one call may carry several decisions (batches)
    per_decision=$(cpu_per_decision "$cpu_before" "$(redis_cpu_seconds)" "$all")
    echo "run $rep: $client in-flight=$inflight keys=$keys: $line redis_usec_per_call=$cpu" \
      "redis_usec_per_decision=$per_decision app_usec_per_decision=$app_per_decision"
    results["$config"]+="$rate "
    redis_cpu["$config"]+="$per_decision "
    app_cpu["$config"]+="$app_per_decision "
  done
done

med() { median_of "${results[$1]}"; }
echo
echo "medians of $repetitions runs of ${seconds}s (decisions/s) and ratio to the baseline:"
for pair in "64 100000" "64 1" "16 100000"; do
  ext=$(med "extension $pair"); base=$(med "lettuce $pair")
  printf '  in-flight=%s keys=%s: extension %s, lettuce %s, ratio %.2f; Redis CPU per decision %s / %s us;' \
    ${pair% *} ${pair#* } "$ext" "$base" "$(python3 -c "print($ext / $base)")" \
    "$(median_of "${redis_cpu["extension $pair"]}")" \
    "$(median_of "${redis_cpu["lettuce $pair"]}")"
  printf ' application CPU per decision %s / %s us\n' \
    "$(median_of "${app_cpu["extension $pair"]}")" \
    "$(median_of "${app_cpu["lettuce $pair"]}")"
done
# the transport's ceiling: the baseline's script through Quarkus's Redis client, pipelined, no rate limiter code
for pair in "64 100000" "16 100000"; do
  transport=$(med "quarkus-client $pair"); base=$(med "lettuce $pair"); ext=$(med "extension $pair")
  printf '  in-flight=%s keys=%s: Quarkus Redis client alone %s, ratio to lettuce %.2f; extension to it %.2f\n' \
    ${pair% *} ${pair#* } "$transport" "$(python3 -c "print($transport / $base)")" \
    "$(python3 -c "print($ext / $transport)")"
done
blocking=$(med "extension-blocking 64 100000"); base=$(med "lettuce 64 100000")
transport=$(med "quarkus-client-blocking 64 100000")
printf '  blocking, 64 threads, keys=100000: extension %s, ratio %.2f; Quarkus Redis client alone %s, ratio %.2f\n' \
  "$blocking" "$(python3 -c "print($blocking / $base)")" "$transport" "$(python3 -c "print($transport / $base)")"
for pair in "64 100000" "64 1"; do
  base=$(med "lettuce $pair"); ext=$(med "extension $pair")
  for peer in bucket4j redisson; do
    rate=$(med "$peer $pair")
    printf '  %s in-flight=%s keys=%s: %s, ratio to lettuce %.2f; extension to it %.2f; Redis CPU per decision %s us\n' \
      "$peer" ${pair% *} ${pair#* } "$rate" "$(python3 -c "print($rate / $base)")" "$(python3 -c "print($ext / $rate)")" \
      "$(median_of "${redis_cpu["$peer $pair"]}")"
  done
done
