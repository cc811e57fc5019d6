-- Leases an instance a slice of one limit (runtime/lease/LeasedCounts.java): in one atomic step it decides the call as
-- rate_limit.lua decides a call of one limit and, when the call is admitted and enough is left, counts a slice of
-- what is left as used, which the instance then admits calls from without asking Redis. The limit's count holds
-- every unit of the slice from the moment it is leased, so the fleet never admits more than the limit: what a
-- lease costs is capacity held in a slice nobody spends, given back when the lease ends (op 'return') and lost,
-- at most the slice, when it cannot be (the instance died). A slice counts in the window that holds the decision,
-- and is spent only in it: the lease ends with its window at the latest. A bucket (GCRA, the token bucket) has no
-- window but refills while a slice is out, which would let a burst take a full bucket and the slice's unused units
-- together: its module decides the lease (check_lease, lua/gcra.lua), keeping the bucket from refilling beyond
-- its burst less the slice until the lease ends, so the bucket and the unused units together never hold more
-- than its burst; its unused units are given back until it would be full again (a refund never fills a bucket
-- beyond its burst, and the lease kept it from refilling into the slice: a unit given back was never admitted).
-- It also gives back first what the instance's previous lease of the key left unused, which counts only while
-- that lease's window lasts (a unit given back into a later window would be admitted twice); a reset
-- (lua/reset.lua) deletes the leases with the state, so a slice given back after it gives back nothing.
-- Runs after lua/prelude.lua and ALGORITHMS; every module but the sliding window log leases (the Java side leases
-- none of its keys).
--
-- KEYS[1]   the limit's state
-- KEYS[2]   the limit's leases, <limit key>:leases (the same hash tag): instance id ->
--           'units give_back_until_us lease_id lease_end_us' (lua/leased.lua reads it too)
-- ARGV[1-6] the clock, then the limit's values as rate_limit.lua takes them (one limit)
-- ARGV[7]   'take': decide the call and lease; 'return': only give back (the call's cost is then ignored);
--           'recall': only recall what the other instances' leases could give back (a call Redis refused on an
--           instance that leases nothing of the key waits for it to come back)
-- ARGV[8]   the instance's id
-- ARGV[9]   the lease to give back (its id; a lease of the instance since then is left alone, whatever the order
--           in which an instance's requests arrive)
-- ARGV[10]  what that lease left unused (0: nothing to give back; its entry is forgotten all the same)
-- ARGV[11]  the new lease's id
-- ARGV[12]  the slice wanted, in units
-- ARGV[13]  the smallest slice worth a lease: none is taken below it
-- ARGV[14]  the share: the slice is at most what is left after the call divided by it (the live instances, twice)
-- ARGV[15]  the longest lease, in ms ('recall' too: a lease that ended less than that ago may still hold units)
-- ARGV[16]  the invalidation channel, '' to publish nothing: units given back can turn a refusal into an admission,
--           and near the limit the slices out are recalled ("\nrecall\n<key>")
-- Returns, for 'take', { allowed, remaining, reset_ms, retry_after_ms, slice, lease_ms, elsewhere }: rate_limit.lua's four
--   values of the call (remaining: what is left after the call and the slice), the units
--   leased (0: none), how long the lease lasts, and, near the limit, what the other instances' leases
--   could still give back, recalled (a refused call may wait for it to come back); for 'return', the units given back ('return' forgets the
--   lease whatever it left: a recalled slice that was spent gives back only its entry); for 'recall', what the other
--   instances' leases could still give back, recalled when it is more than 0.
-- TTL: the leases hash lives until the last give-back it could take (a window's end, a bucket lease's end). O(1)
-- but the hash's size (one field per instance that leased the key and could still give back), read near the limit.

local function give_back(KEYS, ARGV, now_us, module, limit, window_us, burst, instance)
  local held = redis.call('HGET', KEYS[2], instance)
  if not held then
    return 0
  end
  local units, until_us, id = string.match(held, '^(%d+) (%d+) (%S+)')
  if id ~= ARGV[9] then
    return 0 -- a later lease: the one named was given back already, or replaced (its unused units are lost)
  end
  redis.call('HDEL', KEYS[2], instance)
  units = math.min(ARGV[10] + 0, units + 0)
  if units <= 0 or now_us >= until_us + 0 then
    return 0 -- the lease's window is over (a unit given back would count in another), or the bucket is full
  end
  module.refund(KEYS[1], now_us, limit, window_us, units, burst)
  announce({ KEYS[1] }, ARGV[16])
  return units
end

-- what the other instances' slices of the key could still give back: every lease but the instance's own whose
-- give-back still counts, live or ended less than a longest lease (ARGV[15]) ago. A lease that ended by its
-- holder's clock stays in its slice until the holder sweeps it (at most a lease later), which forgets its entry:
-- a recall brings those units back sooner. (An entry of an instance that died counts no longer.)
local function returnable_units(leases_key, now_us, instance, ARGV)
  return leased_units(leases_key, now_us, instance, (ARGV[15] + 0) * 1000)
end

-- asks every instance to give back its slices of the key now ("\nrecall\n<key>", InvalidationMessages)
local function recall(key, channel)
  if channel ~= '' then
    redis.call('PUBLISH', channel, '\nrecall\n' .. key)
  end
end

local function lease(KEYS, ARGV)
  -- in a cluster slot being migrated, a key this node lacks fails the script where it is first read: both keys are
  -- read before anything is written, so such a call changes nothing (RedisDecisions then decides it alone)
  redis.call('EXISTS', KEYS[1], KEYS[2])
  local now_us = clock(ARGV)
  local name, limit, window_us, cost, burst = limit_args(ARGV, 1)
  local module = ALGORITHMS[name]
  local instance = ARGV[8]
  if ARGV[7] == 'return' then
    return give_back(KEYS, ARGV, now_us, module, limit, window_us, burst, instance)
  end
  if ARGV[7] == 'recall' then
    local elsewhere = returnable_units(KEYS[2], now_us, instance, ARGV)
    if elsewhere > 0 then
      recall(KEYS[1], ARGV[16])
    end
    return elsewhere
  end
  if ARGV[9] ~= '' then
    give_back(KEYS, ARGV, now_us, module, limit, window_us, burst, instance)
  end

  local decided = { module.check(KEYS[1], now_us, limit, window_us, cost, burst) }
  local slice, lease_ms = 0, 0
  if decided[1] == 1 then
    local longest_us = (ARGV[15] + 0) * 1000
    local lease_end, until_us
    if module.window_end_us then
      until_us = module.window_end_us(now_us, window_us)
      lease_end = math.min(now_us + longest_us, until_us)
    else
      lease_end = now_us + longest_us -- a bucket: until_us once it is leased (below)
    end
    lease_ms = math.floor((lease_end - now_us) / 1000)
    slice = math.min(ARGV[12] + 0, math.floor(decided[2] / (ARGV[14] + 0)))
    if slice >= ARGV[13] + 0 and lease_ms > 0 then
      local leased
      if module.check_lease then
        leased = { module.check_lease(KEYS[1], now_us, limit, window_us, cost, slice, burst, lease_end - now_us) }
      else
        leased = { module.check(KEYS[1], now_us, limit, window_us, cost + slice, burst) }
      end
      if leased[1] == 1 then
        decided = leased
        if not until_us then
          -- a bucket takes back unused units until it would be full again (a refund never fills it beyond its
          -- burst): the lease kept it from refilling into the slice, so a unit given back late was never admitted
          until_us = math.max(lease_end, now_us + leased[3] * 1000)
        end
        redis.call('HSET', KEYS[2], instance, string.format('%d %d %s %d', slice, until_us, ARGV[11], lease_end))
        local hold_ms = math.ceil((until_us - now_us) / 1000)
        if redis.call('PTTL', KEYS[2]) < hold_ms then
          redis.call('PEXPIRE', KEYS[2], hold_ms)
        end
      else
        slice = 0
      end
    else
      slice = 0
    end
    module.commit(KEYS[1], decided[5], decided[6], decided[7], decided[8])
  end
  -- near the limit (what is left over the share below the smallest slice) no slice is leased, and the slices
  -- the instances still hold are recalled: given back, their units are decided here one call at a time, so a
  -- refusal comes when every unit is used, not while some sit in another instance's slice
  local elsewhere = 0
  if slice == 0 and decided[2] / (ARGV[14] + 0) < ARGV[13] + 0 then
    elsewhere = returnable_units(KEYS[2], now_us, instance, ARGV)
    if elsewhere > 0 then
      recall(KEYS[1], ARGV[16])
    end
  end
  return { decided[1], decided[2], decided[3], decided[4], slice, slice > 0 and lease_ms or 0, elsewhere }
end
