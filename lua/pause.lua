-- Pauses limits until a time an upstream service named: an outgoing call answered 429 or 503 with a retry
-- time (Retry-After) by the service it went to, whose real quota is then used up or lower than ours. No call
-- of these limits is admitted before that time, on any instance, and from then on one call at a time at the
-- limit's rate (its burst regrows at that rate), so the fleet does not hammer the service when it reopens.
-- Only modules that schedule calls in time can pause (pause in lua/gcra.lua, the token bucket's module
-- too); a counting window is left alone. A pause only ever moves a limit's next slot later; it is announced to every
-- instance (a message '\npause <ms>' followed by the keys, on the invalidation channel), so that calls which
-- already hold a slot before its end do not go either (runtime/decide/UpstreamPauses.java).
-- Runs after lua/prelude.lua and ALGORITHMS, as rate_limit.lua does.
--
-- KEYS and ARGV as in rate_limit.lua (each limit's cost unused)
-- ARGV[2 + ARGS_PER_LIMIT * #KEYS]  how long to pause, in ms from the Redis clock
-- ARGV[3 + ARGS_PER_LIMIT * #KEYS]  the invalidation channel; absent or '' to publish nothing
-- Returns the number of limits paused.

local function pause(KEYS, ARGV)
  local now_us = clock(ARGV)
  local pause_ms = ARGV[2 + ARGS_PER_LIMIT * #KEYS]
  local until_us = now_us + pause_ms * 1000
  local paused = 0
  for i = 1, #KEYS do
    local name, limit, window_us, _, burst = limit_args(ARGV, i)
    local algorithm = ALGORITHMS[name]
    if algorithm.pause and until_us > now_us then
      algorithm.pause(KEYS[i], now_us, limit, window_us, burst, until_us)
      paused = paused + 1
    end
  end
  local channel = ARGV[3 + ARGS_PER_LIMIT * #KEYS]
  if paused > 0 and channel ~= nil and channel ~= '' then
    redis.call('PUBLISH', channel, '\npause ' .. pause_ms .. '\n' .. table.concat(KEYS, '\n'))
  end
  return paused
end
