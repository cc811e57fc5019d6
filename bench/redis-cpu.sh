#!/usr/bin/env bash
# Redis CPU per decision, per algorithm: the function library the build writes
# (integration-tests/target/quarkus-rate-limit/lua/library.lua, FCALL, what Redis 7 runs) and the assembled decision
# scripts (rate_limit-<algorithm>.lua, EVALSHA, what Redis 6 runs) against the minimal sliding-window-counter script of
# the hand-written baseline (bench/decisions-app, MinimalSlidingWindow), measured with redis-benchmark (random tenants,
# pipelined) and INFO commandstats on one redis-server, interleaved, in one run.
#
#   bench/redis-cpu.sh [repetitions=3] [calls=300000]
#   BEFORE=<dir of assembled scripts> bench/redis-cpu.sh   also measures another build's scripts, labelled before-*, in
#                                                         the same run (to judge a change to the scripts)
#
# Needs redis-server, redis-cli and redis-benchmark (Debian package redis-tools / redis-server), python3.
source "$(dirname "$0")/lib.sh"
reps=${1:-3}
calls=${2:-300000}

./mvnw -q -B install -DskipTests
scripts=integration-tests/target/quarkus-rate-limit/lua
minimal_script "$work/minimal.lua"
start_redis

load() { redis -x SCRIPT LOAD < "$1"; }
minimal_sha=$(load "$work/minimal.lua")
redis -x FUNCTION LOAD REPLACE < "$scripts/library.lua" > /dev/null
decide=$(library_function rate_limit "$scripts/library.lua")
declare -A sha
algorithms=(sliding_window_counter fixed_window token_bucket gcra sliding_window_log)
labels=()
for algorithm in "${algorithms[@]}"; do
  sha[script-$algorithm]=$(load "$scripts/rate_limit-$algorithm.lua")
  labels+=("function-$algorithm" "script-$algorithm")
  if [[ -n "${BEFORE:-}" ]]; then
    sha[before-$algorithm]=$(load "$BEFORE/rate_limit-$algorithm.lua")
    labels+=("before-$algorithm")
  fi
done

# bench <label> <redis-benchmark command...>: prints Redis's CPU per script call, in microseconds
bench() {
  local label=$1; shift
  redis CONFIG RESETSTAT > /dev/null
  redis-benchmark -p "$redis_port" -n "$calls" -c 32 -P 8 -r 100000 -q "$@" > /dev/null
  echo "$label $(script_usec_per_call)"
}

for rep in $(seq 1 "$reps"); do
  redis FLUSHALL > /dev/null
  bench minimal EVALSHA "$minimal_sha" 2 "{tenant-__rand_int__}:a" "{tenant-__rand_int__}:b" 100 3600000
  for label in "${labels[@]}"; do
    algorithm=${label#*-}
    key="rate-limit:{tenant-__rand_int__}:Resource.method:$label"
    if [[ $label == function-* ]]; then
      bench "$label" FCALL "$decide" 1 "$key" "" "$algorithm" 100 3600000 1 0
    else
      bench "$label" EVALSHA "${sha[$label]}" 1 "$key" "" "$algorithm" 100 3600000 1 0
    fi
  done
done | tee "$work/results"

echo
echo "median us per call, and the ratio to the minimal script (the target is at most 1.15):"
python3 - "$work/results" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, usec = line.split()
    runs.setdefault(label, []).append(float(usec))
minimal = statistics.median(runs["minimal"])
for label, values in runs.items():
    median = statistics.median(values)
    print("%-24s %5.1f us  %.2f  (runs: %s)" % (label, median, median / minimal, " ".join("%.1f" % v for v in values)))
EOF
