-- Gives back, atomically for every limit of a call, what the call consumed: for admitted calls that
-- failed and should not count (seed 003: an INCR-then-DECR rollback races; this cannot). Each
-- algorithm module clamps its refund: no count goes below zero, no bucket above its capacity.
-- lua/prelude.lua, inlined at the prelude marker below, defines ALGORITHMS, now_ms and limit_args.
--
-- KEYS and ARGV as in rate_limit.lua (ARGV[1] the clock override, then algorithm, limit, window, cost,
-- burst per limit; cost is what to give back).
-- Returns the number of limits refunded.

--@prelude

for i = 1, #KEYS do
  local algorithm, limit, window_ms, cost, burst = limit_args(i)
  algorithm.refund(KEYS[i], now_ms, limit, window_ms, cost, burst)
end
return #KEYS
