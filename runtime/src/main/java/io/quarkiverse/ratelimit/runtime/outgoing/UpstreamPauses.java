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
 * <p>
 * A slot Redis gave once it held the pause lies after the pause in Redis, though that may end a little earlier than
 * here (an instance that heard of it later starts it later): such a slot goes. A slot given before may lie anywhere in
 * the pause, up to its very end: it never goes before the end. So each pause knows since when Redis holds it.
 */
@Singleton
public class UpstreamPauses {

    /**
     * The longest pause of one key: until when ({@link InstanceClock} nanos), and since when Redis holds it
     * ({@code inRedis} false: not known to yet, or it could not be recorded).
     */
    private record Pause(long untilNanos, boolean inRedis, long inRedisSinceNanos) {
    }

    private final ConcurrentMap<String, Pause> pauses = new ConcurrentHashMap<>();
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
                // an announcement leaves Redis once the pause is recorded there
                heldInRedis(keys, hold(keys, pauseMillis));
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
     *
     * @return until when the pause lasts here, for {@link #heldInRedis}
     */
    long hold(List<String> keys, long pauseMillis) {
        long until = clock.nanoTime() + pauseMillis * 1_000_000;
        Pause pause = new Pause(until, false, 0);
        for (String key : keys) {
            pauses.merge(key, pause, (held, now) -> now.untilNanos() - held.untilNanos() > 0 ? now : held);
        }
        return until;
    }

    /** Redis holds the pause {@link #hold} returned {@code untilNanos} for: every slot it gives from now lies after it. */
    void heldInRedis(List<String> keys, long untilNanos) {
        Pause inRedis = new Pause(untilNanos, true, clock.nanoTime());
        for (String key : keys) {
            pauses.computeIfPresent(key,
                    (ignored, held) -> held.untilNanos() == untilNanos && !held.inRedis() ? inRedis : held);
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
     * Until when (the {@link InstanceClock}'s time) a slot Redis gave a call asked for at {@code askedAtNanos} may not go:
     * the end of the longest pause of {@code keys} that Redis did not hold yet when the call was asked; {@code now} or
     * earlier when none.
     */
    public long pausedUntilNanos(List<String> keys, long now, long askedAtNanos) {
        long until = now;
        if (pauses.isEmpty()) {
            return until;
        }
        for (String key : keys) {
            Pause pause = pauses.get(key);
            if (pause == null) {
                continue;
            }
            long end = pause.untilNanos();
            if (end - now <= 0) {
                pauses.remove(key, pause);
            } else if (end - until > 0 && !(pause.inRedis() && askedAtNanos - pause.inRedisSinceNanos() > 0)) {
                until = end;
            }
        }
        return until;
    }
}
