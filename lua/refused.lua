-- Who is refused most, recorded: an instance's report of the callers (tenants, caller addresses) it refused
-- since its last report, added to this minute's tally of the whole fleet. One sorted set per minute of
-- Redis's clock (TIME, not the limits' clock: a report is real time, as the fleet's heartbeat), in a ring of
-- an hour's keys: the key of minute m is KEYS[m mod 60 + 1], and it expires when its minute is an hour old,
-- before the ring comes back to it. Each holds at most `capacity` callers (Space-Saving: a new caller
-- takes the place of the least refused one and inherits its count, so a caller's count is never under
-- its refusals, and over them by at most the least count held; any caller refused more than a
-- 1/capacity share of the minute's refusals is always held). Memory is bounded by 60 x capacity members
-- whatever the number of distinct callers. Runs after lua/prelude.lua.
--
-- KEYS     the ring: 60 sorted sets <prefix>:{~refused}:<0..59>, one hash tag, so one cluster slot
-- ARGV[1]  capacity: the most callers one minute's key holds
-- ARGV[2..] caller, refusals, caller, refusals, ... (a caller is 't:<tenant>' or 'a:<address>')
-- Returns the minute the report was added to (Unix minutes).

local function refused(KEYS, ARGV)
  local now_s = tonumber(redis.call('TIME')[1])
  local minute = math.floor(now_s / 60)
  local key = KEYS[minute % 60 + 1]
  local capacity = tonumber(ARGV[1])
  for i = 2, #ARGV - 1, 2 do
    local caller, count = ARGV[i], tonumber(ARGV[i + 1])
    if redis.call('ZSCORE', key, caller) or redis.call('ZCARD', key) < capacity then
      redis.call('ZINCRBY', key, count, caller)
    else
      local least = redis.call('ZPOPMIN', key)
      redis.call('ZADD', key, tonumber(least[2]) + count, caller)
    end
  end
  redis.call('EXPIREAT', key, (minute + 60) * 60)
  return minute
end
