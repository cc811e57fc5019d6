#!/usr/bin/env bash
# Redis instructions per decision in a batch (lua/rate_limit_batch.lua, as the extension sends it under load), counted
# by valgrind's callgrind in a redis-server: the instructions of its command dispatch (`call`, the command and
# everything under it) divided by the decisions, beside the minimal sliding-window-counter script of the hand-written
# baseline, one call per decision, counted the same way in the same run. Instructions repeat between runs whatever
# else the machine does. Sliding window counter, a million an hour: a limit no call reaches (every call writes),
# batches written short as the extension writes them: the first call whole, then each other tenant's call as `=` and
# its key, or, on one hot key, as `0`. Three sets of keys:
#   many   100,000 keys: nearly every call's key is new (a GET of nothing, a SET with an expiry)
#   live   10,000 keys, about three calls each, the minimal script's mix (bench/redis-instructions.sh): most calls
#          find their key in the window it holds
#   hot    one key
#
#   bench/batch-instructions.sh [decisions=32000]
#
# Prints, for batches of 64 and of 16 decisions, the instructions per decision and their ratio to the minimal script's,
# and what a call costs besides its decisions (from the two batch sizes); then where a decision's instructions go in
# batches of 64. And, on the live keys in batches of 64, what any batched decision that reads its key and writes it
# pays before deciding anything: a function that only sends GET and INCRBY for each key it is given (one argument a
# key, one integer back each), and one that sends INCRBY alone. Needs valgrind (callgrind_annotate), redis-server,
# redis-cli, redis-benchmark, python3.
source "$(dirname "$0")/lib.sh"
decisions=${1:-32000}

./mvnw -q -B install -DskipTests
library=integration-tests/target/quarkus-rate-limit/lua/library.lua
batch=$(library_function rate_limit_batch "$library")

# commands <keys: many | live | hot> <batches> <decisions per batch>: the batches' FCALLs, in RESP
commands() {
  python3 - "$batch" "$1" "$2" "$3" <<'PY'
import random, sys
function, keys, batches, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
limit = ['sliding_window_counter', '1000000', '3600000', '1', '0']
def resp(args):
    return '*%d\r\n' % len(args) + ''.join('$%d\r\n%s\r\n' % (len(a.encode()), a) for a in args)
random.seed(1)
out = sys.stdout
tenants = {'many': 100000, 'live': 10000}.get(keys)
for _ in range(batches):
    args, first = [str(size)], None
    for call in range(size):
        key = 'rate-limit:{hot}:Resource.method:sw' if keys == 'hot' else \
            'rate-limit:{t%d}:Resource.method:sw' % random.randrange(tenants)
        if call == 0:
            first = key
            args += ['1', str(1 + len(limit)), key, ''] + limit
        else:
            args += ['0'] if keys == 'hot' else ['=', key]
    out.write(resp(['FCALL', function, '1', first] + args))
PY
}

# instructions <keys> <decisions per batch>: instructions per decision
instructions() {
  local keys=$1 size=$2 label="$1-$2"
  callgrind_start "$label" "$library"
  commands "$keys" $((decisions / size)) "$size" | redis-cli -p "$callgrind_port" --pipe > /dev/null
  local total
  total=$(callgrind_stop "$label")
  echo $((total / decisions))
}

