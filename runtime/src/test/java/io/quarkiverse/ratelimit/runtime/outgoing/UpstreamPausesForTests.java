package io.quarkiverse.ratelimit.runtime.outgoing;

import java.util.List;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;

/** {@link UpstreamPauses} of this instance alone, on a clock a test drives, and a pause as an upstream asks for it. */
public final class UpstreamPausesForTests {

    private UpstreamPausesForTests() {
    }

    public static UpstreamPauses on(InstanceClock clock) {
        return new UpstreamPauses(clock);
    }

    /**
     * An upstream's pause of {@code keys} for {@code millis}, held by Redis at once, heard at once by the calls waiting on
     * them.
     */
    public static void pause(UpstreamPauses pauses, List<String> keys, long millis) {
        pauses.heldInRedis(keys, pauses.hold(keys, millis));
        pauses.wake(keys);
    }

    /** An upstream's pause of {@code keys} for {@code millis} that this instance holds but Redis could not record. */
    public static void pauseHereOnly(UpstreamPauses pauses, List<String> keys, long millis) {
        pauses.hold(keys, millis);
        pauses.wake(keys);
    }
}
