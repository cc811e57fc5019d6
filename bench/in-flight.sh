#!/usr/bin/env bash
# Decisions per second of RateLimiter.tryAcquire against the Lettuce EVALSHA baseline (bench/decisions.sh) as the
# number of decisions in flight grows: 1, 4, 16, 64, 128 and 256, on 100,000 keys and on one hot key, interleaved,
# medians, each with the application's and Redis's CPU per decision. With few in flight every decision waits a round
# trip of its own and the leaner client leads; with many, batches carry more decisions per Redis call and the rate stops
# being bounded by the round trip. The application's CPU includes the load generator's, which is the same for both.
#
#   bench/in-flight.sh [seconds=5] [repetitions=3]
#   IN_FLIGHT_LEVELS="4 16" bench/in-flight.sh 4 3      # only these numbers in flight
#   IN_FLIGHT_TRANSPORT=yes bench/in-flight.sh 4 5       # and Quarkus's Redis client alone, the same script as Lettuce's
#                                                        # (the transport the extension uses, with no limiter around it)
#
# Needs JDK 17, redis-server and redis-cli, curl, python3. Not a test: the figures depend on the machine.
source "$(dirname "$0")/lib.sh"
seconds=${1:-5}
repetitions=${2:-3}
build_bench_app
start_redis
start_app -Xmx1g

app_cpu() { awk '{print ($14 + $15) / 100}' "/proc/$app_pid/stat"; }
redis_cpu() { redis info cpu | awk -F: '/^used_cpu_(sys|user):/{s += $2} END{print s}'; }
read -r -a levels <<< "${IN_FLIGHT_LEVELS:-1 4 16 64 128 256}"
declare -A results latency app_us redis_us paired paired_transport
clients=(extension lettuce)
[[ ${IN_FLIGHT_TRANSPORT:-} == yes ]] && clients=(quarkus-client extension lettuce)
# both clients warmed up first (the JIT compiles each one's path), so that the first configuration measured is not a
# cold one
for client in "${clients[@]}"; do
  bench_run "$app_port" "$client" 16 100000 "$seconds"
done
for rep in $(seq 1 "$repetitions"); do
  for keys in 100000 1; do
    for inflight in "${levels[@]}"; do
      for client in "${clients[@]}"; do
        app_before=$(app_cpu); redis_before=$(redis_cpu)
        bench_run "$app_port" "$client" "$inflight" "$keys" "$seconds"
        app_us["$client $inflight $keys"]+="$(cpu_per_decision "$app_before" "$(app_cpu)" "$all") "
        redis_us["$client $inflight $keys"]+="$(cpu_per_decision "$redis_before" "$(redis_cpu)" "$all") "
        echo "run $rep: $client in-flight=$inflight keys=$keys: $line"
        results["$client $inflight $keys"]+="$rate "
        # each repetition's Lettuce run follows its extension run: their ratio is steadier than the ratio of the
        # medians when one repetition runs on a disturbed machine
        [[ $client == extension ]] && extension_rate=$rate
        [[ $client == quarkus-client ]] && transport_rate=$rate
        if [[ $client == lettuce ]]; then
          paired["$inflight $keys"]+="$(python3 -c "print($extension_rate / $rate)") "
          [[ -n ${transport_rate:-} ]] && paired_transport["$inflight $keys"]+="$(python3 -c "print($transport_rate / $rate)") "
        fi
        latency["$client $inflight $keys"]+="$(sed -E 's/.*p50_ms=([0-9.]+).*/\1/' <<< "$line") "
      done
    done
  done
done

echo
echo "medians of $repetitions runs of ${seconds}s: decisions/s (p50 ms) [application / Redis CPU per decision, us],"
echo "extension / Lettuce baseline: the ratio of the medians, and the median of each repetition's own ratio (the"
echo "extension's run and the Lettuce run after it) with their range"
for keys in 100000 1; do
  for inflight in "${levels[@]}"; do
    ext=$(median_of "${results["extension $inflight $keys"]}")
    base=$(median_of "${results["lettuce $inflight $keys"]}")
    ratios=$(tr ' ' '\n' <<< "${paired["$inflight $keys"]}" | grep . | sort -g)
    printf '  keys=%-6s in-flight=%-3s extension %7.0f (%s ms) [%s / %s]  lettuce %7.0f (%s ms) [%s / %s]  ratio %.2f' \
      "$keys" "$inflight" "$ext" "$(median_of "${latency["extension $inflight $keys"]}")" \
      "$(median_of "${app_us["extension $inflight $keys"]}")" "$(median_of "${redis_us["extension $inflight $keys"]}")" \
      "$base" "$(median_of "${latency["lettuce $inflight $keys"]}")" \
      "$(median_of "${app_us["lettuce $inflight $keys"]}")" "$(median_of "${redis_us["lettuce $inflight $keys"]}")" \
      "$(python3 -c "print($ext / $base)")"
    printf ', paired %.2f (%.2f to %.2f)\n' "$(median <<< "$ratios")" "$(head -1 <<< "$ratios")" "$(tail -1 <<< "$ratios")"
    if [[ -n ${paired_transport["$inflight $keys"]:-} ]]; then
      ratios=$(tr ' ' '\n' <<< "${paired_transport["$inflight $keys"]}" | grep . | sort -g)
      printf '  keys=%-6s in-flight=%-3s Quarkus Redis client alone %7.0f (%s ms) [%s / %s], to Lettuce: paired %.2f (%.2f to %.2f)\n' \
        "$keys" "$inflight" "$(median_of "${results["quarkus-client $inflight $keys"]}")" \
        "$(median_of "${latency["quarkus-client $inflight $keys"]}")" "$(median_of "${app_us["quarkus-client $inflight $keys"]}")" \
        "$(median_of "${redis_us["quarkus-client $inflight $keys"]}")" \
        "$(median <<< "$ratios")" "$(head -1 <<< "$ratios")" "$(tail -1 <<< "$ratios")"
    fi
  done
done
