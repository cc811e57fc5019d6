-- Several calls' decisions in one atomic call: the decisions an instance's event loop asks for in one
-- turn go together, as one call of this function, at the end of the turn
-- (runtime/redis/DecisionBatches.java). Each call is decided exactly as
-- lua/rate_limit.lua decides it alone, in the order sent; Redis runs the whole batch atomically.
-- Runs after lua/rate_limit.lua, in the function library only (a batch is sent only to a Redis that
-- holds the library), registered with the flag allow-cross-slot-keys: in a cluster, one batch holds the
-- calls of every slot its master owns. Redis routes the call by its declared keys (the first call's,
-- one slot) and refuses a command whose declared keys span slots, so each call's keys travel in ARGV;
-- a call whose keys this node does not own (the application's map of the slots was stale) fails alone
-- with "non local key", and the application sends it again by itself.
--
-- KEYS      the first call's keys
-- ARGV[1]   the number of calls n
-- then, for each call: its number of keys k, its number of arguments a, its k keys, and its a
--           arguments (rate_limit's ARGV: the clock, the limits, the optional shadow mask and wait);
--           or, shorter, for the usual batch of one endpoint's calls:
--           0         the call before it again, the same keys and arguments (a hot tenant's calls)
--           =, key    one key, with the arguments of the last call that was sent whole (which had one
--                     key): another tenant's call of the same limits
--
-- Returns { reply_1, ..., reply_n }: what rate_limit returns for each call, or an error reply for a call
-- that failed (a key of another type, a key of another node) without failing the others.
-- Cost: one rate_limit call per call, and one TIME for the batch; a call sent short costs Redis fewer
-- arguments to read.

-- The usual call (one limit, enforced, that may not wait) is decided straight from the batch's arguments;
-- the others get KEYS and ARGV tables of their own, as rate_limit takes them.
local ONE_LIMIT_ARGS = 1 + ARGS_PER_LIMIT -- the clock and one limit: no shadow mask, no wait

local function rate_limit_batch(KEYS, ARGV)
  local calls = ARGV[1] + 0
  local replies = {}
  local now_us = nil
  local at = 2
  -- the call being decided: its keys at key_at (its one key in key when it has one), its arguments at arg_at
  local key_count, arg_count, key_at, arg_at, key
  for c = 1, calls do
    local head = ARGV[at]
    if head == '0' then
      at = at + 1 -- the call before it again: its keys and arguments are still where they were
    elseif head == '=' then
      key = ARGV[at + 1] -- the arguments of the last call sent whole, another key
      at = at + 2
    else
      key_count, arg_count = head + 0, ARGV[at + 1] + 0
      key_at = at + 2
      arg_at = key_at + key_count -- the call's clock
      at = arg_at + arg_count
      key = ARGV[key_at]
    end
    local call_clock = ARGV[arg_at]
    if call_clock == '' then
      -- one reading of Redis's clock for the whole batch, which runs at one instant anyway
      if now_us == nil then
        local time = redis.call('TIME')
        now_us = time[1] * 1000000 + time[2]
      end
      call_clock = now_us
    end
    local ok, reply
    if key_count == 1 and arg_count == ONE_LIMIT_ARGS then
      ok, reply = pcall(decide_one, key, ARGV, arg_at + 1, call_clock + 0)
    else
      local keys, args = { key }, {}
      for i = 2, key_count do
        keys[i] = ARGV[key_at + i - 1]
      end
      for i = 1, arg_count do
        args[i] = ARGV[arg_at + i - 1]
      end
      args[1] = call_clock
      ok, reply = pcall(rate_limit, keys, args)
    end
    if ok then
      replies[c] = reply
    elseif type(reply) == 'table' and reply.err then
      replies[c] = reply
    else
      replies[c] = redis.error_reply(tostring(reply))
    end
  end
  return replies
end
