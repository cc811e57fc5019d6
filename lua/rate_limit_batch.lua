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
-- Returns one flat array, each call's reply after the one before it: what rate_limit returns for the
-- call (four integers per limit, its k limits, and the decision's clock after them when the call
-- waits), or one error reply for a call that failed (a key of
-- another type, a key of another node) without failing the others. Flat, because Redis converts every
-- table of a reply with probes for the fields of its special replies. A usual call (one limit, sent
-- whole or short) admitted at once answers one negative integer instead of its four, when its values
-- fit: -1 - (remaining + reset_ms * COMPACT_REMAINING), with 0 <= remaining < COMPACT_REMAINING and
-- reset_ms < COMPACT_RESET (below 2^53 together, so exact); it is the reply of most calls, and each
-- integer of a reply costs Redis and the application a conversion
-- (runtime/redis/ScriptReplies.java reads it).
-- Cost: one rate_limit call per call, one TIME for the batch, and the usual call (one limit, enforced,
-- that may not wait) decided from limit arguments read once for all the calls sent short after it. A
-- run of calls on one key (0) reads the key once and writes it once: lua/held_state.lua holds its writes.

-- the clock and one limit: no shadow mask, no wait
local ONE_LIMIT_ARGS = 1 + ARGS_PER_LIMIT
-- a compact reply's bounds (see above): 2^20 units left, 2^32 ms (49 days) to the reset
local COMPACT_REMAINING = 1048576
local COMPACT_RESET = 4294967296

local function decide_calls(ARGV, replies)
  local calls = ARGV[1] + 0
  local now_us = nil
  local at = 2
  local n = 0 -- replies so far
  -- the call being decided: its keys at key_at (its one key in key when it has one), its arguments at arg_at
  local key_count, arg_count, key_at, arg_at, key
  -- of the last call sent whole: its clock, and, when it was the usual call, its limit, read once
  local clock, usual, name, limit, window_us, cost, burst
  for _ = 1, calls do
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
      clock = ARGV[arg_at]
      if clock == '' then
        -- one reading of Redis's clock for the whole batch, which runs at one instant anyway
        if now_us == nil then
          local time = redis.call('TIME')
          now_us = time[1] * 1000000 + time[2]
        end
        clock = now_us
      else
        clock = clock + 0
      end
      usual = key_count == 1 and arg_count == ONE_LIMIT_ARGS
      if usual then
        -- the application's own arguments (runtime/redis/ScriptArguments.java): numbers where numbers go
        name, limit, window_us, cost, burst = limit_args_at(ARGV, arg_at + 1)
      end
    end
    local ok, allowed, remaining, reset_ms, retry_ms
    if usual then
      -- a run of calls on this key is read and written once (hold, called only when it changes what is held:
      -- a Lua call costs a decision some 370 instructions)
      if head == '0' or ARGV[at] == '0' then
        if key ~= held_key then
          hold(key)
        end
      elseif held_key ~= nil then
        hold(nil)
      end
      ok, allowed, remaining, reset_ms, retry_ms = pcall(decide_limit, key, clock, name, limit, window_us, cost, burst)
      if ok then
        if allowed == 1 and retry_ms == 0 and remaining >= 0 and remaining < COMPACT_REMAINING
            and reset_ms < COMPACT_RESET then
          n = n + 1
          replies[n] = -1 - (remaining + reset_ms * COMPACT_REMAINING)
        else
          replies[n + 1], replies[n + 2], replies[n + 3], replies[n + 4] = allowed, remaining, reset_ms, retry_ms
          n = n + 4
        end
      end
    else
      hold(nil)
      local keys, args = { key }, {}
      for i = 2, key_count do
        keys[i] = ARGV[key_at + i - 1]
      end
      for i = 1, arg_count do
        args[i] = ARGV[arg_at + i - 1]
      end
      args[1] = clock
      ok, allowed = pcall(rate_limit, keys, args)
      if ok then
        for i = 1, #allowed do
          replies[n + i] = allowed[i]
        end
        n = n + #allowed
      end
    end
    if not ok then
      n = n + 1
      if type(allowed) == 'table' and allowed.err then
        replies[n] = allowed
      else
        replies[n] = redis.error_reply(tostring(allowed))
      end
    end
  end
end

local function rate_limit_batch(KEYS, ARGV)
  local replies = {}
  local ok, failure = pcall(decide_calls, ARGV, replies)
  hold(nil) -- what a run of calls on one key kept is written, whatever happened
  if not ok then
    error(failure, 0)
  end
  return replies
end
