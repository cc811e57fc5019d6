#!/usr/bin/env bash
# What durable decisions cost (quarkus.rate-limit.durable.replicas=1): a master and one replica on local ports, two
# instances of the benchmark application on that master, one plain and one durable, driven in turn with
# RateLimiter.tryAcquire (sliding window counter, 100k keys) at 64 and at 1 decision in flight. Prints each run, the
# medians with the durable/plain ratio, and how many WAITs Redis ran per durable decision (one WAIT acknowledges every
# decision pipelined before it, so under load it is far below one).
#
#   bench/durable.sh [seconds=10] [repetitions=3]
#
# Needs JDK 17, redis-server and redis-cli, curl, python3. Not a test: the figures depend on the machine. Replication
# runs over loopback here; over a network a durable decision waits at least one more round trip to the replica.
source "$(dirname "$0")/lib.sh"
seconds=${1:-10}
repetitions=${2:-3}
build_bench_app
start_redis
replica_port=$(free_port)
"$redis_server" --port "$replica_port" --bind 127.0.0.1 --save "" --appendonly no \
  --replicaof 127.0.0.1 "$redis_port" > "$work/replica.log" 2>&1 &
pids+=($!)
until redis-cli -p "$replica_port" info replication 2>/dev/null | grep -q 'master_link_status:up'; do sleep 0.1; done
start_app -Xmx1g
plain_port=$app_port
start_app -Xmx1g -Dquarkus.rate-limit.durable.replicas=1
durable_port=$app_port

calls() { redis info commandstats | tr -d '\r' | sed -nE "s/^cmdstat_$1:calls=([0-9]+).*/\1/p" | grep . || echo 0; }

declare -A results
for rep in $(seq 1 "$repetitions"); do
  for inflight in 64 1; do
    for mode in plain durable; do
      port=$([ "$mode" = plain ] && echo "$plain_port" || echo "$durable_port")
      redis config resetstat > /dev/null
      line=$(curl -s "http://127.0.0.1:$port/bench/run?client=extension&inFlight=$inflight&keys=100000&seconds=$seconds")
      waits=$(python3 -c "print('%.3f' % ($(calls wait) / max(1, $(calls fcall))))")
      echo "run $rep: $mode in-flight=$inflight: $line waits_per_decision=$waits"
      results["$mode $inflight"]+="$(sed -E 's/.*decisions\/s=([0-9]+).*/\1/' <<< "$line") "
    done
  done
done

med() { median_of "${results[$1]}"; }
echo
echo "medians of $repetitions runs of ${seconds}s (decisions/s), durable to plain:"
for inflight in 64 1; do
  plain=$(med "plain $inflight"); durable=$(med "durable $inflight")
  printf '  in-flight=%s: plain %s, durable %s, ratio %.2f\n' "$inflight" "$plain" "$durable" \
    "$(python3 -c "print($durable / $plain)")"
done
