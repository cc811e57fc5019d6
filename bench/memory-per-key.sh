#!/usr/bin/env bash
# Redis memory per active key, per algorithm: writes 100,000 tenants' keys with the shipped algorithm modules
# (lua/<algorithm>.lua) inside one script on a throwaway redis-server, and prints the used_memory delta per key and
# MEMORY USAGE of one key. Keys are named as the extension names them (rate-limit:{<tenant>}:<limit>:<suffix>). The
# key's share (name, entry, expiry) is measured with the same keys holding a shared integer with a TTL; the rest is the
# state's. The sliding window log is measured full (limit entries) and with one entry, the sliding window counter with
# calls in one window and in two (then its state is no longer one of Redis's shared integers). Then what a key alone
# costs by the length of its name, with a TTL and without: the floor any one-key-per-limit layout pays.
#
#   bench/memory-per-key.sh [keys=100000] [limit=100]
#
# Needs redis-server and redis-cli on PATH, and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
keys=${1:-100000}
limit=${2:-100}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no > /dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do redis-cli -p "$port" ping > /dev/null 2>&1 && break; sleep 0.1; done

script=$(python3 - <<'PY'
# each module by the name the extension sends, from its file (the token bucket's is GCRA's)
modules = {"fixed_window": "fixed_window", "sliding_window_counter": "sliding_window_counter",
           "sliding_window_log": "sliding_window_log", "token_bucket": "gcra", "gcra": "gcra",
           "calendar_window": "calendar_window"}
body = "".join("['%s'] = (function()\n%s\nend)(),\n" % (m, open("lua/%s.lua" % f).read()) for m, f in modules.items())
# the one-value modules read and write their state through the prelude's read_state and write_state (a script's: GET,
# and SET with its TTL or INCRBY), taken from lua/prelude.lua with the locals they share, as the extension's scripts
# take them
prelude = open("lua/prelude.lua").read()
state = prelude[prelude.index("local held_key"):]
state = state[:state.index("\nend\n", state.index("local function write_state")) + 5]
print(state + "local ALGORITHMS = {\n" + body + "}\n" + """
local name, n, limit, calls = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local earlier = tonumber(ARGV[6])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local window = 3600000000
if name == 'calendar_window' then -- the UTC days around now, as the application sends them
  local day = 86400000
  local start = math.floor(now / 1000 / day) * day
  window = string.format('%d %d %d %d', start - day, start, start + day, start + 2 * day)
end
for i = 1, n do
  for c = 1, calls do
    local key = 'rate-limit:{tenant-' .. i .. '}:Resource.method:' .. ARGV[5]
    local at = now + c * 10
    if c <= earlier then -- in the window before (a counting window then holds two counts)
      at = at - 3600000000
    end
    local allowed, _, _, _, s1, s2, s3, s4 = ALGORITHMS[name].check(key, at, limit, window, 1, limit)
    if allowed == 1 then ALGORITHMS[name].commit(key, s1, s2, s3, s4) end
  end
end
return n""")
PY
)
used() { redis-cli -p "$port" info memory | awk -F: '/^used_memory:/{print $2}' | tr -d '\r'; }
# the same keys holding nothing but a shared integer, with a TTL: what the key itself costs
keys_only='for i = 1, tonumber(ARGV[1]) do
  redis.call("SET", "rate-limit:{tenant-" .. i .. "}:Resource.method:" .. ARGV[2], 1, "PX", 3600000)
end'
printf '%-34s %10s %10s %10s %14s\n' "algorithm (limit $limit, 1 h)" "bytes/key" "key" "state" "MEMORY USAGE"
measure() { # module suffix calls label [calls of them in the window before]
  redis-cli -p "$port" flushall > /dev/null
  local before after one key_share
  before=$(used)
  redis-cli -p "$port" eval "$keys_only" 0 "$keys" "$2" > /dev/null
  key_share=$(( ($(used) - before) / keys ))
  redis-cli -p "$port" flushall > /dev/null
  before=$(used)
  local reply
  reply=$(redis-cli -p "$port" eval "$script" 0 "$1" "$keys" "$limit" "$3" "$2" "${5:-0}")
  [[ $reply == "$keys" ]] || { echo "the script failed for $4: $reply" >&2; exit 1; }
  after=$(used)
  one=$(redis-cli -p "$port" memory usage "rate-limit:{tenant-1}:Resource.method:$2")
  printf '%-34s %10d %10d %10d %14s\n' "$4" $(( (after - before) / keys )) "$key_share" \
    $(( (after - before) / keys - key_share )) "$one"
}
measure fixed_window fw 1 "FIXED_WINDOW"
measure sliding_window_counter sw 1 "SLIDING_WINDOW_COUNTER (1 window)"
measure sliding_window_counter sw 2 "SLIDING_WINDOW_COUNTER (2 windows)" 1
measure sliding_window_log sl 1 "SLIDING_WINDOW_LOG (1 entry)"
measure sliding_window_log sl "$limit" "SLIDING_WINDOW_LOG ($limit entries)"
measure token_bucket tb 1 "TOKEN_BUCKET"
measure gcra gc 1 "GCRA"
measure calendar_window cw 1 "CALENDAR_WINDOW (a day)"

# what a key costs whatever it holds: keys of one name length holding a shared integer, with a TTL (as every key the
# limiter writes has) and, for comparison, one length without
echo
printf '%-34s %10s\n' "a key alone, by name length" "bytes/key"
key_alone() { # name length, then PX or nothing
  redis-cli -p "$port" flushall > /dev/null
  local before expiry=""
  [[ ${2:-} == PX ]] && expiry=", 'PX', 3600000"
  before=$(used)
  redis-cli -p "$port" eval "for i = 1, tonumber(ARGV[1]) do
    redis.call('SET', string.format('%0$1d', i), 1$expiry)
  end" 0 "$keys" > /dev/null
  printf '%-34s %10d\n' "$1 characters${2:+, with a TTL}" $(( ($(used) - before) / keys ))
}
for length in 8 14 16 30 31 44 45 60 61; do key_alone "$length" PX; done
key_alone 8
