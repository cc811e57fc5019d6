-- The units leased out of some limits' counts (lua/lease.lua) and not given back: what the instances' slices
-- hold of each, as an operator looks at it. Redis counted every leased unit as used when it leased it; how
-- many of them the instances spent since, only they know, so this is at most what the slices still hold. A
-- lease that ended holds nothing any more (what it left unused, if not given back, stays counted until its
-- window ends). Reads only. Runs after lua/prelude.lua.
--
-- KEYS     the limits' leases, <limit key>:leases; all KEYS share one hash tag, so one cluster slot
-- ARGV[1]  the clock
-- Returns, for each key, the units its live leases were given. O(the instances that leased the keys).

local function leased(KEYS, ARGV)
  local now_us = clock(ARGV)
  local out = {}
  for i = 1, #KEYS do
    out[i] = leased_units(KEYS[i], now_us, nil, 0)
  end
  return out
end
