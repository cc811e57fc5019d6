-- The start of rate_limit.lua and refund.lua (inlined at their prelude marker):
--   ALGORITHMS  the module of every algorithm (lua/<algorithm>.lua), by name, inlined at the marker
--   now_ms      the clock in milliseconds: ARGV[1] in microseconds when given (tests only), else Redis TIME
--   LIMITS      how many limits the call has (6 ARGV each, after ARGV[1])
--   limit_args  limit i's algorithm, limit, window_ms, cost and burst, with the tenant's run-time override
--               of the limit (field ARGV[7 + 6(i - 1)] of the hash KEYS[LIMITS + 1]) applied; burst 0 is the limit

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

local LIMITS = (#ARGV - 1) / 6
local overrides = KEYS[LIMITS + 1]

local function limit_args(i)
  local arg = 2 + 6 * (i - 1)
  local limit = tonumber(ARGV[arg + 1])
  if overrides and ARGV[arg + 5] ~= '' then
    limit = tonumber(redis.call('HGET', overrides, ARGV[arg + 5])) or limit
  end
  local burst = tonumber(ARGV[arg + 4])
  if burst == 0 then
    burst = limit
  end
  return ALGORITHMS[ARGV[arg]], limit, tonumber(ARGV[arg + 2]), tonumber(ARGV[arg + 3]), burst
end
