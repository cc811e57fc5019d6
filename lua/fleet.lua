-- The fleet: which instances share the limits, each announcing itself every heartbeat, so that every
-- instance knows how many are live (the local failure mode divides a limit by it). One sorted set, one
-- member per instance, scored by when it last announced itself on Redis's clock (TIME, not the limits'
-- clock: liveness is real time even under a test clock). An instance that stopped announcing is gone
-- once its announcement is older than the lifetime; one that stops cleanly leaves at once. Runs after
-- lua/prelude.lua.
--
-- KEYS[1]  the fleet's sorted set (<prefix>:{~fleet}); its TTL is the lifetime, renewed by every
--          announcement, so a fleet that is gone leaves nothing behind
-- ARGV[1]  this instance's id
-- ARGV[2]  how long an announcement holds, in ms (a few heartbeats)
-- ARGV[3]  '1' to announce this instance, '0' to leave (a clean shutdown)
-- Returns how many instances are live, this one included when it announced.

local function fleet(KEYS, ARGV)
  local time = redis.call('TIME')
  local now_ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local lifetime_ms = tonumber(ARGV[2])
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now_ms - lifetime_ms))
  if ARGV[3] == '1' then
    redis.call('ZADD', KEYS[1], now_ms, ARGV[1])
  else
    redis.call('ZREM', KEYS[1], ARGV[1])
  end
  local live = redis.call('ZCARD', KEYS[1])
  if live > 0 then
    redis.call('PEXPIRE', KEYS[1], lifetime_ms)
  end
  return live
end
