-- Who is refused most, read: the callers refused most over the last `minutes` minutes of Redis's clock,
-- fleet-wide, from the ring lua/refused.lua writes (the current minute and the ones before it; a minute
-- no instance reported has no key). Reads only. Runs after lua/prelude.lua.
--
-- KEYS     the ring: 60 sorted sets <prefix>:{~refused}:<0..59>, one hash tag, so one cluster slot
-- ARGV[1]  minutes: 1 to 60
-- ARGV[2]  top: how many callers to answer
-- Returns { caller, refusals, caller, refusals, ... }, the most refused first. O(minutes x capacity).

local function refused_most(KEYS, ARGV)
  local minute = math.floor(tonumber(redis.call('TIME')[1]) / 60)
  local minutes, top = tonumber(ARGV[1]), tonumber(ARGV[2])
  local union = { 'ZUNION', 0 }
  for m = minute - minutes + 1, minute do
    local key = KEYS[m % 60 + 1]
    if redis.call('EXISTS', key) == 1 then
      union[#union + 1] = key
    end
  end
  union[2] = #union - 2
  if union[2] == 0 then
    return {}
  end
  union[#union + 1] = 'WITHSCORES'
  local scored = redis.call(unpack(union)) -- ascending: the most refused last
  local out = {}
  for i = #scored - 1, math.max(1, #scored - 2 * top + 1), -2 do
    out[#out + 1] = scored[i]
    out[#out + 1] = math.floor(tonumber(scored[i + 1]))
  end
  return out
end
