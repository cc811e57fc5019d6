-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_ms, limit, window_ms, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_ms, limit, window_ms, cost, burst) gives back what an admitted call consumed.
-- Token bucket: a bucket of `burst` tokens (the limit unless configured) refilled continuously at `limit`
-- per window; a call takes `cost` tokens. Allows `burst` calls at once, then `limit` per window on average.
--   remaining  whole tokens left
--   reset_ms   until the bucket is full again
--   refund     puts the tokens back, never above the bucket's capacity
-- State: string "<tokens>:<time of tokens in milliseconds>" (both fractional, 17 significant digits). An
-- absent key is a full bucket. TTL: until the bucket is full again (the key then says nothing an absent
-- one would not). O(1).

local function tokens_at(key, now_ms, per_ms, burst)
  local state = redis.call('GET', key)
  if not state then
    return burst
  end
  local tokens, at_ms = string.match(state, '^([^:]+):(.+)$')
  return math.min(burst, tonumber(tokens) + math.max(0, now_ms - tonumber(at_ms)) * per_ms)
end

local function check(key, now_ms, limit, window_ms, cost, burst)
  local per_ms = limit / window_ms
  local tokens = tokens_at(key, now_ms, per_ms, burst)

  if tokens < cost then
    local retry_ms = -1
    if cost <= burst then
      retry_ms = math.max(1, math.ceil((cost - tokens) / per_ms))
    end
    return 0, math.floor(tokens), math.ceil((burst - tokens) / per_ms), retry_ms
  end

  local left = tokens - cost
  local reset_ms = math.max(1, math.ceil((burst - left) / per_ms))
  return 1, math.floor(left), reset_ms, 0, string.format('%.17g:%.17g', left, now_ms), reset_ms
end

local function commit(key, state, reset_ms)
  redis.call('SET', key, state, 'PX', reset_ms)
end

local function refund(key, now_ms, limit, window_ms, cost, burst)
  if redis.call('EXISTS', key) == 0 then
    return -- a full bucket
  end
  local per_ms = limit / window_ms
  local tokens = math.min(burst, tokens_at(key, now_ms, per_ms, burst) + cost)
  if tokens >= burst then
    redis.call('DEL', key)
    return
  end
  redis.call('SET', key, string.format('%.17g:%.17g', tokens, now_ms), 'PX',
    math.max(1, math.ceil((burst - tokens) / per_ms)))
end

return { check = check, commit = commit, refund = refund }
