-- Sliding window counter: the count of the last full window is weighted by how much of it still
-- overlaps the sliding window (Cloudflare's approximation; exact when traffic is uniform, and never
-- admits more than the limit within one aligned window). Windows are aligned to the Unix epoch on the
-- Redis clock.
--
-- KEYS[1]  hash { w = index of the current window, c = units in window w, p = units in window w - 1 }
-- ARGV[1]  limit           units allowed per sliding window (integer > 0)
-- ARGV[2]  window          window length in milliseconds (integer > 0)
-- ARGV[3]  cost            units this call consumes (integer >= 0)
-- ARGV[4]  now (optional)  clock in microseconds; tests only. Redis TIME when absent.
--
-- Returns { allowed (1 | 0), remaining, reset_ms, retry_after_ms }
--   remaining       units left after this call, floor(limit - weighted count)
--   reset_ms        milliseconds until nothing counted so far weighs any more, i.e. the full limit is back:
--                   the end of the next window while the current one holds calls, else the end of this one
--   retry_after_ms  0 when allowed; else milliseconds until this cost fits, -1 if it never can (cost > limit)
-- A refused call writes nothing. TTL: reset_ms (the count still weighs on the next window). O(1).

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
local elapsed_ms = now_ms - window * window_ms
local window_end_ms = math.ceil(window_ms - elapsed_ms)

local state = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local stored_window = tonumber(state[1])
local current, previous = 0, 0
if stored_window == window then
  current = tonumber(state[2])
  previous = tonumber(state[3]) or 0
elseif stored_window == window - 1 then
  previous = tonumber(state[2])
end

local weighted = previous * (window_ms - elapsed_ms) / window_ms + current
local reset_ms = window_end_ms
if current > 0 then
  reset_ms = window_end_ms + window_ms
end

if weighted + cost > limit then
  local retry_ms
  if cost > limit then
    retry_ms = -1
  elseif current + cost <= limit then
    -- wait until enough of the previous window has slid out
    retry_ms = window_ms * (1 - (limit - current - cost) / previous) - elapsed_ms
  else
    -- wait for the next window, where this window's count becomes the weighted one
    retry_ms = window_end_ms + window_ms * (1 - (limit - cost) / current)
  end
  return { 0, math.max(0, math.floor(limit - weighted)), reset_ms, math.max(1, math.ceil(retry_ms)) }
end

current = current + cost
reset_ms = window_end_ms + window_ms
redis.call('HSET', KEYS[1], 'w', window, 'c', current, 'p', previous)
redis.call('PEXPIRE', KEYS[1], reset_ms)
return { 1, math.floor(limit - weighted - cost), reset_ms, 0 }
