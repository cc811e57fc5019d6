-- Gives back, atomically for every limit of a call, what the call consumed: for admitted calls that
-- failed and should not count (the e-mail quota that overshot: an INCR-then-DECR rollback races; one
-- script cannot). Each algorithm module clamps its refund: no count goes below zero, no bucket above its
-- capacity. Runs after lua/prelude.lua and ALGORITHMS, as rate_limit.lua does.
--
-- A refund can turn a refusal into an admission, so it announces itself in the same atomic step: the
-- keys it changed are published on the invalidation channel (one message, the keys separated by '\n'),
-- and every instance forgets the refusals it holds for them (runtime/decide/RefusalCache.java).
--
-- KEYS and ARGV as in rate_limit.lua; each limit's cost is what to give back.
-- ARGV[2 + ARGS_PER_LIMIT * #KEYS]  the invalidation channel; absent or '' to publish nothing
-- Returns the number of limits refunded.

local function refund(KEYS, ARGV)
  local now_us = clock(ARGV)
  for i = 1, #KEYS do
    local algorithm, limit, window_us, cost, burst = limit_args(ARGV, i)
    ALGORITHMS[algorithm].refund(KEYS[i], now_us, limit, window_us, cost, burst)
  end
  announce(KEYS, ARGV[2 + ARGS_PER_LIMIT * #KEYS])
  return #KEYS
end
