-- The start of rate_limit.lua and refund.lua (inlined at their prelude marker):
--   ALGORITHMS  the module of every algorithm (lua/<algorithm>.lua), by name, inlined at the marker
--   now_ms      the clock in milliseconds: ARGV[1] in microseconds when given (tests only), else Redis TIME

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
