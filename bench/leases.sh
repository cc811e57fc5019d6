#!/usr/bin/env bash
# What leases do for one hot key and cost spread keys: RateLimiter.tryAcquire (asynchronous, 64 in flight) on two
# instances of the benchmark application on one redis-server, one with quarkus.rate-limit.leases.enabled=true and one
# without, beside the hand-written Lettuce baseline (EVALSHA of a minimal script), interleaved over the repetitions:
# decisions/s, p99, Redis commands (script calls) per decision, application and Redis CPU per decision.
#
#   bench/leases.sh [seconds=10] [repetitions=3]
#
# Needs JDK 17, redis-server and redis-cli, curl, python3. Not a test: the figures depend on the machine.
source "$(dirname "$0")/lib.sh"
seconds=${1:-10}
repetitions=${2:-3}
build_bench_app
start_redis
start_app -Xmx1g -Dquarkus.rate-limit.leases.enabled=true
leased_port=$app_port; leased_pid=$app_pid
start_app -Xmx1g -Dquarkus.rate-limit.leases.enabled=false
plain_port=$app_port; plain_pid=$app_pid
# spread keys on an instance of their own too: a JVM that also ran the hot key compiled its shared paths for answers
# that come at once (a slice's), which the spread keys' runs there pay for
start_app -Xmx1g -Dquarkus.rate-limit.leases.enabled=true
spread_port=$app_port; spread_pid=$app_pid

# script_calls: FCALL, EVALSHA and EVAL calls since the last CONFIG RESETSTAT
script_calls() {
  redis info commandstats | tr -d '\r' | python3 -c '
import re, sys
print(sum(int(m.group(1)) for m in (re.match(r"cmdstat_(?:fcall|evalsha|eval):calls=(\d+)", l) for l in sys.stdin) if m))'
}

declare -A rates p99s commands app_cpu redis_cpu
configs=("lettuce plain 1" "extension plain 1" "extension leased 1" "lettuce plain 100000" "extension plain 100000"
  "extension leased 100000" "extension spread 100000")
for rep in $(seq 1 "$repetitions"); do
  for config in "${configs[@]}"; do
    read -r client app keys <<< "$config"
    case $app in
      leased) port=$leased_port; pid=$leased_pid ;;
      spread) port=$spread_port; pid=$spread_pid ;;
      *) port=$plain_port; pid=$plain_pid ;;
    esac
    redis config resetstat > /dev/null
    redis_before=$(redis_cpu_seconds)
    app_before=$(process_cpu_seconds "$pid")
    bench_run "$port" "$client" 64 "$keys" "$seconds"
    calls=$(script_calls)
    p99=$(sed -E 's/.*p99_ms=([0-9.]+).*/\1/' <<< "$line")
    per_decision=$(python3 -c "print('%.3f' % ($calls / $all))")
    app_per=$(cpu_per_decision "$app_before" "$(process_cpu_seconds "$pid")" "$all")
    redis_per=$(cpu_per_decision "$redis_before" "$(redis_cpu_seconds)" "$all")
    echo "run $rep: $client $app keys=$keys: $line redis_commands_per_decision=$per_decision" \
      "app_usec_per_decision=$app_per redis_usec_per_decision=$redis_per"
    rates["$config"]+="$rate "; p99s["$config"]+="$p99 "; commands["$config"]+="$per_decision "
    app_cpu["$config"]+="$app_per "; redis_cpu["$config"]+="$redis_per "
  done
done

echo
echo "medians of $repetitions runs of ${seconds}s, 64 in flight:"
for pair in "1 plain" "1 leased" "100000 plain" "100000 leased" "100000 spread"; do
  read -r keys app <<< "$pair"
  base=$(median_of "${rates["lettuce plain $keys"]}")
  {
    config="extension $app $keys"
    ext=$(median_of "${rates[$config]}")
    printf '  keys=%s %-6s: %.0f decisions/s, %.2fx lettuce (%.0f); p99 %s ms (lettuce %s); %s Redis commands per decision;' \
      "$keys" "$app" "$ext" "$(python3 -c "print($ext / $base)")" "$base" "$(median_of "${p99s[$config]}")" \
      "$(median_of "${p99s["lettuce plain $keys"]}")" "$(median_of "${commands[$config]}")"
    printf ' app CPU %s us, Redis CPU %s us per decision\n' "$(median_of "${app_cpu[$config]}")" \
      "$(median_of "${redis_cpu[$config]}")"
  }
done
