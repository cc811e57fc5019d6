-- One atomic decision over every limit of a call: either every limit admits and every one records the
-- call, or nothing is written at all (a call refused by its hourly limit does not eat a per-second token).
-- A limit in shadow mode (the mask after the limits' arguments) cannot refuse the call: when only shadow
-- limits refuse, the call proceeds and every limit that admits it records it, exactly as if the refusing
-- shadow limits were not there; a refusing shadow limit records nothing, as when enforced.
-- A call that may wait (ARGV's max wait) and is refused only by limits whose modules reserve, each giving
-- a retry time within the max wait, is not refused: its slot is the latest of those retry times, every
-- limit records the call at that time (a reservation), and the reply says how long it waits. Later calls
-- queue behind it, first come first served across every instance, since the state already holds it.
-- Runs after lua/prelude.lua (clock, limit_args, shadowed, max_wait_ms) and ALGORITHMS, the table of the
-- algorithm modules (lua/<algorithm>.lua) by name.
--
-- KEYS[i]   the state of limit i; all KEYS of a call share one hash tag, so one cluster slot
-- ARGV      as lua/prelude.lua lays it out: the clock, then algorithm, limit, window_ms, cost and burst
--           of each limit
--
-- Returns { allowed_1, remaining_1, reset_ms_1, retry_after_ms_1, allowed_2, ... }, four integers per limit:
--   allowed         1 if limit i admits the call, 0 if it refuses it
--   remaining       units left after the call (when the call is refused: left now, nothing was consumed)
--   reset_ms        milliseconds until the full limit is available again
--   retry_after_ms  0 if limit i admits at once; when it admits a call that waits, the wait (the same
--                   for every limit); else milliseconds until this cost fits, -1 if it never can
-- and, only for a call that waits (a limit admits it with a retry_after_ms above 0), one more integer
-- after them: the clock of the decision in microseconds, the instant its wait counts from (the
-- application places the slot in its own clock by it, not by when the reply arrived).
-- Cost: one module call per limit, each O(1) except the sliding log (O(log n) in its entries); a call that
-- waits, two.

-- The refused call's reservation, when it may wait for one (see above): the replies, or nil to refuse it.
-- `refused` holds the replies of the decision at now_us.
local function reservation(KEYS, ARGV, now_us, refused)
  local max_wait = max_wait_ms(KEYS, ARGV)
  if max_wait <= 0 then
    return nil
  end
  local wait_us = 0
  for i = 1, #KEYS do
    local at = 4 * (i - 1)
    if refused[at + 1] == 0 and not shadowed(KEYS, ARGV, i) then
      local retry_ms = refused[at + 4]
      if retry_ms < 0 or retry_ms > max_wait then
        return nil
      end
      local name, limit, window_us, cost, burst = limit_args(ARGV, i)
      local algorithm = ALGORITHMS[name]
      if not algorithm.reserves then
        return nil
      end
      -- the slot to the microsecond, not the retry time's millisecond: a queue keeps the limit's rate
      wait_us = math.max(wait_us, algorithm.wait_us(KEYS[i], now_us, limit, window_us, cost, burst))
    end
  end
  if wait_us == 0 then
    return nil -- only shadow limits refused
  end
  local wait_ms = math.ceil(wait_us / 1000) -- the application waits whole milliseconds: never before the slot
  local at_us = now_us + wait_us
  local replies, names, states, ttls = {}, {}, {}, {}
  for i = 1, #KEYS do
    local name, limit, window_us, cost, burst = limit_args(ARGV, i)
    names[i] = name
    local algorithm = ALGORITHMS[name]
    if not algorithm.reserves then
      return nil
    end
    local allowed, remaining, reset_ms, retry_ms, state, ttl_ms =
      algorithm.check(KEYS[i], at_us, limit, window_us, cost, burst)
    local at = 4 * (i - 1)
    if allowed == 1 then
      replies[at + 1], replies[at + 2], replies[at + 3], replies[at + 4] = 1, remaining, reset_ms + wait_ms, wait_ms
      states[i], ttls[i] = state, ttl_ms + wait_ms
    elseif shadowed(KEYS, ARGV, i) then
      if retry_ms >= 0 then
        retry_ms = retry_ms + wait_ms
      end
      replies[at + 1], replies[at + 2], replies[at + 3], replies[at + 4] = 0, remaining, reset_ms + wait_ms, retry_ms
    else
      return nil -- cannot happen: at its retry time an enforced limit admits
    end
  end
  for i = 1, #KEYS do
    if states[i] then
      ALGORITHMS[names[i]].commit(KEYS[i], states[i], ttls[i])
    end
  end
  replies[4 * #KEYS + 1] = now_us -- the instant the wait counts from
  return replies
end

-- One limit decided at now_us, and recorded when it admits, without the bookkeeping several limits need: the
-- usual call (the limit as limit_args returns it). Its replies, four values; a refused call that may wait is
-- left to reservation().
local function decide_limit(key, now_us, name, limit, window_us, cost, burst)
  local algorithm = ALGORITHMS[name]
  local allowed, remaining, reset_ms, retry_ms, s1, s2, s3, s4 =
    algorithm.check(key, now_us, limit, window_us, cost, burst)
  if allowed == 1 then
    algorithm.commit(key, s1, s2, s3, s4)
  end
  return allowed, remaining, reset_ms, retry_ms
end

local function rate_limit(KEYS, ARGV)
  local now_us = clock(ARGV)

  if #KEYS == 1 then
    local replies = { decide_limit(KEYS[1], now_us, limit_args_at(ARGV, 2)) } -- limit 1: limit_args(ARGV, 1)
    if replies[1] == 1 then
      return replies
    end
    return reservation(KEYS, ARGV, now_us, replies) or replies
  end

  local replies, commits, admitted = {}, {}, true
  for i = 1, #KEYS do
    local name, limit, window_us, cost, burst = limit_args(ARGV, i)
    local allowed, remaining, reset_ms, retry_ms, s1, s2, s3, s4 =
      ALGORITHMS[name].check(KEYS[i], now_us, limit, window_us, cost, burst)
    local at = 4 * (i - 1)
    replies[at + 1], replies[at + 2], replies[at + 3], replies[at + 4] = allowed, remaining, reset_ms, retry_ms
    commits[i] = { name, cost, s1, s2, s3, s4 }
    if allowed == 0 and not shadowed(KEYS, ARGV, i) then
      admitted = false
    end
  end

  if not admitted then
    local reserved = reservation(KEYS, ARGV, now_us, replies)
    if reserved then
      return reserved
    end
  end
  for i = 1, #KEYS do
    local commit = commits[i]
    if admitted then
      if replies[4 * (i - 1) + 1] == 1 then
        ALGORITHMS[commit[1]].commit(KEYS[i], commit[3], commit[4], commit[5], commit[6])
      end
    elseif replies[4 * (i - 1) + 1] == 1 then
      -- a limit that would have admitted consumed nothing: report what it has left now
      replies[4 * (i - 1) + 2] = replies[4 * (i - 1) + 2] + commit[2]
    end
  end
  return replies
end
