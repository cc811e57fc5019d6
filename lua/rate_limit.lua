-- One atomic decision over every limit of a call: either every limit admits and every one records the
-- call, or nothing is written at all (a call refused by its hourly limit does not eat a per-second token).
-- lua/prelude.lua, inlined at the prelude marker below, defines ALGORITHMS, now_ms and limit_args.
--
-- KEYS[i]              the state of limit i; all KEYS of a call share one hash tag, so one cluster slot
-- ARGV[1]              now in microseconds, or '' for Redis TIME (an explicit clock is for tests only)
-- ARGV[2 + 5(i - 1)]   algorithm of limit i (a module name: fixed_window, sliding_window_counter, ...)
-- ARGV[3 + 5(i - 1)]   limit: units allowed per window (integer > 0)
-- ARGV[4 + 5(i - 1)]   window in milliseconds (integer > 0)
-- ARGV[5 + 5(i - 1)]   cost: units this call consumes (integer >= 0)
-- ARGV[6 + 5(i - 1)]   burst: units allowed at once (token bucket capacity, GCRA tolerance); 0 for the limit
--
-- Returns { allowed_1, remaining_1, reset_ms_1, retry_after_ms_1, allowed_2, ... }, four integers per limit:
--   allowed         1 if limit i admits the call, 0 if it refuses it
--   remaining       units left after the call (when the call is refused: left now, nothing was consumed)
--   reset_ms        milliseconds until the full limit is available again
--   retry_after_ms  0 if limit i admits; else milliseconds until this cost fits, -1 if it never can
-- Cost: one module call per limit, each O(1) except the sliding log (O(log n) in its entries).

--@prelude

local replies, commits, admitted = {}, {}, true
for i = 1, #KEYS do
  local algorithm, limit, window_ms, cost, burst = limit_args(i)
  local decision, commit = algorithm.check(KEYS[i], now_ms, limit, window_ms, cost, burst)
  if decision[1] == 0 then
    admitted = false
  end
  commits[i] = commit
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
      replies[at + 1] = replies[at + 1] + tonumber(ARGV[2 + 5 * (i - 1) + 3])
    end
  end
end
return replies
