-- Sliding window counter: the count of the last full window is weighted by how much of it still
-- overlaps the sliding window (Cloudflare's approximation; exact when traffic is uniform, and never
-- admits more than the limit within one aligned window). Windows are aligned to the Unix epoch on the
-- Redis clock.
--
-- A module of rate_limit.lua and refund.lua. check(key, now_ms, limit, window_ms, cost, burst) decides without
-- writing and returns { allowed (1 | 0), remaining, reset_ms, retry_after_ms } and, when it admits, the
-- function that records the call. refund(key, now_ms, limit, window_ms, cost) gives back what an admitted
-- call consumed, never below zero: from the current window's count, the rest from the previous one.
--   remaining  floor(limit - weighted count)
--   reset_ms   until nothing counted so far weighs any more: the end of the next window while the
--              current one holds calls, else the end of this one
-- State: hash { w = index of the current window, c = units in window w, p = units in window w - 1 }.
-- TTL: reset_ms (the count still weighs on the next window). O(1).

local function check(key, now_ms, limit, window_ms, cost)
  local window = math.floor(now_ms / window_ms)
  local elapsed_ms = now_ms - window * window_ms
  local window_end_ms = math.ceil(window_ms - elapsed_ms)

  local state = redis.call('HMGET', key, 'w', 'c', 'p')
  local stored_window = tonumber(state[1])
  local current, previous = 0, 0
  if stored_window == window then
    current = tonumber(state[2])
    previous = tonumber(state[3]) or 0
  elseif stored_window == window - 1 then
    previous = tonumber(state[2])
  end

  local weighted = previous * (window_ms - elapsed_ms) / window_ms + current

  if weighted + cost > limit then
    local retry_ms
    if cost > limit then
      retry_ms = -1
    elseif current + cost <= limit then
      -- wait until enough of the previous window has slid out
      retry_ms = math.max(1, math.ceil(window_ms * (1 - (limit - current - cost) / previous) - elapsed_ms))
    else
      -- wait for the next window, where this window's count becomes the weighted one
      retry_ms = math.max(1, math.ceil(window_end_ms + window_ms * (1 - (limit - cost) / current)))
    end
    local reset_ms = window_end_ms
    if current > 0 then
      reset_ms = window_end_ms + window_ms
    end
    return { 0, math.max(0, math.floor(limit - weighted)), reset_ms, retry_ms }
  end

  local reset_ms = window_end_ms + window_ms
  return { 1, math.floor(limit - weighted - cost), reset_ms, 0 }, function()
    redis.call('HSET', key, 'w', window, 'c', current + cost, 'p', previous)
    redis.call('PEXPIRE', key, reset_ms)
  end
end

local function refund(key, now_ms, limit, window_ms, cost)
  local window = math.floor(now_ms / window_ms)
  local state = redis.call('HMGET', key, 'w', 'c', 'p')
  local stored_window = tonumber(state[1])
  if stored_window ~= window and stored_window ~= window - 1 then
    return
  end
  local current = tonumber(state[2])
  local from_current = math.min(current, cost)
  local previous = tonumber(state[3]) or 0
  redis.call('HSET', key, 'c', current - from_current, 'p', math.max(0, previous - (cost - from_current)))
end

return { check = check, refund = refund }
