#!/usr/bin/env bash
# Where the application's CPU goes while deciding: JFR execution samples of the benchmark application under
# RateLimiter.tryAcquire load (64 in flight unless IN_FLIGHT says, 100k keys), or under wrk on one of its HTTP
# endpoints (100k tenants), summarised as the top frames, the share of samples with the extension on the stack, and
# the extension's frames nearest to the top.
#
#   bench/profile.sh [client=extension] [seconds=10] [keys=100000]
#   IN_FLIGHT=8 bench/profile.sh extension 15        # decisions in flight of a programmatic client (64 unless set)
#     client: extension, extension-blocking, lettuce, quarkus-client, or http:<path> (http:/http/limited-uni, with wrk)
#     keys: how many tenants the load spreads over (1: one hot key)
#
# Needs JDK 17 (jfr), redis-server and redis-cli, curl, python3 (and wrk for http:). Leaves the recording in
# target/bench-profile.jfr.
source "$(dirname "$0")/lib.sh"
client=${1:-extension}
seconds=${2:-10}
keys=${3:-100000}
recording=$PWD/target/bench-profile.jfr
mkdir -p target
build_bench_app
start_redis
# APP_OPTS: more JVM options for the application (APP_OPTS=-Dquarkus.rate-limit.leases.enabled=true)
if [[ $client == http:* ]]; then
  start_app -Xmx1g ${APP_OPTS:-} # recorded after wrk's warm-up
else
  start_app -Xmx1g ${APP_OPTS:-} -XX:StartFlightRecording=filename="$recording",settings=profile,method-profiling=max
fi
if [[ $client == http:* ]]; then
  cat > "$work/tenants.lua" <<LUA
request = function()
  return wrk.format("GET", nil, { ["X-Tenant-Id"] = "t" .. math.random(1, $keys) })
end
LUA
  url="http://127.0.0.1:$app_port${client#http:}"
  wrk -t2 -c64 -d3s -s "$work/tenants.lua" "$url" > /dev/null
  jcmd "$app_pid" JFR.start name=measured settings=profile "jdk.ExecutionSample#period=1ms" > /dev/null
  wrk -t2 -c64 -d"${seconds}s" -s "$work/tenants.lua" "$url" | grep -E "Requests/sec|Non-2xx"
  jcmd "$app_pid" JFR.dump name=measured filename="$recording" > /dev/null
else
  curl -s "http://127.0.0.1:$app_port/bench/run?client=$client&inFlight=${IN_FLIGHT:-64}&keys=$keys&seconds=$seconds&warmup=3"
  echo
  jcmd "$app_pid" JFR.dump filename="$recording" > /dev/null
fi
jfr print --stack-depth 64 --events jdk.ExecutionSample "$recording" | python3 -c '
import collections, re, sys
top, ours, total, stack, with_ours = collections.Counter(), collections.Counter(), 0, [], 0
def flush():
    global total, with_ours
    if stack:
        total += 1
        top[stack[0]] += 1
        for frame in stack:
            if "io.quarkiverse.ratelimit" in frame:
                ours[frame] += 1
                with_ours += 1
                break
for line in sys.stdin:
    if line.startswith("jdk.ExecutionSample"):
        flush(); stack = []
    m = re.match(r"\s+([\w$.<>]+\([^)]*\))\s+line:", line)
    if m:
        stack.append(m.group(1))
flush()
print("%d samples; top frames:" % total)
for frame, n in top.most_common(15):
    print("  %5.1f%%  %s" % (100.0 * n / total, frame))
print("%.1f%% of the samples have an extension frame on the stack; the one nearest to the top:" % (100.0 * with_ours / total))
for frame, n in ours.most_common(12):
    print("  %5.1f%%  %s" % (100.0 * n / total, frame))'
