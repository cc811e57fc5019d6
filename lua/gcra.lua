-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_us, limit, window_us, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_us, limit, window_us, cost, burst) gives back what an admitted call consumed.
-- GCRA (generic cell rate algorithm): calls are spaced by the emission interval window / limit, with a
-- tolerance of `burst` intervals (the limit unless configured: one window), so `burst` calls may come at
-- once and then one per emission interval. One key holds the theoretical arrival time (TAT);
-- retry-after is exact to the millisecond. Times relative to now are computed times `limit`, where an
-- interval is window_us: every value is an integer.
--   refund     gives back what the call consumed, by moving the theoretical arrival time back, never
--              before now
--   remaining  calls that could still come now
--   reset_ms   until the TAT is reached (the full burst is available again)
-- State: the TAT in whole microseconds, an integer (Redis stores it in the key's object, with no string
-- allocation), rounded to the nearest microsecond. An absent key means TAT = now.
-- TTL: until the TAT (the key then says nothing an absent one would not). O(1).
-- Reserves: a call checked at a later time than now is recorded at that time (the TAT moves on from
-- there), so a call that waits holds its slot and every later call comes after it.

local function check(key, now_us, limit, window_us, cost, burst)
  local tat = redis.call('GET', key)
  if not tat then
    tat = now_us
  else
    tat = tat + 0
    if tat < now_us then
      tat = now_us
    end
  end
  local tolerance = burst * window_us
  local ahead = (tat - now_us) * limit          -- TAT - now, times limit
  local after = ahead + cost * window_us        -- the new TAT - now, times limit

  if after > tolerance then
    local retry_ms = -1
    if cost <= burst then
      retry_ms = math.max(1, math.ceil((after - tolerance) / (limit * 1000)))
    end
    return 0, math.max(0, burst - math.ceil(ahead / window_us)), math.ceil((tat - now_us) / 1000), retry_ms
  end

  local reset_ms = math.max(1, math.ceil(after / (limit * 1000)))
  return 1, burst - cost - math.ceil(ahead / window_us), reset_ms, 0,
    now_us + math.floor(after / limit + 0.5), reset_ms
end

local function commit(key, new_tat, reset_ms)
  redis.call('SET', key, string.format('%d', new_tat), 'PX', string.format('%d', reset_ms))
end

local function refund(key, now_us, limit, window_us, cost, burst)
  local tat = redis.call('GET', key)
  if not tat then
    return
  end
  local ahead = (tat - now_us) * limit - cost * window_us  -- the new TAT - now, times limit
  if ahead <= 0 then
    redis.call('DEL', key)
    return
  end
  redis.call('SET', key, string.format('%d', now_us + math.floor(ahead / limit + 0.5)), 'PX',
    string.format('%d', math.max(1, math.ceil(ahead / (limit * 1000)))))
end

-- no call before until_us, then one, then one per emission interval: the TAT that admits one call at
-- until_us is (burst - 1) intervals after it; a TAT already later stays
local function pause(key, now_us, limit, window_us, burst, until_us)
  local tat = until_us + math.floor((burst - 1) * window_us / limit + 0.5)
  local stored = redis.call('GET', key)
  if stored and stored + 0 >= tat then
    return
  end
  redis.call('SET', key, string.format('%d', tat), 'PX', string.format('%d', math.ceil((tat - now_us) / 1000)))
end

return { check = check, commit = commit, refund = refund, reserves = true, pause = pause }
