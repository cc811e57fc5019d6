#!/usr/bin/env bash
# What the extension adds to an application's start-up: the same REST application of four endpoints
# (bench/startup-app) with quarkus-redis-client only, with its endpoints reading Redis through that client (an
# application that uses Redis: its first answer opens the connection), and with the rate limiter limiting every
# endpoint, each started
# <starts> times, interleaved, against a running redis-server; and the limited one with Redis down. Reports the
# medians of Quarkus's "started in" time, of the time until the first answer (a limited call, decided by Redis), of
# the resident memory (VmRSS) after that answer, and of the CPU the process spent until then (user and system, every
# thread: the JIT compilers' included), which moves less from start to start than the times on a busy machine.
# With a second argument, <lambdas>, also the application that uses Redis with that many lambdas of its own built at
# start-up (no limiter): the JVM compiles its class writer with C2 once enough classes are generated, whoever generates
# them, and this shows where that threshold lies for this application.
# Usage: bench/startup.sh [starts=5] [lambdas]. Needs redis-server, redis-cli, curl, python3.
source "$(dirname "$0")/lib.sh"
starts=${1:-5}
lambdas=${2:-}

./mvnw -q -B install -DskipTests
variants=(plain redis limits)
if [[ -n $lambdas ]]; then
  variants+=(lambdas)
  mkdir -p "$work/lambdas-source/org/acme"
  { echo "package org.acme;"
    echo "@jakarta.inject.Singleton public class StartupLambdas {"
    echo "  static final java.util.List<java.util.function.IntSupplier> BUILT = new java.util.ArrayList<>();"
    echo "  void build(@jakarta.enterprise.event.Observes io.quarkus.runtime.StartupEvent event) {"
    echo "    int base = event.hashCode();"
    for i in $(seq 1 "$lambdas"); do echo "    BUILT.add(() -> base + $i);"; done
    echo "  }"
    echo "}"; } > "$work/lambdas-source/org/acme/StartupLambdas.java"
fi
for variant in "${variants[@]}"; do
  profile=(); [[ $variant != plain ]] && profile=(-P"$variant" -Dlambdas.source="$work/lambdas-source")
  ./mvnw -q -B -f bench/startup-app/pom.xml clean package "${profile[@]}"
  cp -r bench/startup-app/target/quarkus-app "$work/$variant"
done
start_redis

# one start: sets started (s, Quarkus's own figure), first (ms until the first 200), rss (kB after it) and cpu (ms)
start_once() {
  local variant=$1 redis_uri=$2 port log pid t0
  port=$(free_port); log="$work/$variant-$port.log"
  t0=$(date +%s%N)
  java -Dquarkus.http.port="$port" -Dquarkus.redis.hosts="$redis_uri" -jar "$work/$variant/quarkus-run.jar" > "$log" 2>&1 &
  pid=$!
  until curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/shop/products" 2>/dev/null | grep -q 200; do
    sleep 0.01
  done
  first=$(( ($(date +%s%N) - t0) / 1000000 ))
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  cpu=$(awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) * 1000 / hz}' "/proc/$pid/stat")
  started=$(grep -o 'started in [0-9.]*s' "$log" | grep -o '[0-9.]*' | head -1)
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

declare -A started_all first_all rss_all cpu_all
for round in $(seq 1 "$starts"); do
  for variant in "${variants[@]}" limits-redis-down; do
    if [[ $variant == limits-redis-down ]]; then
      start_once limits "redis://127.0.0.1:$(free_port)"
    else
      start_once "$variant" "redis://127.0.0.1:$redis_port"
    fi
    started_all[$variant]+="$started "; first_all[$variant]+="$first "; rss_all[$variant]+="$rss "
    cpu_all[$variant]+="$cpu "
  done
done

printf '%-22s %12s %18s %12s %22s\n' "application" "started in" "first answer" "RSS" "CPU to first answer"
for variant in "${variants[@]}" limits-redis-down; do
  printf '%-22s %11.3fs %15.0f ms %9.0f MB %19.0f ms\n' "$variant" "$(median_of "${started_all[$variant]}")" \
    "$(median_of "${first_all[$variant]}")" "$(python3 -c "print($(median_of "${rss_all[$variant]}") / 1024)")" \
    "$(median_of "${cpu_all[$variant]}")"
done
echo "(medians of $starts starts each, interleaved; plain: quarkus-rest + quarkus-redis-client; redis: the same, each"
echo " endpoint reading Redis through that client; limits: plain with quarkus-rate-limit on every endpoint;"
echo " limits-redis-down: the same with nothing listening on the Redis port, its first answer decided by the local"
echo " failure mode; lambdas: redis with that many lambdas of its own built at start-up)"
