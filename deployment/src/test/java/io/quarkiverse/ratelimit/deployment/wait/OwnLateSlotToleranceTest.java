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
 * A limit's own late-slot tolerance applies to its calls, whatever {@code quarkus.rate-limit.late-slot-tolerance}
 * says: here the application lets late calls go for an hour, and the carrier's limit keeps its 10 ms.
 */
class OwnLateSlotToleranceTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(StalledEventLoops.class))
            .overrideConfigKey("quarkus.rate-limit.late-slot-tolerance", "1h");

    static final RateLimit CARRIER = RateLimit.of("own-tolerance-carrier", 20, Duration.ofSeconds(1))
            .algorithm(Algorithm.GCRA).burst(1).maxWait(Duration.ofSeconds(5)).lateSlotTolerance(Duration.ofMillis(10));

    @Inject
    RateLimiter limiter;

    @Inject
    Vertx vertx;

    @Test
    void theLimitsToleranceKeepsItsCallsApartThroughAStall() {
        StalledEventLoops.callsNeverBunchThroughAStall(limiter, vertx, CARRIER);
    }
}
