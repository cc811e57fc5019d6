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
-- State: the window index mod 4, the units in that window and the units in the window before, in one
-- integer, (previous * 2^25 + current) * 4 + index, which Redis stores in the key's object with no
-- string allocation (and not at all, one of its shared integers, while the window before is empty and the
-- current one holds under 2,500 units); once a count reaches 2^25, packed instead (struct '<Bdd', 17
-- bytes, which no integer below 2^53 is as long as). The key lives until the end of the window after its
-- own, so a stored window is the current or the previous one (or, within the millisecond the expiry
-- rounds up, the one before), which the index tells apart.
-- The previous window's weight is computed times window_us (previous * left_us, an integer).
-- A call admitted in the window the key holds adds to its integer (INCRBY, see write_state) rather than writing it
-- whole.
-- TTL: until the end of the window after the current one, set by the window's first write (later writes
-- in the window keep it). O(1).

local SMALL = 33554432 -- 2^25: two counts below it and the index fit in an integer below 2^53

local function decode(state)
  if #state == 17 then
    return struct.unpack('<Bdd', state)
  end
  local packed = state + 0
  local window = packed % 4
  local counts = (packed - window) / 4
  local current = counts % SMALL
  return window, current, (counts - current) / SMALL
end

-- Numbers are sent as string.format('%d', n): Redis would print a number argument with '%.17g', which
-- costs it more than the rest of the decision.
local function encode(window, current, previous)
  if current < SMALL and previous < SMALL then
    return string.format('%d', (previous * SMALL + current) * 4 + window % 4)
  end
  return struct.pack('<Bdd', window % 4, current, previous)
end

local function check(key, now_us, limit, window_us, cost)
  local elapsed_us = now_us % window_us -- math.fmod's value here (see prelude's exact arithmetic)
  local window = (now_us - elapsed_us) / window_us
  local left_us = window_us - elapsed_us

  local current, previous, age = 0, 0, -1
  local state = read_state(key)
  if state then
    local stored_window, stored_current, stored_previous = decode(state)
    age = (window - stored_window) % 4
    if age == 0 then
      current, previous = stored_current, stored_previous
    elseif age == 1 then
      previous = stored_current
    end
  end

  -- the previous window's weight, times window_us; the counts stay whole numbers, exact to 2^53
  local sliding = previous * left_us
  local weight = sliding / window_us
  weight = weight + (-weight) % 1 -- math.ceil

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

  local reset_ms = left_us / 1000
  reset_ms = reset_ms + (-reset_ms) % 1 + window_us / 1000 -- math.ceil(left_us / 1000) + window_us / 1000
  local remaining = limit - current - cost - weight
  if age ~= 0 then
    return 1, remaining, reset_ms, 0, encode(window, current + cost, previous), reset_ms
  end
  -- the key holds this window already, and so the expiry its first write set
  if current + cost < SMALL and previous < SMALL then
    -- an integer, as encode would write it: added to
    return 1, remaining, reset_ms, 0, (previous * SMALL + current + cost) * 4 + window % 4, false, cost * 4
  end
  return 1, remaining, reset_ms, 0, encode(window, current + cost, previous), false
end

-- commit(key, state, ttl_ms, added) is write_state: check gives what the call adds to the key's integer when the
-- key holds this window (state is then the total), else nil
local commit = write_state

local function refund(key, now_us, limit, window_us, cost)
  local state = read_state(key)
  if not state then
    return
  end
  local window = (now_us - math.fmod(now_us, window_us)) / window_us
  local stored_window, current, previous = decode(state)
  if (window - stored_window) % 4 ~= 0 then
    return -- the call's window is over: what it consumed weighs less every moment, and is left alone
  end
  local from_current = math.min(current, cost)
  write_state(key, encode(window, current - from_current, math.max(0, previous - (cost - from_current))), false)
end

-- a settled overrun: counted in this window beyond the limit, and weighted into the next one as every count
local function charge(key, now_us, limit, window_us, cost)
  local elapsed_us = math.fmod(now_us, window_us)
  local window = (now_us - elapsed_us) / window_us
  local current, previous, ttl_ms = 0, 0, math.ceil((window_us - elapsed_us) / 1000) + window_us / 1000
  local state = read_state(key)
  if state then
    local stored_window, stored_current, stored_previous = decode(state)
    local age = (window - stored_window) % 4
    if age == 0 then
      current, previous, ttl_ms = stored_current, stored_previous, false
    elseif age == 1 then
      previous = stored_current
    end
  end
  write_state(key, encode(window, math.min(current + cost, MAX_COUNT), previous), ttl_ms)
end

-- where the window that holds now_us ends: what a call admitted from a lease (lua/lease.lua) counts in
local function window_end_us(now_us, window_us)
  return now_us - now_us % window_us + window_us
end

return { check = check, commit = commit, refund = refund, charge = charge, window_end_us = window_end_us }
