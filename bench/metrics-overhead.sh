#!/usr/bin/env bash
# What the Micrometer metrics cost the decision path: RateLimiter.tryAcquire decisions per second with
# quarkus.rate-limit.metrics.enabled=true (the default) and =false, on the same build (the benchmark application has
# quarkus-micrometer-registry-prometheus), one redis-server, the two applications driven in turn, interleaved over the
# repetitions. The target: metrics cost less than 5 % of the decisions per second.
#
#   bench/metrics-overhead.sh [seconds=10] [repetitions=5] [inFlight=64] [keys=100000]
#
# Needs JDK 17, redis-server and redis-cli, curl, python3. Not a test: the figures depend on the machine.
source "$(dirname "$0")/lib.sh"
seconds=${1:-10}
repetitions=${2:-5}
inflight=${3:-64}
keys=${4:-100000}
build_bench_app
start_redis
start_app -Xmx1g
on_port=$app_port
start_app -Xmx1g -Dquarkus.rate-limit.metrics.enabled=false
off_port=$app_port

on=(); off=()
for rep in $(seq 1 "$repetitions"); do
  for mode in on off; do
    port=$on_port; [ "$mode" = off ] && port=$off_port
    line=$(curl -s "http://127.0.0.1:$port/bench/run?client=extension&inFlight=$inflight&keys=$keys&seconds=$seconds")
    echo "run $rep: metrics $mode: $line"
    rate=$(sed -E 's/.*decisions\/s=([0-9]+).*/\1/' <<< "$line")
    if [ "$mode" = on ]; then on+=("$rate"); else off+=("$rate"); fi
  done
done
scraped=$(curl -s "http://127.0.0.1:$on_port/q/metrics" | grep -c '^rate_limit_' || true)
m_on=$(printf '%s\n' "${on[@]}" | median); m_off=$(printf '%s\n' "${off[@]}" | median)
# this machine's speed drifts between runs far more than metrics cost: compare each run with its neighbour
paired=$(for i in "${!on[@]}"; do python3 -c "print(${on[$i]} / ${off[$i]})"; done | median)
echo
echo "medians of $repetitions runs of ${seconds}s, in-flight=$inflight keys=$keys ($scraped rate_limit_ series scraped):"
printf '  metrics on %s/s, off %s/s; median of the paired ratios on/off %.3f (cost %.1f %%)\n' "$m_on" "$m_off" \
  "$paired" "$(python3 -c "print(100 * (1 - $paired))")"
