-- Fixed window: at most ARGV[1] units per window; windows are aligned to the Unix epoch on the Redis
-- clock, so every instance agrees on where a window starts and ends.
--
-- KEYS[1]  hash { w = index of the window the count belongs to, c = units consumed in window w }
-- ARGV[1]  limit           units allowed per window (integer > 0)
-- ARGV[2]  window          window length in milliseconds (integer > 0)
-- ARGV[3]  cost            units this call consumes (integer >= 0)
-- ARGV[4]  now (optional)  clock in microseconds; tests only. Redis TIME when absent.
--
-- Returns { allowed (1 | 0), remaining, reset_ms, retry_after_ms }
--   remaining       units left in the current window after this call
--   reset_ms        milliseconds until the current window ends
--   retry_after_ms  0 when allowed; else milliseconds until this cost fits, -1 if it never can (cost > limit)
-- A refused call writes nothing. TTL: the key expires when its window ends. O(1).

local limit = tonumber(ARGV[1])
local window_ms = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])

local now_ms
if ARGV[4] then
  now_ms = tonumber(ARGV[4]) / 1000
else
  local time = redis.call('TIME')
  now_ms = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
end

local window = math.floor(now_ms / window_ms)
local reset_ms = math.ceil((window + 1) * window_ms - now_ms)

local state = redis.call('HMGET', KEYS[1], 'w', 'c')
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

used = used + cost
redis.call('HSET', KEYS[1], 'w', window, 'c', used)
redis.call('PEXPIRE', KEYS[1], reset_ms)
return { 1, limit - used, reset_ms, 0 }
