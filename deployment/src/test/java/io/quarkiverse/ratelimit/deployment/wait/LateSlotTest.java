package io.quarkiverse.ratelimit.deployment.wait;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;

/**
 * A waiting call whose turn comes late (every event loop stalled, as by a long GC) does not go late: it takes the
 * next free slot instead, so the calls of the limit never bunch, whatever this instance's lateness.
 */
class LateSlotTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(StalledEventLoops.class));

    /** One call every 50 ms, none at once beyond it, waiting up to 5 s. */
    static final RateLimit CARRIER = RateLimit.of("late-carrier", 20, Duration.ofSeconds(1)).algorithm(Algorithm.GCRA)
            .burst(1).maxWait(Duration.ofSeconds(5));

    @Inject
    RateLimiter limiter;

    @Inject
    Vertx vertx;

    @Test
    void callsWhoseTurnCameDuringAStallTakeTheNextSlotsInsteadOfGoingTogether() {
        StalledEventLoops.callsNeverBunchThroughAStall(limiter, vertx, CARRIER);
    }
}