# breakdown <label>: where a decision's instructions went in run <label>, per decision, by the functions redis-server
# names, each with everything it calls (so the lines overlap); the Lua interpreter's own functions are unnamed, and
# what the lines leave is mostly it, running the scripts
breakdown() {
  callgrind_annotate --inclusive=yes "$work/$1.out" 2>/dev/null | python3 -c '
import re, sys
decisions = int(sys.argv[1])
parts = [("scriptCall", "redis.call from the scripts (GET, SET, INCRBY, their commands included)"),
         ("setCommand", "  of which SET (the key, its value and its expiry written)"),
         ("incrbyCommand", "  of which INCRBY (a call in the window its key holds)"),
         ("getCommand", "  of which GET"),
         ("parseReply", "the replies of redis.call turned into Lua values"),
         ("lua_pushlstring", "strings pushed into Lua (the arguments, the replies)"),
         ("__sprintf_chk", "numbers printed as strings (the state written, its expiry)"),
         ("addReplyLongLong", "the reply integers (one for a call admitted at once, else four)")]
found = {}
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \([^)]*\)\s+\S*?:([\w.]+) \[", line)
    if m and m.group(2) not in found:
        found[m.group(2)] = int(m.group(1).replace(",", ""))
total = found.get("call", 0)
print("  %-75s %7d" % ("all (the command dispatch)", total / decisions))
for name, what in parts:
    if name in found:
        print("  %-75s %7d" % (what, found[name] / decisions))' "$decisions"
}

# the minimal script, one EVALSHA per decision, 10,000 keys (bench/redis-instructions.sh's run)
minimal_script "$work/minimal.lua"
callgrind_start minimal "$library"
redis-benchmark -p "$callgrind_port" -n "$decisions" -c 4 -P 8 -r 10000 -q EVALSHA \
  "$(redis-cli -p "$callgrind_port" -x SCRIPT LOAD < "$work/minimal.lua")" 2 "{tenant-__rand_int__}:a" \
  "{tenant-__rand_int__}:b" 100 3600000 > /dev/null
minimal=$(( $(callgrind_stop minimal) / decisions ))
echo "the minimal script: $minimal per decision"

# floor <function>: instructions per key of the floor library's function, on the live keys in batches of 64
cat > "$work/floor.lua" <<'LUA'
#!lua name=floor
local function get_and_incrby(KEYS, ARGV)
  local replies = {}
  for i = 1, #ARGV do
    redis.call('GET', ARGV[i])
    replies[i] = redis.call('INCRBY', ARGV[i], '4')
  end
  return replies
end
local function incrby(KEYS, ARGV)
  local replies = {}
  for i = 1, #ARGV do
    replies[i] = redis.call('INCRBY', ARGV[i], '4')
  end
  return replies
end
redis.register_function{function_name='get_and_incrby', callback=get_and_incrby, flags={'allow-cross-slot-keys'}}
redis.register_function{function_name='incrby', callback=incrby, flags={'allow-cross-slot-keys'}}
LUA
floor() {
  callgrind_start "floor-$1" "$work/floor.lua"
  python3 - "$1" $((decisions / 64)) <<'PY' | redis-cli -p "$callgrind_port" --pipe > /dev/null
import random, sys
function, batches = sys.argv[1], int(sys.argv[2])
def resp(args):
    return '*%d\r\n' % len(args) + ''.join('$%d\r\n%s\r\n' % (len(a.encode()), a) for a in args)
random.seed(1)
for _ in range(batches):
    keys = ['rate-limit:{t%d}:Resource.method:sw' % random.randrange(10000) for _ in range(64)]
    sys.stdout.write(resp(['FCALL', function, '1', keys[0]] + keys))
PY
  echo $(( $(callgrind_stop "floor-$1") / decisions ))
}
for function in get_and_incrby incrby; do
  per_key=$(floor "$function")
  echo "the floor, $function of each key (live keys, batches of 64): $per_key per decision" \
    "($(python3 -c "print('%.2f' % ($per_key / $minimal))") of the minimal script's)"
done

for keys in many live hot; do
  at64=$(instructions "$keys" 64)
  at16=$(instructions "$keys" 16)
  # d + c/16 = at16 and d + c/64 = at64: c, the call's own cost
  call=$(python3 -c "print(round(($at16 - $at64) / (1 / 16 - 1 / 64)))")
  ratios=$(python3 -c "print('%.2f and %.2f' % ($at64 / $minimal, $at16 / $minimal))")
  echo "keys=$keys: per decision in batches of 64 $at64, of 16 $at16 ($ratios of the minimal script's);" \
    "a call besides its decisions about $call"
  echo "keys=$keys, batches of 64: instructions per decision"
  breakdown "$keys-64"
done
