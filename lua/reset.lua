-- Forgets what the keys of some limits hold (an operator's or the application's reset), and announces
-- it in the same atomic step, as refund.lua does: the deleted keys are published on the invalidation
-- channel, and every instance forgets the refusals it holds for them. Runs after lua/prelude.lua.
--
-- KEYS     the limits' state to delete; all KEYS share one hash tag, so one cluster slot
-- ARGV[1]  the invalidation channel; '' to publish nothing
-- Returns the number of keys deleted.

local function reset(KEYS, ARGV)
  local deleted = redis.call('DEL', unpack(KEYS))
  announce(KEYS, ARGV[1])
  return deleted
end
