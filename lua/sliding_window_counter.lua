-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_us, limit, window_us, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_us, limit, window_us, cost, burst) gives back what an admitted call consumed.
-- Sliding window counter: the count of the last full window is weighted by how much of it still
-- overlaps the sliding window (Cloudflare's approximation; exact when traffic is uniform, and never
-- admits more than the limit within one aligned window). Windows are aligned to the Unix epoch on the
-- Redis clock.
--   remaining  floor(limit - weighted count)
--   reset_ms   until nothing counted so far weighs any more: the end of the next window while the
--              current one holds calls, else the end of this one
--   refund     never below zero: from the current window's count, the rest from the previous one
-- State: string "<window index mod 4>:<units in that window>:<units in the window before>". The key lives
-- until the end of the window after its own, so a stored window is the current or the previous one
-- (or, within the millisecond the expiry rounds up, the one before), which the index tells apart.
-- The previous window's weight is computed times window_us (previous * left_us, an integer).
-- TTL: reset_ms. O(1).

local function check(key, now_us, limit, window_us, cost)
  local elapsed_us = math.fmod(now_us, window_us)
  local window = (now_us - elapsed_us) / window_us
  local left_us = window_us - elapsed_us

  local current, previous = 0, 0
  local state = redis.call('GET', key)
  if state then
    local stored_window, stored_current, stored_previous = string.match(state, '^(%d):(%d+):(%d+)$')
    local age = (window - tonumber(stored_window)) % 4
    if age == 0 then
      current, previous = tonumber(stored_current), tonumber(stored_previous)
    elseif age == 1 then
      previous = tonumber(stored_current)
    end
  end

  -- the previous window's weight, times window_us; the counts stay whole numbers, exact to 2^53
  local sliding = previous * left_us
  local weight = math.ceil(sliding / window_us)

  if sliding > (limit - current - cost) * window_us then
    local retry_ms
    if cost > limit then
      retry_ms = -1
    elseif current + cost <= limit then
      -- until enough of the previous window has slid out: previous * (left_us - t) <= (limit - current - cost) * window_us
      retry_ms = math.max(1, math.ceil((sliding - (limit - current - cost) * window_us) / (previous * 1000)))
    else
      -- into the next window, where this window's count is the weighted one
      retry_ms = math.max(1, math.ceil(((left_us + window_us) * current - (limit - cost) * window_us) / (current * 1000)))
    end
    local reset_ms = math.ceil(left_us / 1000)
    if current > 0 then
      reset_ms = reset_ms + window_us / 1000
    end
    return 0, math.max(0, limit - current - weight), reset_ms, retry_ms
  end

  local reset_ms = math.ceil(left_us / 1000) + window_us / 1000
  return 1, limit - current - cost - weight, reset_ms, 0,
    -- counts are at most 10^12 (LimitRules), which Lua prints exactly (it keeps 14 digits), and faster than format
    (window % 4) .. ':' .. (current + cost) .. ':' .. previous, reset_ms
end

local function commit(key, state, reset_ms)
  redis.call('SET', key, state, 'PX', reset_ms)
end

local function refund(key, now_us, limit, window_us, cost)
  local state = redis.call('GET', key)
  if not state then
    return
  end
  local window = (now_us - math.fmod(now_us, window_us)) / window_us
  local stored_window, current, previous = string.match(state, '^(%d):(%d+):(%d+)$')
  if (window - tonumber(stored_window)) % 4 ~= 0 then
    return -- the call's window is over: what it consumed weighs less every moment, and is left alone
  end
  current, previous = tonumber(current), tonumber(previous)
  local from_current = math.min(current, cost)
  redis.call('SET', key, (window % 4) .. ':' .. (current - from_current) .. ':'
    .. math.max(0, previous - (cost - from_current)), 'KEEPTTL')
end

return { check = check, commit = commit, refund = refund }
