-- Gives up a concurrency lease nobody waits for any longer: the failure mode decided its call while Redis was
-- silent (paused, overloaded, its connection stuck), but the request may still reach Redis and run. In one
-- atomic step it removes the lease if lua/concurrency.lua granted it, and leaves a mark that makes
-- lua/concurrency.lua refuse it if it runs later: either way the call holds no slot. Runs after
-- lua/prelude.lua.
--
-- KEYS[1]  the sorted set of leases (lua/concurrency.lua)
-- KEYS[2]  the mark of the given-up lease, <leases key>:<lease id>: the same hash tag, so one cluster slot
-- ARGV[1]  the lease id
-- ARGV[2]  the lease in milliseconds: how long the mark is kept (a lease granted later would have expired)
-- Returns 1 when a lease was removed, 0 when none was held (the mark refuses it). TTL: the mark's, one lease.
-- O(log n) in the leases held.

local function cancel_lease(KEYS, ARGV)
  local removed = redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
  return removed
end
