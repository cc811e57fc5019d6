-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_us, limit, window_us, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_us, limit, window_us, cost, burst) gives back what an admitted call consumed.
-- Fixed window: at most `limit` units per window; windows are aligned to the Unix epoch on the Redis
-- clock, so every instance agrees on where a window starts and ends.
--   refund     never below zero, and only while the call's window lasts
-- State: one integer, units * 4 + (window index mod 4). The key expires when its window ends, so a stored
-- window is the current one or, within the millisecond the expiry rounds up, the previous one, which the
-- index tells apart. An integer under 10,000 (2,499 units) is one of Redis's shared integers: no value
-- allocation at all. TTL: until the window ends. O(1).

local function check(key, now_us, limit, window_us, cost)
  local elapsed_us = math.fmod(now_us, window_us)
  local window = (now_us - elapsed_us) / window_us
  local reset_ms = math.ceil((window_us - elapsed_us) / 1000)
  local stored = tonumber(redis.call('GET', key))
  local used = 0
  if stored and stored % 4 == window % 4 then
    used = (stored - stored % 4) / 4
  end
  if used + cost > limit then
    local retry_ms = reset_ms
    if cost > limit then
      retry_ms = -1
    end
    return 0, limit - used, reset_ms, retry_ms
  end
  return 1, limit - used - cost, reset_ms, 0, (used + cost) * 4 + window % 4, reset_ms
end

local function commit(key, stored, reset_ms)
  -- a count is at most 4 * 10^12 (LimitRules), which Lua prints exactly (it keeps 14 digits)
  redis.call('SET', key, stored, 'PX', reset_ms)
end

local function refund(key, now_us, limit, window_us, cost)
  local stored = tonumber(redis.call('GET', key))
  local window = (now_us - math.fmod(now_us, window_us)) / window_us
  if stored and stored % 4 == window % 4 then
    local used = math.max(0, (stored - stored % 4) / 4 - cost)
    redis.call('SET', key, used * 4 + window % 4, 'KEEPTTL')
  end
end

return { check = check, commit = commit, refund = refund }
