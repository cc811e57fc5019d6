#!/usr/bin/env bash
# The same endpoint with and without @RateLimited (synchronous on a worker thread, and Uni on the event loop), driven
# by wrk with 100,000 tenants and with one hot tenant; then one tenant over its limit (10 per hour) flooding an
# endpoint. Prints requests/s, the ratio to the unannotated endpoint, non-2xx responses, Redis commands per refused
# request and the application's CPU per request (plain, admitted and refused, 5 rounds in turn; the refused one also
# against a plain Uni page about as large as a refusal's response). All in one run, on one
# redis-server. Also the transport's ceiling: the Uni endpoint sending the baseline's script through Quarkus's Redis
# client itself, with no rate limiter, against the plain Uni endpoint: the most any limiter on that client could reach.
#
#   bench/http.sh [seconds=10] [connections=64]
#
# Needs JDK 17, redis-server and redis-cli, curl, python3 and wrk (Debian package wrk: apt-get install wrk).
source "$(dirname "$0")/lib.sh"
seconds=${1:-10}
connections=${2:-64}
command -v wrk > /dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
build_bench_app
start_redis
# APP_OPTS: more JVM options for the application (APP_OPTS=-Dquarkus.rate-limit.leases.enabled=true)
start_app -Xmx1g ${APP_OPTS:-}

cat > "$work/tenants.lua" <<'LUA'
-- a random tenant of 100,000 per request
request = function()
  return wrk.format("GET", nil, { ["X-Tenant-Id"] = "t" .. math.random(1, 100000) })
end
LUA
base="http://127.0.0.1:$app_port"

# run <path> <tenants: many | hot | name>: prints "requests/s non2xx"
run() {
  local out
  if [ "$2" = many ]; then
    out=$(wrk -t2 -c"$connections" -d"${seconds}s" -s "$work/tenants.lua" "$base$1")
  else
    out=$(wrk -t2 -c"$connections" -d"${seconds}s" -H "X-Tenant-Id: $2" "$base$1")
  fi
  local rps non2xx requests
  rps=$(awk '/Requests\/sec/ {print $2}' <<< "$out")
  requests=$(awk '/requests in/ {print $1}' <<< "$out")
  non2xx=$(awk '/Non-2xx/ {print $5}' <<< "$out")
  echo "$rps ${non2xx:-0} $requests"
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$app_pid/stat"; }
ticks_per_second=$(getconf CLK_TCK)

echo "warming up..."
for path in /http/plain /http/limited /http/plain-uni /http/limited-uni /http/transport-uni; do
  wrk -t2 -c"$connections" -d5s -s "$work/tenants.lua" "$base$path" > /dev/null
done

printf '%-42s %12s %8s %10s\n' "endpoint (tenants)" "requests/s" "ratio" "non-2xx"
for kind in "" "-uni"; do
  for tenants in many hot; do
    read -r plain _ _ <<< "$(run "/http/plain$kind" "$tenants")"
    read -r limited non2xx _ <<< "$(run "/http/limited$kind" "$tenants")"
    printf '%-42s %12s %8s %10s\n' "/http/plain$kind ($tenants)" "$plain" "" ""
    printf '%-42s %12s %8.2f %10s\n' "/http/limited$kind ($tenants)" "$limited" \
      "$(python3 -c "print($limited / $plain)")" "$non2xx"
  done
done

# the transport's ceiling: the Uni endpoint sending the baseline's script through Quarkus's Redis client itself
read -r plain _ _ <<< "$(run /http/plain-uni many)"
read -r transport non2xx _ <<< "$(run /http/transport-uni many)"
printf '%-42s %12s %8.2f %10s   (no rate limiter: only its transport)\n' "/http/transport-uni (many)" "$transport" \
  "$(python3 -c "print($transport / $plain)")" "$non2xx"

# one tenant over its limit floods /http/over-limit: Redis commands per refused request
for _ in $(seq 1 11); do curl -s -o /dev/null -H 'X-Tenant-Id: flooder' "$base/http/over-limit"; done
commands_before=$(redis info stats | tr -d '\r' | awk -F: '/^total_commands_processed/ {print $2}')
read -r refused_rps non2xx refused <<< "$(run /http/over-limit flooder)"
commands=$(( $(redis info stats | tr -d '\r' | awk -F: '/^total_commands_processed/ {print $2}') - commands_before ))
echo
echo "one tenant over its limit, flooding: $refused_rps refused/s ($non2xx of $refused answered 429)," \
  "$(python3 -c "print('%.5f' % ($commands / $refused))") Redis commands per refused request ($commands in all)"

# the application's CPU per request of the plain endpoint, per admitted request (100k tenants, each far below its
# limit) and per refused request (the flood), in turn, every path compiled by now (the flood above warmed the refused
# one): medians of 5 rounds
cpu_per_request() { # <path> <tenants>: microseconds of application CPU per request
  local before requests
  before=$(cpu_ticks)
  read -r _ _ requests <<< "$(run "$1" "$2")"
  python3 -c "print(($(cpu_ticks) - $before) / $ticks_per_second / $requests * 1e6)"
}
# a refusal is a response of about 500 bytes (headers and the problem body); the plain Uni endpoint's is 80, and
# /http/page-uni is a plain Uni page about as large as the refusal
response_bytes() { curl -s -o /dev/null -w '%{size_header} + %{size_download}' "${@:2}" "$base$1"; }
echo "response bytes (headers + body): refusal $(response_bytes /http/over-limit -H 'X-Tenant-Id: flooder')," \
  "plain Uni $(response_bytes /http/plain-uni), page as large $(response_bytes /http/page-uni)"
plains=(); added=(); refused_ratios=(); uni_ratios=(); page_ratios=(); ratios=()
for round in 1 2 3 4 5; do
  plain_us=$(cpu_per_request /http/plain many)
  plain_uni_us=$(cpu_per_request /http/plain-uni many)
  page_uni_us=$(cpu_per_request /http/page-uni many)
  admitted_us=$(cpu_per_request /http/limited many)
  refused_us=$(cpu_per_request /http/over-limit flooder)
  printf 'application CPU per request, round %d: plain %.1f us, plain Uni %.1f us, page as large %.1f us, admitted %.1f us, refused %.1f us\n' \
    "$round" "$plain_us" "$plain_uni_us" "$page_uni_us" "$admitted_us" "$refused_us"
  added+=("$(python3 -c "print($admitted_us - $plain_us)")")
  refused_ratios+=("$(python3 -c "print($refused_us / $plain_us)")")
  uni_ratios+=("$(python3 -c "print($refused_us / $plain_uni_us)")")
  page_ratios+=("$(python3 -c "print($refused_us / $page_uni_us)")")
  ratios+=("$(python3 -c "print($refused_us / $admitted_us)")")
done
printf 'CPU added per admitted request (admitted - plain), median of 5: %.1f us\n' \
  "$(printf '%s\n' "${added[@]}" | median)"
printf 'refused / plain CPU per request, median of 5: %.2f\n' "$(printf '%s\n' "${refused_ratios[@]}" | median)"
printf 'refused / plain Uni CPU per request, median of 5: %.2f\n' "$(printf '%s\n' "${uni_ratios[@]}" | median)"
printf 'refused / plain Uni page as large CPU per request, median of 5: %.2f\n' \
  "$(printf '%s\n' "${page_ratios[@]}" | median)"
printf 'refused / admitted CPU per request, median of 5: %.2f\n' "$(printf '%s\n' "${ratios[@]}" | median)"
