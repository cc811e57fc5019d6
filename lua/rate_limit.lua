-- One atomic decision over every limit of a call: either every limit admits and every one records the
-- call, or nothing is written at all (a call refused by its hourly limit does not eat a per-second token).
-- A limit in shadow mode (the mask after the limits' arguments) cannot refuse the call: when only shadow
-- limits refuse, the call proceeds and every limit that admits it records it, exactly as if the refusing
-- shadow limits were not there; a refusing shadow limit records nothing, as when enforced.
-- Runs after lua/prelude.lua (clock, limit_args, shadowed) and ALGORITHMS, the table of the algorithm
-- modules (lua/<algorithm>.lua) by name.
--
-- KEYS[i]   the state of limit i; all KEYS of a call share one hash tag, so one cluster slot
-- ARGV      as lua/prelude.lua lays it out: the clock, then algorithm, limit, window_ms, cost and burst
--           of each limit
--
-- Returns { allowed_1, remaining_1, reset_ms_1, retry_after_ms_1, allowed_2, ... }, four integers per limit:
--   allowed         1 if limit i admits the call, 0 if it refuses it
--   remaining       units left after the call (when the call is refused: left now, nothing was consumed)
--   reset_ms        milliseconds until the full limit is available again
--   retry_after_ms  0 if limit i admits; else milliseconds until this cost fits, -1 if it never can
-- Cost: one module call per limit, each O(1) except the sliding log (O(log n) in its entries).

local function rate_limit(KEYS, ARGV)
  local now_us = clock(ARGV)

  if #KEYS == 1 then
    -- one limit, the usual call: decided and recorded without the bookkeeping several limits need
    local name, limit, window_us, cost, burst = limit_args(ARGV, 1)
    local algorithm = ALGORITHMS[name]
    local allowed, remaining, reset_ms, retry_ms, s1, s2, s3, s4 =
      algorithm.check(KEYS[1], now_us, limit, window_us, cost, burst)
    if allowed == 1 then
      algorithm.commit(KEYS[1], s1, s2, s3, s4)
    end
    return { allowed, remaining, reset_ms, retry_ms }
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
