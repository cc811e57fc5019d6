package io.quarkiverse.ratelimit.deployment.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.QuotaThresholdReached;
import io.quarkiverse.ratelimit.RateLimit;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimiter;
import io.quarkiverse.ratelimit.deployment.DecisionsInFlight;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * A call that takes a limit's use to a configured share fires one {@link QuotaThresholdReached} per threshold and
 * period, however many calls race past it, and none for a threshold another instance already reported.
 */
class ThresholdEventsTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Received.class, DecisionsInFlight.class))
            .overrideConfigKey("quarkus.rate-limit.thresholds", "50,100");

    private static final Duration DAY = Duration.ofDays(1);

    @ApplicationScoped
    public static class Received {

        final List<QuotaThresholdReached> events = new CopyOnWriteArrayList<>();

        void on(@ObservesAsync QuotaThresholdReached event) {
            events.add(event);
        }

        List<QuotaThresholdReached> of(String tenant) {
            return events.stream().filter(event -> tenant.equals(event.tenant())).toList();
        }
    }

    @Inject
    RateLimiter limiter;

    @Inject
    Received received;

    @Inject
    Redis redis;

    /** The instance's clock, whose wall time a threshold's period is aligned by. */
    @Inject
    InstanceClock clock;

    @Test
    void eachThresholdIsReportedOnceHoweverManyCallsRacePastIt() {
        String tenant = UUID.randomUUID().toString();
        RateLimit quota = RateLimit.of("daily-quota", 10, DAY).algorithm(Algorithm.FIXED_WINDOW);

        List<RateLimitDecision> decisions = DecisionsInFlight.decide(limiter, quota, tenant, 40);

        assertThat(decisions).filteredOn(RateLimitDecision::allowed).hasSize(10);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> received.of(tenant).size() >= 2);
        assertThat(received.of(tenant)).extracting(QuotaThresholdReached::percent).containsExactlyInAnyOrder(50, 100);
        QuotaThresholdReached half = received.of(tenant).stream().filter(event -> event.percent() == 50).findFirst()
                .orElseThrow();
        assertThat(half.limitName()).isEqualTo("daily-quota");
        assertThat(half.used()).isEqualTo(5);
        assertThat(half.limit()).isEqualTo(10);
        assertThat(half.window()).isEqualTo(DAY);
        Instant now = Instant.ofEpochMilli(clock.currentTimeMillis());
        assertThat(half.periodStart()).isBeforeOrEqualTo(now).isAfter(now.minus(DAY));
        assertThat(markers(tenant, "daily-quota")).as("one marker per threshold").hasSize(2);
    }

    @Test
    void aThresholdAnotherInstanceReportedIsNotReportedAgain() {
        String tenant = UUID.randomUUID().toString();
        RateLimit quota = RateLimit.of("shared-quota", 4, DAY).algorithm(Algorithm.FIXED_WINDOW);
        long period = clock.currentTimeMillis() / DAY.toMillis(); // the period as the instance's clock has it
        redis.send(Request.cmd(Command.SET).arg("rate-limit:{" + tenant + "}:shared-quota:fw:th50:" + period)
                .arg("another instance").arg("PX").arg(DAY.toMillis())).await().indefinitely();

        for (int i = 0; i < 4; i++) {
            assertThat(limiter.tryAcquireAndAwait(quota, tenant).allowed()).isTrue();
        }

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !received.of(tenant).isEmpty());
        assertThat(received.of(tenant)).extracting(QuotaThresholdReached::percent).containsExactly(100);
    }

    @Test
    void eachLimitOfACallReportsItsOwnThresholds() {
        String tenant = UUID.randomUUID().toString();
        RateLimit daily = RateLimit.of("daily-of-two", 4, DAY).algorithm(Algorithm.FIXED_WINDOW);
        RateLimit burst = RateLimit.of("burst-of-two", 1, DAY).algorithm(Algorithm.FIXED_WINDOW);

        assertThat(limiter.tryAcquireAll(List.of(daily, burst), tenant).await().indefinitely())
                .allMatch(RateLimitDecision::allowed);
        // refused by the burst limit: the daily limit would have admitted the call, and consumed nothing
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.tryAcquireAll(List.of(daily, burst), tenant).await().indefinitely())
                    .extracting(RateLimitDecision::allowed).containsExactly(true, false);
        }
        assertThat(limiter.tryAcquire(daily, tenant).await().indefinitely().remaining()).isEqualTo(2);

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> received.of(tenant).size() >= 3);
        // a limit of 1 reaches 50 % and 100 % with one call
        assertThat(received.of(tenant)).extracting(event -> event.limitName() + " " + event.percent() + " " + event.used())
                .containsExactlyInAnyOrder("burst-of-two 50 1", "burst-of-two 100 1", "daily-of-two 50 2");
        assertThat(markers(tenant, "daily-of-two")).as("the daily limit's 50 %, reached by its second call").hasSize(1);
    }

    private List<String> markers(String tenant, String limit) {
        Response keys = redis.send(Request.cmd(Command.KEYS).arg("rate-limit:{" + tenant + "}:" + limit + ":fw:th*"))
                .await().indefinitely();
        List<String> markers = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            markers.add(keys.get(i).toString());
        }
        return markers;
    }
}
