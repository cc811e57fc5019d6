-- Forgets what the keys of some limits hold (an operator's or the application's reset), and announces
-- it in the same atomic step, as refund.lua does: the deleted keys are published on the invalidation
-- channel ("\nreset\n<key>\n<key>..."), and every instance forgets the refusals and the leases it holds
-- for them. Runs after lua/prelude.lua.
--
-- KEYS     the limits' state to delete; all KEYS share one hash tag, so one cluster slot
-- ARGV[1]  the invalidation channel; '' to publish nothing
-- Returns the number of the limits' keys deleted (their leases, <key>:leases, are deleted too, not counted).

local function reset(KEYS, ARGV)
  local deleted = redis.call('DEL', unpack(KEYS))
  -- and the slices leased of them (lua/lease.lua): one given back after the reset gives back nothing
  local leases = {}
  for i = 1, #KEYS do
    leases[i] = KEYS[i] .. ':leases'
  end
  redis.call('DEL', unpack(leases))
  if ARGV[1] ~= '' then
    -- its own kind of message: a slice leased of a reset key no longer counts anywhere, and is dropped
    redis.call('PUBLISH', ARGV[1], '\nreset\n' .. table.concat(KEYS, '\n'))
  end
  return deleted
end
