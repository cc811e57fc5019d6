-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_us, limit, window_us, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_us, limit, window_us, cost, burst) gives back what an admitted call consumed.
-- Fixed window: at most `limit` units per window; windows are aligned to the Unix epoch on the Redis
-- clock, so every instance agrees on where a window starts and ends.
--   refund     never below zero, and only while the call's window lasts
--   charge     a settled overrun counts in its window beyond the limit, and what the window used beyond
--              its limit is the next window's debt: it starts with it used (a debt beyond the next window
--              is forgiven, and a count beyond MAX_COUNT never stored)
-- State: one integer, units * 4 + (window index mod 4). The key expires when its window ends, so a stored
-- window is the current one or, within the millisecond the expiry rounds up, the previous one, which the
-- index tells apart. An integer under 10,000 (2,499 units) is one of Redis's shared integers: no value
-- allocation at all. TTL: until the window ends, set by the window's first write (later writes in the window
-- keep it), which add to its count (INCRBY, see prelude's write_state). O(1).

-- the window at now_us, its reset and what it has used: the key's count when it holds this window; when it
-- holds the previous one, what that one used beyond its limit (a settled overrun's debt), else nothing
local function counted(key, now_us, limit, window_us)
  local elapsed_us = now_us % window_us -- math.fmod's value here (see prelude's exact arithmetic)
  local window = (now_us - elapsed_us) / window_us
  local reset_ms = (window_us - elapsed_us) / 1000
  reset_ms = reset_ms + (-reset_ms) % 1 -- math.ceil
  local stored = read_state(key)
  if stored then
    stored = stored + 0
    local index = stored % 4
    if index == window % 4 then
      return window, reset_ms, (stored - index) / 4, true
    end
    if index == (window - 1) % 4 then
      return window, reset_ms, math.max(0, (stored - index) / 4 - limit), false
    end
  end
  return window, reset_ms, 0, false
end

local function check(key, now_us, limit, window_us, cost)
  local window, reset_ms, used, holds_window = counted(key, now_us, limit, window_us)
  if used + cost > limit then
    local retry_ms = reset_ms
    if cost > limit then
      retry_ms = -1
    elseif holds_window and used - limit + cost > limit then
      retry_ms = reset_ms + window_us / 1000 -- the next window starts with this one's debt
    end
    return 0, math.max(0, limit - used), reset_ms, retry_ms
  end
  if holds_window then
    -- the key holds this window already, and so the expiry its first write set: the call adds to its count
    return 1, limit - used - cost, reset_ms, 0, (used + cost) * 4 + window % 4, false, cost * 4
  end
  -- the window's first write, whole: numbers are sent as string.format('%d', n), since Redis would print a number
  -- argument with '%.17g', which costs it more than the rest of the decision (every number here is whole, below 2^53)
  return 1, limit - used - cost, reset_ms, 0, string.format('%d', (used + cost) * 4 + window % 4), reset_ms
end

-- commit(key, state, ttl_ms, added) is write_state: check gives what the call adds to the key's count when the key
-- holds this window (state is then the total), else nil (as sliding_window_counter.lua does)
local commit = write_state

local function refund(key, now_us, limit, window_us, cost)
  local stored = read_state(key)
  if not stored then
    return
  end
  stored = stored + 0
  local window = (now_us - math.fmod(now_us, window_us)) / window_us
  if stored % 4 == window % 4 then
    local used = math.max(0, (stored - stored % 4) / 4 - cost)
    write_state(key, string.format('%d', used * 4 + window % 4), false)
  end
end

-- a settled overrun: counted in this window beyond the limit; the excess is this window's debt to the
-- next one, so the key lives until the next window ends
local function charge(key, now_us, limit, window_us, cost)
  local window, reset_ms, used = counted(key, now_us, limit, window_us)
  used = math.min(used + cost, MAX_COUNT) -- used * 4 stays an exact integer (prelude: MAX_COUNT)
  local ttl_ms = reset_ms
  if used > limit then
    ttl_ms = reset_ms + window_us / 1000
  end
  write_state(key, string.format('%d', used * 4 + window % 4), ttl_ms)
end

-- where the window that holds now_us ends: what a call admitted from a lease (lua/lease.lua) counts in
local function window_end_us(now_us, window_us)
  return now_us - now_us % window_us + window_us
end

return { check = check, commit = commit, refund = refund, charge = charge, window_end_us = window_end_us }
