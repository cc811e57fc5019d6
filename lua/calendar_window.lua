-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_us, limit, window, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_us, limit, window, cost, burst) gives back what an admitted call consumed.
-- Calendar window: at most `limit` units per calendar period (a day, a week, a month) in a time zone, as
-- contracts and carrier quotas are written; the quota is whole again when the next period starts. The
-- periods' boundaries follow the zone's rules (daylight saving, months of 28 to 31 days, a billing anchor
-- day), which Redis does not know: the application sends four boundaries around its own clock instead of a
-- window length, and Redis TIME picks the period that holds now, so every instance agrees on the period
-- whatever its clock (within a period of it).
--   window     'b0 b1 b2 b3': boundaries in ms since the epoch, the periods [b0, b1), [b1, b2), [b2, b3)
--   reset_ms   until the period ends (the real reset: midnight in the zone, the anchor day)
--   refund     never below zero, and only while the call's period lasts
-- State: the units used in the period and a tag of the period's start, in one integer, units * 2^23 +
-- (start in whole seconds mod 2^23), which Redis stores in the key's object with no string allocation;
-- once the units reach 2^30, packed instead (struct '<ddB', 17 bytes, which no integer below 2^53 is as
-- long as). Two periods starting more than a second and less than 97 days (2^23 s) apart never share a
-- tag, so a stored period that is not the current one counts nothing.
-- TTL: until the period ends.
-- O(1).

-- the period [start_ms, end_ms) that holds now, from the boundaries the application sent
local function period(window, now_us)
  local b0, b1, b2, b3 = string.match(window, '^(%d+) (%d+) (%d+) (%d+)$')
  if not b3 then
    error('calendar_window: the window must be four boundaries in ms, got ' .. tostring(window))
  end
  local now_ms = now_us / 1000
  if now_ms < b0 + 0 or now_ms >= b3 + 0 then
    error('calendar_window: the Redis clock is more than a period away from the application\'s')
  end
  if now_ms < b1 + 0 then
    return b0 + 0, b1 + 0
  elseif now_ms < b2 + 0 then
    return b1 + 0, b2 + 0
  end
  return b2 + 0, b3 + 0
end

local TAG = 8388608 -- 2^23 seconds
local LARGE = 1073741824 -- 2^30: units below it and a tag fit in an integer below 2^53

local function tag(start_ms)
  return math.floor(start_ms / 1000) % TAG
end

-- the units used in the period starting at start_ms
local function used_in(key, start_ms)
  local state = read_state(key)
  if not state then
    return 0
  end
  if #state == 17 then
    local stored_start, used = struct.unpack('<ddB', state)
    if stored_start ~= start_ms then
      return 0
    end
    return used
  end
  local packed = state + 0
  local stored_tag = packed % TAG
  if stored_tag ~= tag(start_ms) then
    return 0
  end
  return (packed - stored_tag) / TAG
end

-- Numbers are sent as string.format('%d', n): Redis would print a number argument with '%.17g', which
-- costs it more than the rest of the decision.
local function encode(start_ms, used)
  if used < LARGE then
    return string.format('%d', used * TAG + tag(start_ms))
  end
  return struct.pack('<ddB', start_ms, used, 0)
end

local function check(key, now_us, limit, window, cost)
  local start_ms, end_ms = period(window, now_us)
  local reset_ms = math.max(1, math.ceil(end_ms - now_us / 1000))
  local used = used_in(key, start_ms)
  if used + cost > limit then
    local retry_ms = reset_ms
    if cost > limit then
      retry_ms = -1
    end
    return 0, math.max(0, limit - used), reset_ms, retry_ms -- nothing left while the period is in debt
  end
  return 1, limit - used - cost, reset_ms, 0, encode(start_ms, used + cost), reset_ms
end

local function commit(key, state, ttl_ms)
  write_state(key, state, ttl_ms)
end

local function refund(key, now_us, limit, window, cost)
  local start_ms, end_ms = period(window, now_us)
  local used = used_in(key, start_ms)
  if used == 0 then
    return
  end
  write_state(key, encode(start_ms, math.max(0, used - cost)), math.max(1, math.ceil(end_ms - now_us / 1000)))
end

-- a settled overrun: counted in its period beyond the limit; the next period starts afresh
local function charge(key, now_us, limit, window, cost)
  local start_ms, end_ms = period(window, now_us)
  local used = math.min(used_in(key, start_ms) + cost, MAX_COUNT)
  write_state(key, encode(start_ms, used), math.max(1, math.ceil(end_ms - now_us / 1000)))
end

-- where the period that holds now_us ends: what a call admitted from a lease (lua/lease.lua) counts in
local function window_end_us(now_us, window)
  local _, end_ms = period(window, now_us)
  return end_ms * 1000
end

return { check = check, commit = commit, refund = refund, charge = charge, window_end_us = window_end_us }
