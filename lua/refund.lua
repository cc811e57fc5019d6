-- Gives back, atomically for every limit of a call, what the call consumed: for admitted calls that
-- failed and should not count (seed 003: an INCR-then-DECR rollback races; this cannot). Each
-- algorithm module clamps its refund: no count goes below zero, no bucket above its capacity.
-- lua/prelude.lua, inlined at the prelude marker below, defines ALGORITHMS (every lua/<algorithm>.lua)
-- and now_ms.
--
-- KEYS and ARGV as in rate_limit.lua (ARGV[1] the clock override, then algorithm, limit, window, cost,
-- burst per limit; cost is what to give back).
-- Returns the number of limits refunded.

--@prelude

for i, key in ipairs(KEYS) do
  local arg = 2 + 5 * (i - 1)
  ALGORITHMS[ARGV[arg]].refund(key, now_ms, tonumber(ARGV[arg + 1]), tonumber(ARGV[arg + 2]),
    tonumber(ARGV[arg + 3]), tonumber(ARGV[arg + 4]))
end
return #KEYS
