-- The function library only: it runs after lua/prelude.lua and before the algorithm modules, and replaces
-- prelude's read_state and write_state with ones a batch (lua/rate_limit_batch.lua) can hold a key's writes in.
-- Not in a script: a script's body runs on every call, and a call alone holds nothing.
--
-- A batch decides a hot tenant's calls one after another on one key: it holds that key while they run, and
-- their writes stay here, each read by the next call, until the last one is written, once. What a call reads
-- is exactly what the calls before it wrote; Redis runs the batch atomically, so no one else can tell. Outside
-- a batch nothing is held, and every write is made at once. These locals outlive a call (the library's body
-- runs once, when Redis loads it): the batch lets go of its key whatever happens (rate_limit_batch.lua).
local held_key = nil      -- the key whose writes are kept here, or nil
local held_state = nil    -- its value not written yet, or nil while nothing is kept
local held_ttl_ms = false -- the TTL a kept write set (a window's first write), or false: the key's own

local function read_state(key)
  if held_state ~= nil and key == held_key then
    return held_state
  end
  return redis.call('GET', key)
end

local write_at_once = write_state -- prelude's

local function write_state(key, state, ttl_ms)
  if key ~= held_key then
    write_at_once(key, state, ttl_ms)
    return
  end
  held_state = state
  if ttl_ms then
    held_ttl_ms = ttl_ms
  end
end

-- Keeps the writes of `key` from now on (nil: of no key), after writing what was kept of another one.
local function hold(key)
  if key == held_key then
    return
  end
  local kept_key, kept_state, kept_ttl_ms = held_key, held_state, held_ttl_ms
  held_key, held_state, held_ttl_ms = key, nil, false
  if kept_state ~= nil then
    write_at_once(kept_key, kept_state, kept_ttl_ms)
  end
end
