package io.quarkiverse.ratelimit.runtime.outgoing;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationListener;

/**
 * The pauses upstream services asked for (a 429 or 503 with a retry time to an outgoing call): those this instance's
 * own calls were answered with, at once, and every instance's as heard on the invalidation channel. In Redis a pause
 * only moves the next slot later: calls that already hold a slot inside it would still go. So the calls waiting for a
 * slot are woken when a pause is heard ({@code SlotWaits}), and a call looks here again when its slot comes. Holds only
 * paused keys, until their pause ends.
 */
@Singleton
public class UpstreamPauses {

    private final ConcurrentMap<String, Long> untilNanos = new ConcurrentHashMap<>();
    /** Told of every pause as soon as it is heard ({@code SlotWaits}: the calls waiting on its keys). */
    private volatile Consumer<List<String>> onPause = keys -> {
    };

    private final InstanceClock clock;

    @Inject
    UpstreamPauses(InvalidationChannel invalidations, InstanceClock clock) {
        this(clock);
        invalidations.listen(new InvalidationListener() {
            @Override
            public void paused(List<String> keys, long pauseMillis) {
                hold(keys, pauseMillis);
                wake(keys);
            }
        });
    }

    /** The pauses of this instance's own calls only, heard from no other instance. */
    UpstreamPauses(InstanceClock clock) {
        this.clock = clock;
    }

    /**
     * Nothing of this instance goes to {@code keys}' limits for {@code pauseMillis} from now: a call whose slot comes
     * meanwhile does not go ({@link #pausedUntilNanos}).
     */
    void hold(List<String> keys, long pauseMillis) {
        long until = clock.nanoTime() + pauseMillis * 1_000_000;
        for (String key : keys) {
            untilNanos.merge(key, until, (held, now) -> now - held > 0 ? now : held);
        }
    }

    /** Tells the calls waiting on {@code keys} that they are paused: they take a slot after the pause, or none. */
    void wake(List<String> keys) {
        onPause.accept(keys);
    }

    public void onPause(Consumer<List<String>> listener) {
        this.onPause = listener;
    }

    /**
     * Until when (the {@link InstanceClock}'s time) the longest pause of {@code keys} lasts; {@code now} or earlier when none
     * does.
     */
    public long pausedUntilNanos(List<String> keys, long now) {
        long until = now;
        if (untilNanos.isEmpty()) {
            return until;
        }
        for (String key : keys) {
            Long end = untilNanos.get(key);
            if (end == null) {
                continue;
            }
            if (end - now <= 0) {
                untilNanos.remove(key, end);
            } else if (end - until > 0) {
                until = end;
            }
        }
        return until;
    }
}
