-- One atomic decision over every limit of a call: either every limit admits and every one records the
-- call, or nothing is written at all (a call refused by its hourly limit does not eat a per-second token).
-- lua/prelude.lua, inlined at the prelude marker below, defines now_ms and limit_args; the module of each
-- algorithm the script serves (lua/<algorithm>.lua) is inlined at the algorithms marker.
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

--@prelude

local ALGORITHMS = {
  --@algorithms
}

local replies, commits, costs, admitted = {}, {}, {}, true
for i = 1, #KEYS do
  local algorithm, limit, window_ms, cost, burst = limit_args(i)
  local decision, commit = ALGORITHMS[algorithm].check(KEYS[i], now_ms, limit, window_ms, cost, burst)
  if decision[1] == 0 then
    admitted = false
  end
  commits[i], costs[i] = commit, cost
  for _, value in ipairs(decision) do
    replies[#replies + 1] = value
  end
end

if admitted then
  for _, commit in ipairs(commits) do
    commit()
  end
else
  -- limits that would have admitted consumed nothing: report what they have left now
  for i = 1, #KEYS do
    local at = 4 * (i - 1) + 1
    if replies[at] == 1 then
      replies[at + 1] = replies[at + 1] + costs[i]
    end
  end
end
return replies
