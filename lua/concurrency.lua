-- Concurrency limit: at most `limit` calls in flight per tenant across all instances. Each admitted call
-- holds a lease (a sorted-set member scored by its expiry) until it ends (ZREM by the caller); the
-- leases of a crashed instance expire by themselves, so a tenant is never locked out for good.
--
-- Runs after lua/prelude.lua (clock).
--
-- KEYS[1]  sorted set of leases { lease id -> expiry in microseconds }
-- KEYS[2]  the mark lua/cancel_lease.lua leaves when the caller gave this lease up before Redis ran this:
--          <leases key>:<lease id>, the same hash tag; present, the call is refused and nothing is written
-- ARGV[1]  the clock, as lua/prelude.lua lays it out
-- ARGV[2]  limit: calls in flight at most (integer > 0)
-- ARGV[3]  lease in milliseconds: the longest a call may hold its slot (integer > 0)
-- ARGV[4]  lease id of this call (unique)
--
-- Returns { acquired (1 | 0), in_flight, retry_after_ms }
--   in_flight       leases held after this call
--   retry_after_ms  0 when acquired; else until the oldest lease expires (calls usually end sooner)
-- A given-up call gets { 0, 0, 1 }. A refused call writes nothing but the removal of expired leases. TTL: one lease after the newest.
-- O(log n) in the leases held.

local function concurrency(KEYS, ARGV)
  local now_us = clock(ARGV)
  local limit = ARGV[2] + 0
  local lease_ms = ARGV[3] + 0
  if redis.call('EXISTS', KEYS[2]) == 1 then
    return { 0, 0, 1 }
  end

  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now_us))
  local in_flight = redis.call('ZCARD', KEYS[1])
  if in_flight >= limit then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return { 0, in_flight, math.max(1, math.ceil((oldest[2] - now_us) / 1000)) }
  end

  redis.call('ZADD', KEYS[1], string.format('%d', now_us + lease_ms * 1000), ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return { 1, in_flight + 1, 0 }
end
