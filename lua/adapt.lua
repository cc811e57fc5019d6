-- Lowers an adaptive limit (@RateLimited(adaptive = true)) because the service its calls go to answered
-- 429: the service grants less than the limit says. What the fleet learned of each limit key is one field
-- of one hash, "<base> <since_ms> <hold_ms> <ceiling>": a 429 came when the learned limit was ceiling; it
-- was lowered to base at since_ms (Redis clock) and holds there for hold_ms; then it grows after every
-- increase interval by step up to the ceiling (where the service refused), and beyond it by steps that
-- double (2 step, 4 step, ...: the service may grant more again), never above the configured limit. Every
-- instance computes the learned limit from the field alone (runtime/policy/LearnedLimit.java, the same
-- formula), so growing writes nothing; only a 429 writes, here, and announces the new field to every
-- instance. What a 429 lowers is the limit the refused call was decided with: a call that waited for its
-- slot went at the rate of its decision, however far the limit grew while it waited. Each case below is
-- judged at that decision:
--   a 429 to a call decided before the last decrease is the same refusal (the calls already in flight
--     when the service began refusing, and those queued at the old rate): nothing changes;
--   a 429 while the limit holds: the base was still too high; it drops again, the hold stays;
--   a 429 once it grows: the fleet tried more too soon; the hold doubles, up to the longest hold, so a
--     settled fleet tries more less and less often;
--   a 429 after it grew for longer than the longest hold without one: the service's quota moved; the hold
--     starts again at one interval.
-- Runs after lua/prelude.lua.
--
-- KEYS[1]  the hash of learned limits (<prefix>:{~learned-limits}), one field per limit key
-- ARGV[1]  the limit key (the field)
-- ARGV[2]  the configured limit, the most the learned one grows back to
-- ARGV[3]  when the refused call was decided, in ms since the epoch (the application's clock, which
--          is Redis's to a few ms on a synchronised host)
-- ARGV[4]  the decrease factor, above 0 and below 1
-- ARGV[5]  the increase interval in ms
-- ARGV[6]  the step the learned limit grows by, in units (a share of the configured limit)
-- ARGV[7]  the longest hold in ms
-- ARGV[8]  the invalidation channel; '' to publish nothing
-- Returns the field after the call. TTL: the hash lives as long as a field can still lower a limit (the
-- longest hold, and the intervals after which every learned limit has grown back: limit / step + 50); a
-- field that old is deleted by the next call. O(fields), a handful: one per limit key the service refused.

local function learned_at(base, since_ms, hold_ms, ceiling, now_ms, limit, interval_ms, step)
  local growing_ms = now_ms - since_ms - hold_ms
  if growing_ms < 0 then
    return math.min(base, limit)
  end
  local steps = math.floor(growing_ms / interval_ms) + 1
  local below = math.max(0, math.floor((ceiling - base) / step)) -- the steps that stay at or below the ceiling
  if steps <= below then
    return math.min(limit, base + steps * step)
  end
  if steps - below > 48 then
    return limit
  end
  return math.min(limit, base + below * step + step * (2 ^ (steps - below) - 1))
end

local function parse_learned(field)
  local base, since_ms, hold_ms, ceiling = string.match(field, '^(%S+) (%d+) (%d+) (%S+)$')
  return tonumber(base), tonumber(since_ms), tonumber(hold_ms), tonumber(ceiling)
end

local function adapt(KEYS, ARGV)
  local time = redis.call('TIME')
  local now_ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local hash, field = KEYS[1], ARGV[1]
  local limit, decided_ms, factor = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
  local interval_ms, step, longest_ms = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
  -- the intervals after which any learned limit has grown back: every step is the same share of its limit
  local grown_back = math.ceil(limit / step) + 50
  local lifetime_ms = longest_ms + grown_back * interval_ms

  local current, hold_ms = limit, interval_ms
  local held = redis.call('HGET', hash, field)
  if held then
    local base, since_ms, held_ms, ceiling = parse_learned(held)
    if decided_ms < since_ms then
      return held
    end
    -- as the limit was when the call was decided (never later than now: the application's clock may run ahead)
    local decided_at_ms = math.min(decided_ms, now_ms)
    current = learned_at(base, since_ms, held_ms, ceiling, decided_at_ms, limit, interval_ms, step)
    local growing_ms = decided_at_ms - since_ms - held_ms
    if growing_ms < 0 then
      hold_ms = held_ms
    elseif growing_ms <= longest_ms then
      hold_ms = math.min(longest_ms, 2 * held_ms)
    end
  end
  local state = string.format('%.3f %d %d %.3f', math.max(1, current * factor), now_ms, hold_ms, current)
  redis.call('HSET', hash, field, state)

  local fields = redis.call('HGETALL', hash)
  for i = 1, #fields, 2 do
    local _, since_ms, held_ms = parse_learned(fields[i + 1])
    if since_ms == nil or now_ms - since_ms > held_ms + grown_back * interval_ms then
      redis.call('HDEL', hash, fields[i])
    end
  end
  redis.call('PEXPIRE', hash, lifetime_ms)

  local channel = ARGV[8]
  if channel ~= nil and channel ~= '' then
    redis.call('PUBLISH', channel, '\nlearned ' .. state .. '\n' .. field)
  end
  return state
end
