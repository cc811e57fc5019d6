-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_us, limit, window_us, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_us, limit, window_us, cost, burst) gives back what an admitted call consumed.
-- GCRA (generic cell rate algorithm), and the token bucket: calls are spaced by the emission interval
-- window / limit, with a tolerance of `burst` intervals (the limit unless configured: one window), so
-- `burst` calls may come at once and then one per emission interval. One key holds the theoretical arrival
-- time (TAT); retry-after is exact to the millisecond. Times relative to now are computed times `limit`,
-- where an interval is window_us: every value is an integer.
-- A bucket of `burst` tokens refilled at `limit` per window holds burst - (full - now) / interval tokens,
-- where `full` is the time it is full again, and a call taking `cost` tokens fits when that leaves none
-- missing: exactly GCRA's test with the TAT as `full`. So this module is the token bucket too
-- (runtime/redis/RateLimitScripts.java builds it under both names); the two differ in the words users
-- choose, not in a decision, a remaining count, a reset or a retry time.
--   refund     gives back what the call consumed, by moving the theoretical arrival time back, never
--              before now (a bucket never above its capacity)
--   charge     a settled overrun moves the TAT later, beyond the tolerance if need be: debt, paid back at
--              the limit's rate before the next call
--   remaining  calls that could still come now (the bucket's whole tokens)
--   reset_ms   until the TAT is reached (the full burst is available again)
-- State: the TAT exactly, as whole microseconds and the fraction of one in 1/limit units (an interval
-- is window_us / limit microseconds, rarely a whole number of them), and the limit and window it was
-- written with, packed (struct '<dddd', 32 bytes). The TAT alone would read as the new limit's under a
-- plan change (8 of Starter's 10 an hour would read as 160 of Enterprise's 200): with its rate, TAT - now
-- reads as the units it holds, whatever limit decides next, so a tenant moved to another plan or given a
-- run-time limit keeps what it used, in debt when the new burst is below it. States written before the
-- rate was kept (the whole microseconds as an integer, or '<ddB', 17 bytes) read with the current limit.
-- An absent key means TAT = now. TTL: until the TAT (the key then says nothing an absent one would not).
-- O(1).
-- Reserves: a call checked at a later time than now is recorded at that time (the TAT moves on from
-- there), so a call that waits holds its slot and every later call comes after it.

-- TAT - now, times limit (0 when the TAT has passed or the key is absent): the units the bucket holds,
-- times window_us, so a state written under another limit or window counts the same units under this one
local function ahead_of(key, now_us, limit, window_us)
  local state = read_state(key)
  if not state then
    return 0
  end
  local ahead
  if #state == 32 then
    local tat_us, fraction, written_limit, written_window_us = struct.unpack('<dddd', state)
    ahead = (tat_us - now_us) * written_limit + fraction
    if written_window_us ~= window_us and ahead > 0 then
      ahead = math.ceil(ahead / written_window_us * window_us) -- a plan's other window: rounded to hold more
    end
  elseif #state == 17 then
    local tat_us, fraction = struct.unpack('<ddB', state)
    ahead = (tat_us - now_us) * limit + fraction
  else
    ahead = (state - now_us) * limit
  end
  if ahead < 0 then
    return 0
  end
  return ahead
end

-- the state of TAT = now + ahead / limit, with the rate it was written at. The fraction stays below limit,
-- and every value is an integer below 2^53, exact in a double.
local function encode(now_us, ahead, limit, window_us)
  local whole = math.floor(ahead / limit)
  local fraction = ahead - whole * limit
  if fraction < 0 then -- the division rounded up
    whole, fraction = whole - 1, fraction + limit
  elseif fraction >= limit then
    whole, fraction = whole + 1, fraction - limit
  end
  return struct.pack('<dddd', now_us + whole, fraction, limit, window_us)
end

local function check(key, now_us, limit, window_us, cost, burst)
  local tolerance = burst * window_us
  local ahead = ahead_of(key, now_us, limit, window_us) -- TAT - now, times limit
  local after = ahead + cost * window_us     -- the new TAT - now, times limit

  if after > tolerance then
    local retry_ms = -1
    if cost <= burst then
      retry_ms = math.max(1, math.ceil((after - tolerance) / (limit * 1000)))
    end
    return 0, math.max(0, burst - math.ceil(ahead / window_us)), math.ceil(ahead / (limit * 1000)), retry_ms
  end

  local reset_ms = math.max(1, math.ceil(after / (limit * 1000)))
  return 1, burst - cost - math.ceil(ahead / window_us), reset_ms, 0, encode(now_us, after, limit, window_us), reset_ms
end

-- a reservation (lua/rate_limit.lua): how long until a call of `cost` fits, in microseconds, rounded up to
-- the next one (0 when it fits now). The call is recorded at exactly that time, so that a queue of calls
-- keeps the limit's rate: a slot rounded up to the millisecond would move every later slot by as much
-- (with burst = 1, half a millisecond a call on average: 2 % of the rate at 48 a second).
local function wait_us(key, now_us, limit, window_us, cost, burst)
  local after = ahead_of(key, now_us, limit, window_us) + cost * window_us
  return math.max(0, math.ceil((after - burst * window_us) / limit))
end

local function commit(key, state, reset_ms)
  write_state(key, state, reset_ms)
end

local function refund(key, now_us, limit, window_us, cost, burst)
  local ahead = ahead_of(key, now_us, limit, window_us) - cost * window_us -- the new TAT - now, times limit
  if ahead <= 0 then
    redis.call('DEL', key) -- the TAT is now or past (an absent key stays absent)
    return
  end
  write_state(key, encode(now_us, ahead, limit, window_us), math.max(1, math.ceil(ahead / (limit * 1000))))
end

-- a settled overrun (lua/settle.lua): cost more units, beyond the burst if need be; the TAT moves later by
-- cost intervals, so the calls after it wait until the overrun is paid back at the limit's rate. At most MAX_DEBT_US
-- later than now (prelude): the TAT stays below 2^53 microseconds, exact in a double
local function charge(key, now_us, limit, window_us, cost)
  local ahead = ahead_of(key, now_us, limit, window_us) + cost * window_us
  if ahead >= MAX_DEBT_US * limit then
    write_state(key, struct.pack('<dddd', now_us + MAX_DEBT_US, 0, limit, window_us), MAX_DEBT_US / 1000)
    return
  end
  write_state(key, encode(now_us, ahead, limit, window_us), math.max(1, math.ceil(ahead / (limit * 1000))))
end

-- a lease's decision (lua/lease.lua): the call's cost now and a slice of `slice` units out for lease_us. The
-- bucket refills while the slice is out, and the slice's unused units may come back until the lease ends: for
-- the two never to hold more than the burst together, the bucket must not refill beyond burst - slice before
-- then, so the TAT is at least the lease's end plus the slice's intervals. A bucket drained below that already
-- pays nothing for it; a full one is full again at most one lease later than without the lease.
local function check_lease(key, now_us, limit, window_us, cost, slice, burst, lease_us)
  local after = math.max(ahead_of(key, now_us, limit, window_us) + (cost + slice) * window_us,
    lease_us * limit + slice * window_us)
  if after > burst * window_us then
    return 0
  end
  local reset_ms = math.max(1, math.ceil(after / (limit * 1000)))
  return 1, burst - math.ceil(after / window_us), reset_ms, 0, encode(now_us, after, limit, window_us), reset_ms
end

-- no call before until_us, then one, then one per emission interval: the TAT that admits one call at
-- until_us is (burst - 1) intervals after it; a TAT already later stays
local function pause(key, now_us, limit, window_us, burst, until_us)
  local ahead = (until_us - now_us) * limit + (burst - 1) * window_us
  if ahead_of(key, now_us, limit, window_us) >= ahead then
    return
  end
  write_state(key, encode(now_us, ahead, limit, window_us), math.ceil(ahead / (limit * 1000)))
end

return {
  check = check, commit = commit, refund = refund, charge = charge, reserves = true, wait_us = wait_us, pause = pause,
  check_lease = check_lease
}
