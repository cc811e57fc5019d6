# Shared by the bench/*.sh scripts: build the benchmark application, start one redis-server and the application on free
# ports, stop everything on exit. Needs redis-server and redis-cli on PATH (or RATE_LIMIT_REDIS_SERVER), curl, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
redis_server=${RATE_LIMIT_REDIS_SERVER:-redis-server}
work=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# node_port: a free port for a cluster node whose bus port (10000 higher) is free too
node_port() {
  python3 -c '
import random, socket
while True:
    port = random.randint(20000, 45000)
    try:
        for p in (port, port + 10000):
            s = socket.socket(); s.bind(("127.0.0.1", p)); s.close()
        print(port); break
    except OSError:
        pass'
}

# BENCH_SKIP_BUILD=1 runs the application built last (its extension jars are copied into it): to compare two builds
# interleaved, build each once (in its own work tree), then run the script in each in turn with it set.
build_bench_app() {
  if [[ -n "${BENCH_SKIP_BUILD:-}" && -f bench/decisions-app/target/quarkus-app/quarkus-run.jar ]]; then
    return
  fi
  ./mvnw -q -B install -DskipTests
  ./mvnw -q -B -f bench/decisions-app/pom.xml package
}

start_redis() {
  redis_port=$(free_port)
  "$redis_server" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no > "$work/redis.log" 2>&1 &
  pids+=($!)
  until redis-cli -p "$redis_port" ping >/dev/null 2>&1; do sleep 0.1; done
}

redis() { redis-cli -p "$redis_port" "$@"; }

# start_app [extra JVM options...]: the benchmark application on $app_port, against the Redis of start_redis (or the
# port in $app_redis_port: a proxy in front of it)
start_app() {
  app_port=$(free_port)
  java "$@" -Dquarkus.http.port="$app_port" -Dquarkus.redis.hosts="redis://127.0.0.1:${app_redis_port:-$redis_port}" \
    -jar bench/decisions-app/target/quarkus-app/quarkus-run.jar > "$work/app.log" 2>&1 &
  app_pid=$!
  pids+=($app_pid)
  for _ in $(seq 1 300); do
    curl -s -o /dev/null "http://127.0.0.1:$app_port/http/plain" && return 0
    sleep 0.1
  done
  echo "the benchmark application did not start:" >&2; cat "$work/app.log" >&2; exit 1
}

# start_instances <jar> <path>: two instances of the application <jar> on $port_a and $port_b, against the Redis of
# start_redis, each answering GET <path> (for a tenant of its own) before this returns
start_instances() {
  local jar=$1 path=$2 port
  port_a=$(free_port); port_b=$(free_port)
  for port in "$port_a" "$port_b"; do
    java -Dquarkus.http.port="$port" -Dquarkus.redis.hosts="redis://127.0.0.1:$redis_port" -jar "$jar" \
      > "$work/app-$port.log" 2>&1 &
    pids+=($!)
  done
  for port in "$port_a" "$port_b"; do
    for _ in $(seq 1 300); do
      curl -s -o /dev/null -H 'X-Tenant-Id: warm-up' "http://127.0.0.1:$port$path" && break
      sleep 0.1
    done
  done
}

# bench_run <app port> <client> <in flight> <keys> <seconds>: one run of the benchmark application's /bench/run;
# sets line (its report), rate (decisions/s) and all (every decision, warm-up included)
bench_run() {
  line=$(curl -s "http://127.0.0.1:$1/bench/run?client=$2&inFlight=$3&keys=$4&seconds=$5")
  rate=$(sed -E 's/.*decisions\/s=([0-9]+).*/\1/' <<< "$line")
  all=$(sed -E 's/.* all=([0-9]+).*/\1/' <<< "$line")
}

# cpu_per_decision <CPU seconds before> <after> <decisions>: microseconds per decision, one decimal
cpu_per_decision() { python3 -c "print('%.1f' % (($2 - $1) * 1e6 / $3))"; }

# minimal_script <file>: the hand-written baseline's sliding-window-counter script, from the benchmark application
minimal_script() {
  python3 - bench/decisions-app/src/main/java/org/acme/bench/MinimalSlidingWindow.java > "$1" <<'PY'
import sys, textwrap
source = open(sys.argv[1]).read()
block = source.split('SCRIPT = """', 1)[1].split('""";', 1)[0]
print(textwrap.dedent(block).strip())
PY
}

# library_function <entry> <library.lua>: the name the build gave an entry of the function library
library_function() { grep -o "function_name='$1_[0-9a-f]*'" "$2" | cut -d"'" -f2; }

# script_usec_per_call: Redis CPU per script call since the last CONFIG RESETSTAT (FCALL, EVALSHA and EVAL together)
script_usec_per_call() {
  redis info commandstats | tr -d '\r' | python3 -c '
import re, sys
calls = usec = 0
for line in sys.stdin:
    m = re.match(r"cmdstat_(fcall|evalsha|eval):calls=(\d+),usec=(\d+)", line)
    if m:
        calls += int(m.group(2)); usec += int(m.group(3))
print("%.1f" % (usec / calls) if calls else "n/a")'
}

# redis_cpu_seconds: the CPU the redis-server process has used (user and system), in seconds: commands, scripts,
# parsing, replies and network, everything a decision costs Redis
redis_cpu_seconds() {
  redis info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/ {sum += $2} END {printf "%.6f\n", sum}'
}

# process_cpu_seconds <pid>: the CPU a process has used (user and system), in seconds
process_cpu_seconds() {
  awk -v tick="$(getconf CLK_TCK)" '{printf "%.6f\n", ($14 + $15) / tick}' "/proc/$1/stat"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# median_of "<values separated by spaces>": their median (the runs a script collected for one configuration)
median_of() { tr ' ' '\n' <<< "$1" | grep . | median; }

# callgrind_start <label> <library.lua>: a redis-server under valgrind's callgrind on $callgrind_port, the function
# library loaded; callgrind_stop <label>: stops it and prints the instructions of its command dispatch (`call`, the
# command and everything under it), which repeat between runs whatever else the machine does. Need valgrind.
callgrind_start() {
  callgrind_port=$(free_port)
  valgrind --tool=callgrind --callgrind-out-file="$work/$1.out" "$redis_server" --port "$callgrind_port" \
    --bind 127.0.0.1 --save "" --appendonly no > "$work/$1.log" 2>&1 &
  callgrind_pid=$!
  until redis-cli -p "$callgrind_port" ping > /dev/null 2>&1; do sleep 0.2; done
  redis-cli -p "$callgrind_port" -x FUNCTION LOAD < "$2" > /dev/null
}
callgrind_stop() {
  redis-cli -p "$callgrind_port" shutdown nosave > /dev/null 2>&1 || true
  wait "$callgrind_pid" 2>/dev/null || true
  callgrind_annotate --inclusive=yes "$work/$1.out" 2>/dev/null \
    | grep -E '\?\?\?:call \[' | head -1 | awk '{gsub(",", "", $1); print $1}'
}
