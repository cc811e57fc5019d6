-- Settles what a reservation really cost, atomically for every limit of it: a call reserved an estimated
-- cost (rate_limit.lua, all or nothing, as any call) and learned its real cost when it ended (the tokens an
-- LLM answer used, the bytes of a download). Each limit is sent the difference, real minus reserved:
--   below zero, it is given back as refund.lua gives it (never below zero, within the call's window);
--   above zero, it is charged beyond the limit if need be (the module's charge): the overrun is debt the
--   limit pays back before it admits again, as the module says (GCRA and token bucket: the next call
--   waits until it is paid back at the limit's rate; fixed window: the next window starts with it; sliding
--   window counter: weighted into the next window as every count; sliding log: its entries age out with
--   the window; calendar window: counted in its period only).
-- Then every limit is looked at without consuming (check of cost 0), so the reply says what is left after
-- the settlement, in rate_limit.lua's shape. A limit given units back is announced as refund.lua does: a
-- refund can turn a refusal into an admission. Runs after lua/prelude.lua and ALGORITHMS.
--
-- KEYS and ARGV as in rate_limit.lua; each limit's cost is the difference to settle, signed ('0': none).
-- ARGV[2 + ARGS_PER_LIMIT * #KEYS]  the invalidation channel; absent or '' to publish nothing
-- Returns per limit: allowed (1 when a call of no cost would be admitted now, 0 while the limit is in
-- debt or used up), remaining, reset_ms, retry_after_ms. TTL: each module's, as for a decision.

local function settle(KEYS, ARGV)
  local now_us = clock(ARGV)
  local replies, refunded = {}, {}
  for i = 1, #KEYS do
    local name, limit, window_us, cost, burst = limit_args(ARGV, i)
    local algorithm = ALGORITHMS[name]
    if cost < 0 then
      algorithm.refund(KEYS[i], now_us, limit, window_us, -cost, burst)
      refunded[#refunded + 1] = KEYS[i]
    elseif cost > 0 then
      algorithm.charge(KEYS[i], now_us, limit, window_us, cost, burst)
    end
    local allowed, remaining, reset_ms, retry_ms = algorithm.check(KEYS[i], now_us, limit, window_us, 0, burst)
    local at = 4 * (i - 1)
    replies[at + 1], replies[at + 2], replies[at + 3], replies[at + 4] = allowed, remaining, reset_ms, retry_ms
  end
  if #refunded > 0 then
    announce(refunded, ARGV[2 + ARGS_PER_LIMIT * #KEYS])
  end
  return replies
end
