package io.quarkiverse.ratelimit.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.quarkiverse.ratelimit.CircuitBreakerTransition.State;
import io.quarkiverse.ratelimit.localredis.LocalRedisSentinel;
import io.quarkiverse.ratelimit.runtime.decide.DecisionGuard;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A measurement, not a test (bench/failover-loss.sh runs it; the build skips it): how many calls are admitted beyond
 * their limit when the Sentinel master is killed in the middle of a burst. Redis replicates asynchronously, so the last
 * counts the master wrote may never reach the replica it promotes. The limit is fail-closed, so that nothing is
 * admitted without Redis: every call beyond a tenant's limit is a count the failover lost.
 */
@QuarkusTest
@WithTestResource(value = RedisSentinelResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
@EnabledIfSystemProperty(named = "measure-failover-loss", matches = "true")
class SentinelFailoverLossMeasurement {

    private static final int TENANTS = 400;
    private static final int THREADS = 16;

    @InjectRedisSentinel
    LocalRedisSentinel sentinel;

    @Inject
    DecisionGuard limiter;

    @TestHTTPResource("/failure/closed")
    URI closed;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void overAdmissionWhenTheMasterDiesDuringABurst() throws Exception {
        String run = UUID.randomUUID().toString();
        Map<Integer, AtomicInteger> admitted = new ConcurrentHashMap<>();
        AtomicInteger sent = new AtomicInteger();
        AtomicBoolean sending = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        for (int t = 0; t < THREADS; t++) {
            pool.submit(() -> {
                while (sending.get()) {
                    int tenant = ThreadLocalRandom.current().nextInt(TENANTS);
                    if (call(run, tenant) == 200) {
                        admitted.computeIfAbsent(tenant, ignored -> new AtomicInteger()).incrementAndGet();
                    }
                    sent.incrementAndGet();
                }
                return null;
            });
        }
        // kill the master while about half of all the tenants' limits is still to be admitted
        int budget = TENANTS * FailureModesResource.LIMIT;
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1))
                .until(() -> admitted.values().stream().mapToInt(AtomicInteger::get).sum() >= budget / 2);
        long killedAt = System.nanoTime();
        sentinel.master().kill();
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> sentinel.currentMasterPort() == sentinel.replica().port()
                        && limiter.circuitState() == State.CLOSED);
        double failoverSeconds = (System.nanoTime() - killedAt) / 1e9;
        sending.set(false);
        pool.shutdown();
        pool.awaitTermination(30, TimeUnit.SECONDS);

        // then every tenant asks until the promoted master refuses it
        List<Integer> everyTenant = new ArrayList<>();
        for (int tenant = 0; tenant < TENANTS; tenant++) {
            everyTenant.add(tenant);
        }
        everyTenant.parallelStream().forEach(tenant -> {
            for (int i = 0; i < FailureModesResource.LIMIT + 1; i++) {
                if (call(run, tenant) == 200) {
                    admitted.computeIfAbsent(tenant, ignored -> new AtomicInteger()).incrementAndGet();
                }
            }
        });

        int total = admitted.values().stream().mapToInt(AtomicInteger::get).sum();
        int beyond = admitted.values().stream().mapToInt(a -> Math.max(0, a.get() - FailureModesResource.LIMIT)).sum();
        long tenantsOver = admitted.values().stream().filter(a -> a.get() > FailureModesResource.LIMIT).count();
        System.out.printf("FAILOVER-LOSS: %d tenants, limit %d each (%d in all), %d calls sent during the burst;"
                + " admitted %d, %d beyond the limits (%d tenants over); Redis decided again %.1f s after the kill%n",
                TENANTS, FailureModesResource.LIMIT, budget, sent.get(), total, beyond, tenantsOver, failoverSeconds);
    }

    private int call(String run, int tenant) {
        try {
            return http.send(HttpRequest.newBuilder(closed).header("X-Tenant-Id", run + "-" + tenant)
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (Exception e) {
            return -1;
        }
    }
}
