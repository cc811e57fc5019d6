-- Gives back, atomically for every limit of a call, what the call consumed: for admitted calls that
-- failed and should not count (the e-mail quota that overshot: an INCR-then-DECR rollback races; one
-- script cannot). Each algorithm module clamps its refund: no count goes below zero, no bucket above its
-- capacity. lua/prelude.lua, inlined at the prelude marker below, defines now_us and limit_args; the
-- module of each algorithm the script serves is inlined at the algorithms marker.
--
-- KEYS and ARGV as in rate_limit.lua; each limit's cost is what to give back.
-- Returns the number of limits refunded.

--@prelude

local ALGORITHMS = {
  --@algorithms
}

for i = 1, #KEYS do
  local algorithm, limit, window_us, cost, burst = limit_args(i)
  ALGORITHMS[algorithm].refund(KEYS[i], now_us, limit, window_us, cost, burst)
end
return #KEYS
