#!/usr/bin/env bash
# Redis CPU per decision as instructions, which unlike microseconds do not move with whatever else the machine does
# (on this 2-core VM, bench/redis-cpu.sh's figures swing by 30 % between runs): redis-server runs under valgrind's
# callgrind, once per script, and the instructions of its command dispatch (`call`, the command and everything under
# it), divided by the calls, are compared with the minimal sliding-window-counter script of the hand-written baseline.
# Measures the function library (FCALL, what Redis 7 runs) and the assembled scripts (EVALSHA, Redis 6), the sliding
# window counter, fixed window, token bucket, GCRA and sliding log, 100 per hour, 3 calls per key as redis-cpu.sh.
#
#   bench/redis-instructions.sh [calls=30000]
#
# Needs valgrind (callgrind_annotate), redis-server, redis-cli, redis-benchmark, python3.
source "$(dirname "$0")/lib.sh"
calls=${1:-30000}
keys=$((calls / 3))

./mvnw -q -B install -DskipTests
scripts=integration-tests/target/quarkus-rate-limit/lua
minimal_script "$work/minimal.lua"
decide=$(library_function rate_limit "$scripts/library.lua")

# instructions <label> <script file to load or -> <redis-benchmark command...>: instructions per call
instructions() {
  local label=$1 file=$2; shift 2
  callgrind_start "$label" "$scripts/library.lua"
  [[ $file != - ]] && redis-cli -p "$callgrind_port" -x SCRIPT LOAD < "$file" > /dev/null
  redis-benchmark -p "$callgrind_port" -n "$calls" -c 4 -P 8 -r "$keys" -q "$@" > /dev/null
  local total
  total=$(callgrind_stop "$label")
  echo "$label $((total / calls))"
}

sha1() { redis-cli -p "$redis_port" -x SCRIPT LOAD < "$1"; }
start_redis # only to compute the scripts' digests
{
  instructions minimal "$work/minimal.lua" EVALSHA "$(sha1 "$work/minimal.lua")" 2 "{tenant-__rand_int__}:a" \
    "{tenant-__rand_int__}:b" 100 3600000
  for algorithm in sliding_window_counter fixed_window token_bucket gcra sliding_window_log; do
    key="rate-limit:{tenant-__rand_int__}:Resource.method:$algorithm"
    instructions "function-$algorithm" - FCALL "$decide" 1 "$key" "" "$algorithm" 100 3600000 1 0
    script="$scripts/rate_limit-$algorithm.lua"
    instructions "script-$algorithm" "$script" EVALSHA "$(sha1 "$script")" 1 "$key" "" "$algorithm" 100 3600000 1 0
  done
} | tee "$work/results"

echo
echo "instructions per call, and the ratio to the minimal script (the target is at most 1.15):"
awk 'NR == 1 { minimal = $2 } { printf "%-34s %7d  %.2f\n", $1, $2, $2 / minimal }' "$work/results"
