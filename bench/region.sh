#!/usr/bin/env bash
# Leases from a far region: an instance whose link to Redis adds a delay each way (bench/delay_proxy.py, 20 ms: a
# round trip of 40 ms; 40 ms: 80), beside one next to Redis. Prints, for one hot key (RateLimiter.tryAcquire, 64 in
# flight, a limit never reached): decisions/s, p50 and p99 of the far instance with leases, without leases, and of the
# near one; then both instances driving one key of a fixed window of 20,000 per 10 s together for two windows (64 in
# flight each): what each admitted, and the capacity the fleet left unused (stranded in slices, or refused while
# another instance's slice held it).
#
#   bench/region.sh [one-way delay ms=20] [seconds=10]
#
# Needs JDK 17, redis-server and redis-cli, curl, python3. Not a test: the figures depend on the machine.
source "$(dirname "$0")/lib.sh"
delay=${1:-20}
seconds=${2:-10}
build_bench_app
start_redis
proxy_port=$(free_port)
python3 bench/delay_proxy.py "$proxy_port" "$redis_port" "$delay" > "$work/proxy.log" 2>&1 &
pids+=($!)
until redis-cli -p "$proxy_port" ping > /dev/null 2>&1; do sleep 0.1; done

start_app -Xmx1g -Dquarkus.rate-limit.leases.enabled=true
near_port=$app_port
app_redis_port=$proxy_port
start_app -Xmx1g -Dquarkus.rate-limit.leases.enabled=true
far_port=$app_port
start_app -Xmx1g -Dquarkus.rate-limit.leases.enabled=false
far_plain_port=$app_port
unset app_redis_port

echo "one hot key, 64 in flight, ${seconds}s each (3 s warm-up), Redis ${delay} ms away each way from the far instance:"
for pair in "far-leased $far_port" "far-without-leases $far_plain_port" "near-leased $near_port"; do
  read -r name port <<< "$pair"
  bench_run "$port" extension 64 1 "$seconds"
  echo "  $name: $line"
done

echo "one key of 20,000 per 10 s (fixed window), both instances with leases, 64 in flight each, two windows:"
# start at a window's start (windows are aligned on the epoch) and stop before the third: the run holds two of them
sleep "$(python3 -c 'import time; print(10 - time.time() % 10 + 0.05)')"
until_ms=$(python3 -c 'import time; print(int((time.time() // 10) * 10 * 1000 + 19500))')
key="region-$(date +%s)"
run="limit=20000&windowSeconds=10&seconds=19&until=$until_ms&key=$key"
curl -s "http://127.0.0.1:$near_port/bench/window?$run" > "$work/near.out" &
near_curl=$!
curl -s "http://127.0.0.1:$far_port/bench/window?$run" > "$work/far.out"
wait "$near_curl"
near_admitted=$(sed -E 's/.*admitted=([0-9]+).*/\1/' "$work/near.out")
far_admitted=$(sed -E 's/.*admitted=([0-9]+).*/\1/' "$work/far.out")
echo "  near: $(cat "$work/near.out")"
echo "  far:  $(cat "$work/far.out")"
python3 -c "
near, far = $near_admitted, $far_admitted
print('  admitted together by Redis and slices: %d of 40,000 (far %d); left unused: %d (%.2f %%)' % (near + far, far,
      40000 - near - far, (40000 - near - far) / 400))"
echo "  (admitted_by_failure_mode: calls whose decision Redis did not answer within the decision timeout, admitted by"
echo "  the failure mode, here local: a share of the limit, counted in no window)"
