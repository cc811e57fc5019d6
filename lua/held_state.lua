-- The function library only: it runs after lua/prelude.lua, whose read_state and write_state keep the writes
-- of the key held here (lua/rate_limit_batch.lua holds it). Not in a script: a script's body runs on
-- every call, and a call alone holds nothing.
--
-- A batch decides a hot tenant's calls one after another on one key: it holds that key while they run, and
-- their writes stay in prelude's held_ locals, each read by the next call, until the last one is written, once.
-- What a call reads is exactly what the calls before it wrote; Redis runs the batch atomically, so no one else
-- can tell. Outside a batch nothing is held, and every write is made at once. The locals outlive a call (the
-- library's body runs once, when Redis loads it): the batch lets go of its key whatever happens.

-- Keeps the writes of `key` from now on (nil: of no key), after writing what was kept of another one.
local function hold(key)
  if key == held_key then
    return
  end
  local kept_key, kept_state, kept_ttl_ms = held_key, held_state, held_ttl_ms
  held_key, held_state, held_ttl_ms = key, nil, false
  if kept_state ~= nil then
    write_state(kept_key, kept_state, kept_ttl_ms) -- at once: kept_key is held no more
  end
end
