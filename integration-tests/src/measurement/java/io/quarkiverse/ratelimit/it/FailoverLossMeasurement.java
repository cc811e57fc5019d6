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
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.CircuitBreakerTransition.State;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.runtime.status.LimiterStatus;
import io.quarkus.test.common.http.TestHTTPResource;

/**
 * A measurement, not a test (bench/failover-loss.sh runs it; the build skips it): how many calls are admitted beyond
 * their limit when a master is killed in the middle of a burst, behind Sentinel ({@link SentinelFailoverLossMeasurement})
 * or in a cluster ({@link ClusterFailoverLossMeasurement}). Redis replicates asynchronously, so the last counts the
 * master wrote may never reach the replica it promotes. The limit is fail-closed, so that nothing is admitted without
 * Redis: every call beyond a tenant's limit is a count the failover lost. After the failover every tenant asks until
 * Redis refuses it (429).
 * <p>
 * {@code -Dreplica-lag-ms=N} cuts the replica off N ms before the master dies: the replica is paused (SIGSTOP, so it
 * cannot reconnect) and the master drops its link, so what the master writes in those N ms reaches no replica; the
 * replica resumes once the master is dead. A replica that lagged behind, where asynchronous replication loses the
 * most. Run with {@code -Dquarkus.rate-limit.durable.replicas=1} to measure durable decisions (Sentinel only).
 */
abstract class FailoverLossMeasurement {

    /** The master that will die. */
    abstract LocalRedisServer master();

    /** The replica that will take over. */
    abstract LocalRedisServer replica();

    /** Whether the replica is the master now, as the set-up sees it. */
    abstract boolean replicaPromoted();

    /** The old master back, empty: the set-up makes it the new master's replica (durable decisions need one). */
    void restartOldMaster() {
    }

    static final int TENANTS = 400;
    static final int THREADS = 16;

    @Inject
    LimiterStatus limiter;

    @ConfigProperty(name = "quarkus.rate-limit.durable.replicas")
    int durableReplicas;

    @TestHTTPResource("/failure/closed")
    URI closed;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void overAdmissionWhenTheMasterDiesDuringABurst() throws Exception {
        String run = UUID.randomUUID().toString();
        replica(); // known while the master lives
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
        long lagMillis = Long.getLong("replica-lag-ms", 0);
        if (lagMillis > 0) {
            replica().pause();
            master().command("CLIENT", "KILL", "TYPE", "replica");
            Thread.sleep(lagMillis); // the lag itself: the burst goes on meanwhile
        }
        long killedAt = System.nanoTime();
        master().kill();
        if (lagMillis > 0) {
            replica().resume();
        }
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(this::replicaPromoted);
        restartOldMaster();
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> limiter.circuit() == State.CLOSED);
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
            // a 503 is a decision not taken yet (the client's slot map may still name the dead master): ask again
            for (int attempt = 0; attempt < 200; attempt++) {
                int status = call(run, tenant);
                if (status == 200) {
                    admitted.computeIfAbsent(tenant, ignored -> new AtomicInteger()).incrementAndGet();
                } else if (status == 429) {
                    return;
                } else {
                    sleep(50);
                }
            }
        });

        int total = admitted.values().stream().mapToInt(AtomicInteger::get).sum();
        int beyond = admitted.values().stream().mapToInt(a -> Math.max(0, a.get() - FailureModesResource.LIMIT)).sum();
        long tenantsOver = admitted.values().stream().filter(a -> a.get() > FailureModesResource.LIMIT).count();
        System.out.printf("FAILOVER-LOSS: %s, %d tenants, limit %d each (%d in all), %d calls sent during the burst;"
                + " admitted %d, %d beyond the limits (%d tenants over); Redis decided again %.1f s after the kill"
                + " (durable replicas %s, replica lag %d ms)%n",
                getClass().getSimpleName().replace("FailoverLossMeasurement", ""), TENANTS, FailureModesResource.LIMIT,
                budget, sent.get(), total, beyond, tenantsOver, failoverSeconds,
                durableReplicas, lagMillis);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis); // pacing retries against a cluster that settles: nothing to await on
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
