-- What every entry function (rate_limit.lua, refund.lua, concurrency.lua) shares: the clock and the
-- argument layout, the Lua half of the contract whose Java half is runtime/redis/ScriptArguments.java (a
-- test runs the two against each other). runtime/redis/RateLimitScripts.java assembles the files two ways:
-- as one script per entry (EVAL, with the modules the call's algorithms need), and as one Redis 7 function
-- library holding every entry and every module (FCALL), which Redis builds once when it loads the library
-- instead of on every call. Either way an entry is a function of (KEYS, ARGV) and nothing is global.
--
--   ARGV[1]                          now in microseconds, or '' for Redis TIME (an explicit clock is
--                                    for tests only)
--   ARGV[2 + ARGS_PER_LIMIT(i - 1)]  limit i: algorithm module name, limit, window_ms, cost, burst
--                                    (5 values; a burst of 0 means the limit)
--   ARGV[2 + ARGS_PER_LIMIT * #KEYS] optional, rate_limit.lua only: the shadow mask, one character per
--                                    limit, '1' for a limit in shadow mode (its refusal does not refuse
--                                    the call); absent or '' when every limit is enforced
--   ARGV[3 + ARGS_PER_LIMIT * #KEYS] optional, rate_limit.lua only: how long the call may wait for a later
--                                    slot, in ms (absent, '' or 0: it may not wait; the shadow mask is then
--                                    '' when there is none)
--
--   clock(ARGV)             the clock in whole microseconds
--   limit_args(ARGV, i)     limit i's algorithm module name, limit, window_us (the window in
--                           microseconds; for calendar_window the boundaries string it sends instead),
--                           cost and burst (0 replaced by the limit)
--   limit_args_at(ARGV, a)  the same of the limit whose arguments start at ARGV[a]
--   shadowed(KEYS, ARGV, i) whether limit i is in shadow mode
--   announce(KEYS, channel) publishes KEYS on the invalidation channel (nothing when channel is nil or '')
--   read_state(key), write_state(key, state, ttl_ms, added)
--                           the counting modules' one value of a key (GET), and its write (SET, with a TTL in
--                           ms, or false to keep the key's; or, given what the call added to the integer the key
--                           holds, INCRBY, the key's TTL kept)
--   max_wait_ms(KEYS, ARGV) how long the call may wait for a later slot, in ms; 0 when it may not
--   leased_units(leases_key, now_us, except, grace_us)
--                           what the leases of a key hold at most, but instance except's (nil: none
--                           left out), counting a lease until grace_us after it ended (lua/leased.lua: 0,
--                           the live ones; lua/lease.lua: those a recall can still bring back)
--
-- Every algorithm module (lua/<algorithm>.lua) returns { check = ..., commit = ..., refund = ... }:
--   check(key, now_us, limit, window_us, cost, burst) -> allowed (1 | 0), remaining, reset_ms,
--     retry_after_ms (0 when allowed, -1 when the cost can never fit), then, when it admits, up to four
--     values for commit; it writes nothing
--   commit(key, ...) records the admitted call from the values check returned
--   a module whose state is one value reads it with read_state and writes it with write_state, never with
--   commands of its own, so that a batch can hold it (lua/held_state.lua)
--   refund(key, now_us, limit, window_us, cost, burst) gives back what an admitted call consumed
--   charge(key, now_us, limit, window_us, cost, burst) records what a settled call took beyond what it
--     reserved, beyond the limit if need be: the limit's debt, paid back as each module says (lua/settle.lua).
--     A debt saturates instead of wrapping around: a count at MAX_COUNT units, a time (GCRA, the token bucket) at
--     MAX_DEBT_US from now; either refuses every call for longer than any window the application can name holds it,
--     and keeps every stored value an exact integer (a count of 2^51 times four, the fixed window's state, would not
--     be). The application refuses a single settlement above LimitRules.MAX_COST before it gets here.
--   reserves = true in a module that can record a call at a later time than now (a reservation):
--     check works for any now_us at or after the clock, future included, and, when it admits, returns
--     exactly two values for commit, the state and its TTL in ms counted from that now_us; and
--     wait_us(key, now_us, limit, window_us, cost, burst) says in microseconds (rounded up) when a
--     refused call fits: the time a reservation records it at
--   leases (lua/lease.lua): a window's module exports window_end_us(now_us, window_us), the end of the
--     window that holds now_us (a slice is spent in it only); a bucket's exports
--     check_lease(key, now_us, limit, window_us, cost, slice, burst, lease_us), check's values for the call
--     and a slice out for lease_us, which the bucket must not refill into
-- Plain values rather than tables or closures: each table or closure is an allocation per decision.
-- Numbers in strings (arguments, TIME, stored values) are read by arithmetic, `s + 0`, not tonumber(s):
-- tonumber parses the string twice (lua_isnumber, then lua_tonumber, each a strtod) behind a C call, and
-- five of them took 8 % of a decision's instructions. A stored value that is not a number then fails the
-- call instead of passing for an absent key.
--
-- Exact arithmetic: Lua numbers are doubles, exact for integers up to 2^53. The modules compute on whole
-- microseconds and scale instead of dividing (a token is window_us units, a GCRA interval is window_us
-- over limit), and divide once, last, where a reply needs milliseconds or whole units. So every decision,
-- remaining count, reset and retry-after is exact while limit (and burst) times window_us stays below 2^53
-- (9 * 10^15: 9 billion per second, 2.5 million per hour, 100,000 per day); beyond that a time may be a
-- millisecond off (ScriptsMatchTheirModelsTest checks all of it against exact Java models).
-- Where every decision passes, two operators stand for C calls, each of which costs a decision some 500
-- instructions (a global, a field and the call): a % b for math.fmod(a, b), its value for whole a and b
-- at or above 0 with a below 2^53 (floor(a / b) cannot round up to the next whole number), and
-- x + (-x) % 1 for math.ceil(x), x at or above 0 (ceil(x) - x is exact).

local ARGS_PER_LIMIT = 5

local MAX_COUNT = 1125899906842624 -- 2^50: the most units a window or period counts after a settled overrun
local MAX_DEBT_US = 3155760000000000 -- 100 years of 365.25 days: the longest a settled overrun holds a GCRA limit

local function clock(ARGV)
  if ARGV[1] ~= '' then
    return ARGV[1] + 0
  end
  local time = redis.call('TIME')
  return time[1] * 1000000 + time[2]
end

-- whether limit i is in shadow mode: it is decided and recorded as if enforced, but cannot refuse the call
local function shadowed(KEYS, ARGV, i)
  local mask = ARGV[2 + ARGS_PER_LIMIT * #KEYS]
  return mask ~= nil and mask:byte(i) == 49
end

-- Every instance subscribes to the invalidation channel (runtime/redis/InvalidationChannel.java): a
-- change that can turn a refusal into an admission publishes the keys it changed, in the script that
-- changes them, so no instance can miss it and still hear of later ones. PUBLISH takes no key: in a
-- cluster it reaches every node, whichever slot the script ran on.
local function announce(KEYS, channel)
  if channel ~= nil and channel ~= '' then
    redis.call('PUBLISH', channel, table.concat(KEYS, '\n'))
  end
end

-- the units the leases of a limit's key hold at most (lua/lease.lua): each instance's field of the key's leases
-- hash, 'units give_back_until_us lease_id lease_end_us', but instance `except`'s, counts while its give-back
-- still counts and until grace_us after its lease ended
local function leased_units(leases_key, now_us, except, grace_us)
  local held = redis.call('HGETALL', leases_key)
  local units = 0
  for j = 1, #held, 2 do
    local slice, until_us, lease_end_us = string.match(held[j + 1], '^(%d+) (%d+) %S+ (%d+)$')
    if slice and held[j] ~= except and until_us + 0 > now_us and lease_end_us + grace_us > now_us then
      units = units + slice
    end
  end
  return units
end

-- how long the call may wait for a later slot, in ms: 0 when it may not (read only when a limit refuses)
local function max_wait_ms(KEYS, ARGV)
  local wait = ARGV[3 + ARGS_PER_LIMIT * #KEYS]
  if wait == nil or wait == '' then
    return 0
  end
  return wait + 0
end

-- The usual cost ('1') and burst ('0', the limit) are compared as strings: parsing a number (strtod) is a
-- large share of a decision's CPU in Redis.
-- limit_args_at reads the limit whose arguments start at ARGV[arg] (a batch holds several calls' arguments).
local function limit_args_at(ARGV, arg)
  local limit = ARGV[arg + 1] + 0
  local cost, burst = ARGV[arg + 3], ARGV[arg + 4]
  if cost == '1' then
    cost = 1
  else
    cost = cost + 0
  end
  if burst == '0' then
    burst = limit
  else
    burst = burst + 0
  end
  local name = ARGV[arg]
  if name == 'calendar_window' then
    return name, limit, ARGV[arg + 2], cost, burst -- the period's boundaries, not a length
  end
  return name, limit, ARGV[arg + 2] * 1000, cost, burst
end

local function limit_args(ARGV, i)
  return limit_args_at(ARGV, 2 + ARGS_PER_LIMIT * (i - 1))
end

-- A module whose state is one value reads and writes it here. In the function library a batch can hold the
-- key of a run of calls (lua/held_state.lua: hold): its writes stay in these locals, each read by the next
-- call, until the run ends; a script (one call) holds nothing, and writes at once. One function each, with
-- no layer over it: a Lua call costs a decision some 370 instructions.
local held_key = nil      -- the key whose writes are kept here, or nil
local held_state = nil    -- its value not written yet, or nil while nothing is kept
local held_ttl_ms = false -- the TTL a kept write set (a window's first write), or false: the key's own

local function read_state(key)
  if held_state ~= nil and key == held_key then
    return held_state
  end
  return redis.call('GET', key)
end

-- the last TTL written and its text: a batch's calls run at one instant, so the windows that start for several
-- keys of one limit in a batch end together, and the TTL is printed once
local ttl_ms_printed, ttl_text = nil, nil

-- ttl_ms: the key's TTL in ms, or false to keep the one it has. added: for a key that holds an integer the call
-- adds to (a counting module's count in the window the key holds), what it adds; state is then the new total, a
-- number, and the key keeps its TTL. Such a write is an INCRBY rather than a SET ... KEEPTTL of the total: it parses
-- no value and no option, answers an integer where SET's OK becomes a Lua table, and updates the integer in place;
-- and the usual increment (4: one unit in the counting modules' encoding, units * 4 + window index) is sent without
-- printing a number. A decision on live keys costs Redis about a fifth fewer instructions for it
-- (bench/batch-instructions.sh). A module's commit may be this function itself: a Lua call costs a decision some
-- 370 instructions.
local function write_state(key, state, ttl_ms, added)
  if key == held_key then
    if added then
      state = string.format('%d', state) -- written whole when the run ends, with the TTL the key has
    end
    held_state = state
    if ttl_ms then
      held_ttl_ms = ttl_ms
    end
  elseif added == 4 then
    redis.call('INCRBY', key, '4')
  elseif added then
    redis.call('INCRBY', key, string.format('%d', added))
  elseif ttl_ms then
    if ttl_ms ~= ttl_ms_printed then
      ttl_ms_printed, ttl_text = ttl_ms, string.format('%d', ttl_ms)
    end
    redis.call('SET', key, state, 'PX', ttl_text)
  else
    redis.call('SET', key, state, 'KEEPTTL')
  end
end
