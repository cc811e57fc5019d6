-- A module of rate_limit.lua and refund.lua (lua/prelude.lua states the contract all modules share):
--   check(key, now_us, limit, window_us, cost, burst) decides without writing and returns
--     allowed (1 | 0), remaining, reset_ms, retry_after_ms (0 when allowed, -1 when the cost never fits)
--     and, when it admits, the values commit needs;
--   commit(key, ...) records the admitted call with those values;
--   refund(key, now_us, limit, window_us, cost, burst) gives back what an admitted call consumed.
-- Sliding window log: one sorted-set entry per admitted unit, scored by its time in microseconds; a call
-- is admitted when the entries of the last window plus its cost fit the limit. Exact over any window.
--   refund     gives back what the call consumed, by removing the newest entries (never more than there are)
--   reset_ms   until the newest entry leaves the window (then the full limit is back)
-- State: sorted set of members "<now in microseconds>-<n>" (n above every suffix already at that time,
-- so members never collide), at most `limit` entries inside the window: memory is bounded by the limit.
-- TTL: one window after the newest entry. O(log n) per call, plus the expired entries it removes.

local function check(key, now_us, limit, window_us, cost)
  local after_window_start = string.format('(%d', now_us - window_us)
  local used = redis.call('ZCOUNT', key, after_window_start, '+inf')

  if used + cost > limit then
    if cost > limit then
      return 0, math.max(0, limit - used), window_us / 1000, -1 -- nothing left while the log is in debt
    end
    -- the entry whose expiry makes room for this cost (0-based among the entries in the window)
    local blocking = redis.call('ZRANGEBYSCORE', key, after_window_start, '+inf', 'WITHSCORES',
      'LIMIT', used + cost - limit - 1, 1)
    local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
    local retry_ms = math.max(1, math.ceil((blocking[2] + window_us - now_us) / 1000))
    local reset_ms = math.max(1, math.ceil((newest[2] + window_us - now_us) / 1000))
    return 0, math.max(0, limit - used), reset_ms, retry_ms
  end

  return 1, limit - used - cost, window_us / 1000, 0, now_us, window_us, cost
end

local function commit(key, now_us, window_us, cost)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', now_us - window_us))
  local score = string.format('%d', now_us)
  -- the highest suffix at this time, not their count: a refund may have removed any of them
  local last = 0
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', key, score, score)) do
    last = math.max(last, string.match(member, '-(%d+)$') + 0)
  end
  for n = 1, cost do
    redis.call('ZADD', key, score, score .. '-' .. string.format('%d', last + n))
  end
  redis.call('PEXPIRE', key, string.format('%d', window_us / 1000))
end

local function refund(key, now_us, limit, window_us, cost)
  redis.call('ZPOPMAX', key, cost)
end

-- a settled overrun: cost more entries now, beyond the limit if need be; they age out with the window. At most
-- twice the limit of them: entries of one instant leave the window together, so a debt of one limit's worth refuses
-- every call (and a look at cost 0) until then as a larger one would, and the script's work (an entry per unit) stays
-- within twice what an admitted call's can be
local function charge(key, now_us, limit, window_us, cost)
  commit(key, now_us, window_us, math.min(cost, 2 * limit))
end

return { check = check, commit = commit, refund = refund, charge = charge }
