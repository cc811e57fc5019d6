package io.quarkiverse.ratelimit.runtime.decide;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;

/**
 * The pauses upstream services asked for (a 429 with a retry time to an outgoing call), as this instance heard them
 * on the invalidation channel, its own and every other instance's. In Redis a pause only moves the next slot later:
 * calls that already hold a slot before its end would still go. So a waiting call looks here when its slot comes, and
 * does not go while one of its limits is under a pause heard after its decision: the service said not before then.
 * Holds only paused keys, until their pause ends.
 */
@Singleton
public class UpstreamPauses {

    /** A paused key: until when ({@link System#nanoTime()}), and the number of the pause that set it. */
    private record Pause(long untilNanos, long number) {
    }

    private final ConcurrentMap<String, Pause> paused = new ConcurrentHashMap<>();
    private final AtomicLong heard = new AtomicLong();

    UpstreamPauses(InvalidationChannel invalidations) {
        invalidations.listen(new InvalidationChannel.Listener() {
            @Override
            public void keysChanged(List<String> keys) {
            }

            @Override
            public void everythingChanged() {
            }

            @Override
            public void paused(List<String> keys, long pauseMillis) {
                pause(keys, pauseMillis);
            }
        });
    }

    void pause(List<String> keys, long pauseMillis) {
        Pause pause = new Pause(System.nanoTime() + pauseMillis * 1_000_000, heard.incrementAndGet());
        for (String key : keys) {
            paused.merge(key, pause, (held, heardNow) -> heardNow.untilNanos() > held.untilNanos() ? heardNow : held);
        }
    }

    /**
     * The number of pauses heard so far: taken when a call's decision arrives, so that only pauses heard later revoke
     * its slot (a decision Redis took after a pause already respects it).
     */
    long heard() {
        return heard.get();
    }

    /**
     * How long the longest pause of {@code keys} heard after {@code decided} (a {@link #heard()}) lasts still;
     * {@code null} when none.
     */
    Duration revoking(List<String> keys, long decided) {
        if (paused.isEmpty()) {
            return null;
        }
        long now = System.nanoTime();
        long longest = 0;
        for (String key : keys) {
            Pause pause = paused.get(key);
            if (pause == null) {
                continue;
            }
            if (pause.untilNanos() - now <= 0) {
                paused.remove(key, pause);
            } else if (pause.number() > decided) {
                longest = Math.max(longest, pause.untilNanos() - now);
            }
        }
        return longest == 0 ? null : Duration.ofNanos(longest);
    }
}
