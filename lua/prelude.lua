-- The start of rate_limit.lua and refund.lua (inlined at their prelude marker):
--   ALGORITHMS  the module of every algorithm (lua/<algorithm>.lua), by name, inlined at the marker
--   now_ms      the clock in milliseconds: ARGV[1] in microseconds when given (tests only), else Redis TIME
--   limit_args  limit i's algorithm module, limit, window_ms, cost and burst (ARGV 5 per limit after ARGV[1];
--               a burst of 0 is the limit)

local ALGORITHMS = {
  --@algorithms
}

local now_ms
if ARGV[1] ~= '' then
  now_ms = tonumber(ARGV[1]) / 1000
else
  local time = redis.call('TIME')
  now_ms = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
end

local function limit_args(i)
  local arg = 2 + 5 * (i - 1)
  local limit = tonumber(ARGV[arg + 1])
  local burst = tonumber(ARGV[arg + 4])
  if burst == 0 then
    burst = limit
  end
  return ALGORITHMS[ARGV[arg]], limit, tonumber(ARGV[arg + 2]), tonumber(ARGV[arg + 3]), burst
end
