-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_us, limit, window_us, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_us, limit, window_us, cost, burst) gives back what an admitted call consumed.
-- Token bucket: a bucket of `burst` tokens (the limit unless configured) refilled continuously at `limit`
-- per window; a call takes `cost` tokens. Allows `burst` calls at once, then `limit` per window on average.
-- The bucket holds whole tokens and a fraction of one in units of 1 / window_us token, which the bucket
-- gains `limit` of every microsecond: both integers, so a call is admitted exactly when its cost fits.
--   remaining  whole tokens left
--   reset_ms   until the bucket is full again
--   refund     puts the tokens back, never above the bucket's capacity
-- State: 24 bytes, three little-endian doubles (struct.pack '<ddd', exact integers): whole tokens, the
-- fraction in units, the time in microseconds; packed, not printed, so reading and writing it costs no number
-- formatting or parsing. An absent key is a full bucket. TTL: until the bucket is full again (the key then
-- says nothing an absent one would not). O(1).
-- Reserves: a call checked at a later time than now is recorded as the bucket at that time, so the state's
-- time may lie ahead of the clock; the bucket now is then that state less what it gains until that time
-- (fewer tokens, none while a reservation waits for them): never more than it holds. A clock that goes back (a failover to a replica whose clock is behind) is read the same way: the
-- bucket holds fewer tokens, never more.

-- the whole tokens and the fraction (units) in the bucket now
local function tokens_at(key, now_us, limit, window_us, burst)
  local state = redis.call('GET', key)
  if not state then
    return burst, 0
  end
  local tokens, units, at_us = struct.unpack('<ddd', state)
  units = units + (now_us - at_us) * limit -- negative when the state lies ahead (a reservation)
  local gained = math.floor(units / window_us)
  tokens = tokens + gained
  if tokens >= burst then
    return burst, 0
  end
  return tokens, units - gained * window_us
end

-- milliseconds, rounded up, until the bucket holds `tokens` whole tokens again
local function refill_ms(tokens, held, units, limit, window_us)
  return math.ceil(((tokens - held) * window_us - units) / (limit * 1000))
end

local function check(key, now_us, limit, window_us, cost, burst)
  local tokens, units = tokens_at(key, now_us, limit, window_us, burst)

  if tokens < cost then
    local retry_ms = -1
    if cost <= burst then
      retry_ms = math.max(1, refill_ms(cost, tokens, units, limit, window_us))
    end
    return 0, math.max(0, tokens), refill_ms(burst, tokens, units, limit, window_us), retry_ms
  end

  local left = tokens - cost
  local reset_ms = math.max(1, refill_ms(burst, left, units, limit, window_us))
  return 1, left, reset_ms, 0, struct.pack('<ddd', left, units, now_us), reset_ms
end

local function commit(key, state, reset_ms)
  redis.call('SET', key, state, 'PX', string.format('%d', reset_ms))
end

local function refund(key, now_us, limit, window_us, cost, burst)
  if redis.call('EXISTS', key) == 0 then
    return -- a full bucket
  end
  local tokens, units = tokens_at(key, now_us, limit, window_us, burst)
  tokens = tokens + cost
  if tokens >= burst then
    redis.call('DEL', key)
    return
  end
  redis.call('SET', key, struct.pack('<ddd', tokens, units, now_us), 'PX',
    string.format('%d', math.max(1, refill_ms(burst, tokens, units, limit, window_us))))
end

-- no call before until_us, then one, then the refill: the bucket at until_us holds one token (a state ahead
-- of the clock, read back as fewer); a bucket that holds less by then already stays
local function pause(key, now_us, limit, window_us, burst, until_us)
  local tokens = tokens_at(key, until_us, limit, window_us, burst)
  if tokens < 1 then
    return
  end
  redis.call('SET', key, struct.pack('<ddd', 1, 0, until_us), 'PX',
    string.format('%d', math.ceil((until_us - now_us) / 1000) + refill_ms(burst, 1, 0, limit, window_us)))
end

return { check = check, commit = commit, refund = refund, reserves = true, pause = pause }
