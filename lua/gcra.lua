-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_ms, limit, window_ms, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_ms, limit, window_ms, cost, burst) gives back what an admitted call consumed.
-- GCRA (generic cell rate algorithm): calls are spaced by the emission interval window / limit, with a
-- tolerance of `burst` intervals (the limit unless configured: one window), so `burst` calls may come at
-- once and then one per emission interval. One key holds the theoretical arrival time (TAT);
-- retry-after is exact to the millisecond.
--
-- call consumed, by moving the theoretical arrival time back, never before now.
--   remaining  calls that could still come now
--   reset_ms   until the TAT is reached (the full burst is available again)
-- State: the TAT in whole microseconds, an integer (Redis stores it in the key's object, with no string
-- allocation). An absent key means TAT = now.
-- TTL: until the TAT (the key then says nothing an absent one would not). O(1).

local function check(key, now_ms, limit, window_ms, cost, burst)
  local interval = window_ms / limit
  local tolerance = burst * interval
  local stored = tonumber(redis.call('GET', key))
  local tat = now_ms
  if stored then
    tat = math.max(stored / 1000, now_ms)
  end

  local new_tat = tat + cost * interval
  local allow_at = new_tat - tolerance
  if now_ms < allow_at then
    local retry_ms = -1
    if cost <= burst then
      retry_ms = math.max(1, math.ceil(allow_at - now_ms))
    end
    local remaining = math.max(0, math.floor((now_ms - (tat - tolerance)) / interval))
    return 0, remaining, math.ceil(tat - now_ms), retry_ms
  end

  local reset_ms = math.max(1, math.ceil(new_tat - now_ms))
  return 1, math.floor((now_ms - allow_at) / interval), reset_ms, 0, new_tat, reset_ms
end

local function commit(key, new_tat, reset_ms)
  redis.call('SET', key, string.format('%.0f', new_tat * 1000), 'PX', reset_ms)
end

local function refund(key, now_ms, limit, window_ms, cost, burst)
  local stored = tonumber(redis.call('GET', key))
  if not stored then
    return
  end
  local new_tat = stored / 1000 - cost * window_ms / limit
  if new_tat <= now_ms then
    redis.call('DEL', key)
    return
  end
  redis.call('SET', key, string.format('%.0f', new_tat * 1000), 'PX', math.max(1, math.ceil(new_tat - now_ms)))
end

return { check = check, commit = commit, refund = refund }
