-- Fixed window: at most `limit` units per window; windows are aligned to the Unix epoch on the Redis
-- clock, so every instance agrees on where a window starts and ends.
--
-- A module of rate_limit.lua and refund.lua. check(key, now_ms, limit, window_ms, cost, burst) decides without
-- writing and returns { allowed (1 | 0), remaining, reset_ms, retry_after_ms } and, when it admits, the
-- function that records the call. refund(key, now_ms, limit, window_ms, cost) gives back what an admitted
-- call consumed, never below zero, and only while the call's window lasts.
-- State: hash { w = index of the window the count belongs to, c = units consumed in window w }.
-- TTL: the key expires when its window ends. O(1).

local function check(key, now_ms, limit, window_ms, cost)
  local window = math.floor(now_ms / window_ms)
  local reset_ms = math.ceil((window + 1) * window_ms - now_ms)

  local state = redis.call('HMGET', key, 'w', 'c')
  local used = 0
  if tonumber(state[1]) == window then
    used = tonumber(state[2])
  end

  if used + cost > limit then
    local retry_ms = reset_ms
    if cost > limit then
      retry_ms = -1
    end
    return { 0, limit - used, reset_ms, retry_ms }
  end

  return { 1, limit - used - cost, reset_ms, 0 }, function()
    redis.call('HSET', key, 'w', window, 'c', used + cost)
    redis.call('PEXPIRE', key, reset_ms)
  end
end

local function refund(key, now_ms, limit, window_ms, cost)
  local state = redis.call('HMGET', key, 'w', 'c')
  if tonumber(state[1]) == math.floor(now_ms / window_ms) then
    redis.call('HSET', key, 'c', math.max(0, tonumber(state[2]) - cost))
  end
end

return { check = check, refund = refund }
