#!/usr/bin/env bash
# Where the application's CPU goes while deciding: JFR execution samples of the benchmark application under
# RateLimiter.tryAcquire load (64 in flight, 100k keys), summarised as the top frames and the top extension frames.
#
#   bench/profile.sh [client=extension] [seconds=10]   (client: extension, extension-blocking or lettuce)
#
# Needs JDK 17 (jfr), redis-server and redis-cli, curl, python3. Leaves the recording in target/bench-profile.jfr.
source "$(dirname "$0")/lib.sh"
client=${1:-extension}
seconds=${2:-10}
recording=$PWD/target/bench-profile.jfr
mkdir -p target
build_bench_app
start_redis
start_app -Xmx1g -XX:StartFlightRecording=filename="$recording",settings=profile
curl -s "http://127.0.0.1:$app_port/bench/run?client=$client&inFlight=64&keys=100000&seconds=$seconds&warmup=3"; echo
jcmd "$app_pid" JFR.dump filename="$recording" > /dev/null
jfr print --events jdk.ExecutionSample "$recording" | python3 -c '
import collections, re, sys
top, ours, total, stack = collections.Counter(), collections.Counter(), 0, []
def flush():
    global total
    if stack:
        total += 1
        top[stack[0]] += 1
        for frame in stack:
            if "io.quarkiverse.ratelimit" in frame:
                ours[frame] += 1
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
print("first extension frame on the stack:")
for frame, n in ours.most_common(12):
    print("  %5.1f%%  %s" % (100.0 * n / total, frame))'
