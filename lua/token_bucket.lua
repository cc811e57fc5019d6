-- Token bucket: a bucket of `burst` tokens (the limit unless configured) refilled continuously at `limit`
-- per window; a call takes `cost` tokens. Allows `burst` calls at once, then `limit` per window on average.
--
-- A module of rate_limit.lua and refund.lua. check(key, now_ms, limit, window_ms, cost, burst) decides without
-- writing and returns { allowed (1 | 0), remaining, reset_ms, retry_after_ms } and, when it admits, the
-- function that records the call. refund(key, now_ms, limit, window_ms, cost) gives back what an admitted
-- call consumed, by putting the tokens back, never above the bucket's capacity.
--   remaining  whole tokens left
--   reset_ms   until the bucket is full again
-- State: hash { t = tokens (fractional), ts = time of t in milliseconds }. An absent key is a full bucket.
-- TTL: until the bucket is full again (the key then says nothing an absent one would not). O(1).

local function check(key, now_ms, limit, window_ms, cost, burst)
  local per_ms = limit / window_ms
  local state = redis.call('HMGET', key, 't', 'ts')
  local tokens = burst
  if state[1] then
    tokens = math.min(burst, tonumber(state[1]) + math.max(0, now_ms - tonumber(state[2])) * per_ms)
  end

  if tokens < cost then
    local retry_ms = -1
    if cost <= burst then
      retry_ms = math.max(1, math.ceil((cost - tokens) / per_ms))
    end
    return { 0, math.floor(tokens), math.ceil((burst - tokens) / per_ms), retry_ms }
  end

  local left = tokens - cost
  local reset_ms = math.max(1, math.ceil((burst - left) / per_ms))
  return { 1, math.floor(left), reset_ms, 0 }, function()
    redis.call('HSET', key, 't', string.format('%.17g', left), 'ts', string.format('%.17g', now_ms))
    redis.call('PEXPIRE', key, reset_ms)
  end
end

local function refund(key, now_ms, limit, window_ms, cost, burst)
  local per_ms = limit / window_ms
  local state = redis.call('HMGET', key, 't', 'ts')
  if not state[1] then
    return -- a full bucket
  end
  local tokens = math.min(burst, tonumber(state[1]) + math.max(0, now_ms - tonumber(state[2])) * per_ms + cost)
  if tokens >= burst then
    redis.call('DEL', key)
    return
  end
  redis.call('HSET', key, 't', string.format('%.17g', tokens), 'ts', string.format('%.17g', now_ms))
  redis.call('PEXPIRE', key, math.max(1, math.ceil((burst - tokens) / per_ms)))
end

return { check = check, refund = refund }
