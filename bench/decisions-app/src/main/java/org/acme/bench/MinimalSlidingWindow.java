package org.acme.bench;

/**
 * The baseline's script: a minimal sliding window counter (Redis TIME, two window keys in one hash slot, one increment,
 * an expiry), as a hand-written limiter would send it.
 */
final class MinimalSlidingWindow {

    static final String SCRIPT = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
            local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
            local w = math.floor(now / window)
            local current_key, previous_key = KEYS[1 + w % 2], KEYS[1 + (w + 1) % 2]
            local previous = tonumber(redis.call('GET', previous_key) or '0')
            local current = tonumber(redis.call('GET', current_key) or '0')
            if previous * (window - (now - w * window)) / window + current + 1 > limit then
              return { 0, current }
            end
            redis.call('INCR', current_key)
            redis.call('PEXPIRE', current_key, window * 2)
            return { 1, current + 1 }
            """;

    private MinimalSlidingWindow() {
    }
}
