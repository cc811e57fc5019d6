package io.quarkiverse.ratelimit.runtime.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.awaitility.Awaitility;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.clock.DrivenClock;
import io.quarkiverse.ratelimit.runtime.limit.AlgorithmSet;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.redis.InvalidationChannel;
import io.quarkiverse.ratelimit.runtime.redis.RateLimitScripts;
import io.quarkiverse.ratelimit.runtime.redis.ScriptArguments;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Two instances, each with its own refusal cache fed by its own subscription to the invalidation channel, share one
 * tenant's limit on a real redis-server through the shipped scripts. Random interleavings of decisions, refunds,
 * resets and limit changes made on either instance are checked against one exact model of the limit:
 * <ul>
 * <li>never more admitted than the model admits (the cache never admits, and Redis is exact);</li>
 * <li>once every invalidation published so far has arrived ({@link Step.Kind#SETTLE}), never a refusal of a call the
 * model admits (no cached refusal outlives the truth in Redis).</li>
 * </ul>
 * The scripts run with an explicit clock that stands still, so the model is a plain counter.
 */
class RefusalCachesOnAFleetTest {

    private static final long NOW_US = 1_767_225_600L * 1_000_000;
    private static final long WINDOW_MS = 3_600_000;
    private static final String CHANNEL = "fleet-test:invalidations";
    private static final LocalRedisServer redis = LocalRedisServer.start();
    private static final RateLimitScripts scripts = new RateLimitScripts();

    @AfterContainer
    static void stop() {
        redis.close();
    }

    /** What happens next, on which instance (0 or 1). */
    record Step(Kind kind, int instance, long value) {
        enum Kind {
            DECIDE,
            /** Gives back one unit of a call this instance admitted earlier, if it has one. */
            REFUND,
            /** The same by a reservation settled one unit below its estimate ({@code settle.lua}). */
            SETTLE_BELOW,
            RESET,
            /** An operator's run-time limit: stored, announced, applied by each instance when the news arrives. */
            CHANGE_LIMIT,
            /** Waits until both instances heard every invalidation published so far. */
            SETTLE
        }
    }

    @Property(tries = 200)
    void noCachedRefusalOutlivesTheTruthInRedis(@ForAll("runs") List<Step> steps) throws Exception {
        String key = "fleet-test:{" + UUID.randomUUID() + "}:quota:fw";
        AtomicLong storedLimit = new AtomicLong(3);
        try (Instance first = new Instance(key, storedLimit);
                Instance second = new Instance(key, storedLimit);
                RespConnection commands = redis.connect()) {
            long used = 0; // the model: units in use of the one fixed window
            long published = 0; // messages on the channel: one per refund, reset and limit change
            long[] admittedBy = new long[2];
            boolean settled = true;
            Instance[] instances = { first, second };
            for (Step step : steps) {
                Instance instance = instances[step.instance()];
                switch (step.kind()) {
                    case DECIDE -> {
                        // one reading of the instance's limit, which its subscriber may change at any moment
                        long limit = instance.limit();
                        boolean modelAdmits = used + 1 <= limit;
                        boolean admitted = instance.decide(commands, limit);
                        if (admitted) {
                            assertThat(modelAdmits).as("admitted beyond the model, after %s", steps).isTrue();
                        }
                        if (settled && modelAdmits) {
                            assertThat(admitted).as("refused what the model admits, after %s", steps).isTrue();
                        }
                        if (admitted) {
                            used++;
                            admittedBy[step.instance()]++;
                        }
                    }
                    case REFUND, SETTLE_BELOW -> {
                        if (admittedBy[step.instance()] > 0) {
                            if (step.kind() == Step.Kind.REFUND) {
                                instance.refund(commands);
                            } else {
                                instance.settleBelow(commands);
                            }
                            admittedBy[step.instance()]--;
                            used--;
                            published++;
                            settled = false;
                        }
                    }
                    case RESET -> {
                        commands.command("EVAL", scripts.reset().source(), "1", key,
                                ScriptArguments.reset(CHANNEL).get(0));
                        used = 0;
                        admittedBy[0] = 0;
                        admittedBy[1] = 0;
                        published++;
                        settled = false;
                    }
                    case CHANGE_LIMIT -> {
                        storedLimit.set(step.value());
                        commands.command("PUBLISH", CHANNEL, InvalidationChannel.EVERYTHING);
                        published++;
                        settled = false;
                    }
                    case SETTLE -> {
                        long sent = published;
                        Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1)).until(
                                () -> first.received() >= sent && second.received() >= sent);
                        settled = true;
                    }
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Step>> runs() {
        Arbitrary<Integer> instance = Arbitraries.integers().between(0, 1);
        Arbitrary<Step> step = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(10, Combinators.combine(instance, Arbitraries.just(0L))
                        .as((i, v) -> new Step(Step.Kind.DECIDE, i, v))),
                net.jqwik.api.Tuple.of(3, instance.map(i -> new Step(Step.Kind.REFUND, i, 0))),
                net.jqwik.api.Tuple.of(2, instance.map(i -> new Step(Step.Kind.SETTLE_BELOW, i, 0))),
                net.jqwik.api.Tuple.of(1, instance.map(i -> new Step(Step.Kind.RESET, i, 0))),
                net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(1, 6)
                        .map(limit -> new Step(Step.Kind.CHANGE_LIMIT, 0, limit))),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(new Step(Step.Kind.SETTLE, 0, 0))));
        return step.list().ofMinSize(5).ofMaxSize(40);
    }

    /**
     * One instance's part: its refusal cache, fed by its own subscription (a thread reading the channel, as
     * {@link InvalidationChannel} does), and its copy of the run-time limit, loaded when a change is announced.
     */
    private static final class Instance implements AutoCloseable {

        private final String key;
        private final AtomicLong storedLimit;
        /** Stands still, as the scripts' time does ({@code NOW_US}): a refusal holds as long as Redis says it does. */
        private final DrivenClock clock = new DrivenClock();
        private final RefusalCache cache = new RefusalCache(100, clock::nanoTime, () -> true);
        private final RespConnection subscription = RespConnection.open("127.0.0.1", redis.port(),
                Duration.ofMillis(200));
        private final AtomicLong received = new AtomicLong();
        private final Thread listener;
        private volatile long limit;
        private volatile boolean open = true;

        Instance(String key, AtomicLong storedLimit) {
            this.key = key;
            this.storedLimit = storedLimit;
            this.limit = storedLimit.get();
            subscription.command("SUBSCRIBE", CHANNEL);
            this.listener = new Thread(this::listen, "fleet-test-subscriber");
            listener.setDaemon(true);
            listener.start();
        }

        long limit() {
            return limit;
        }

        private void listen() {
            while (open) {
                Object message;
                try {
                    message = subscription.receive();
                } catch (RuntimeException e) {
                    if (e.getCause() instanceof SocketTimeoutException) {
                        continue;
                    }
                    return; // closed
                }
                String payload = (String) ((List<?>) message).get(2);
                if (InvalidationChannel.EVERYTHING.equals(payload)) {
                    limit = storedLimit.get();
                    cache.forgetAll();
                } else {
                    cache.forget(List.of(payload.split("\n")));
                }
                received.incrementAndGet();
            }
        }

        /** Decides as DecisionGuard does: the cache first, else Redis, whose refusal is remembered. */
        /** @param limit the instance's limit, read once by the caller (its model uses the same reading) */
        boolean decide(RespConnection commands, long limit) {
            List<String> keys = List.of(key);
            List<LimitDefinition> limits = List.of(definition(limit, 1));
            if (cache.refusal(keys, limits) != null) {
                return false;
            }
            long sent = clock.nanoTime();
            long stamp = cache.stamp(keys);
            List<String> command = new ArrayList<>(List.of("EVAL",
                    scripts.decide(AlgorithmSet.of(limits)).source(), "1", key));
            command.addAll(ScriptArguments.limits(Long.toString(NOW_US), limits));
            List<?> reply = (List<?>) commands.command(command.toArray(String[]::new));
            RateLimitDecision decision = new RateLimitDecision("quota", limit, Duration.ofMillis(WINDOW_MS),
                    (Long) reply.get(0) == 1, (Long) reply.get(1), Duration.ofMillis((Long) reply.get(2)),
                    (Long) reply.get(3) < 0 ? null : Duration.ofMillis((Long) reply.get(3)), false);
            cache.remember(keys, limits, List.of(decision), sent, stamp);
            return decision.allowed();
        }

        void refund(RespConnection commands) {
            List<LimitDefinition> limits = List.of(definition(limit, 1));
            List<String> command = new ArrayList<>(List.of("EVAL",
                    scripts.refund(AlgorithmSet.of(limits)).source(), "1", key));
            command.addAll(ScriptArguments.refund(Long.toString(NOW_US), limits, CHANNEL));
            cache.forget(List.of(key)); // as DecisionGuard.refund does, before the script
            commands.command(command.toArray(String[]::new));
        }

        /** A reservation of this instance settled one unit below its estimate, as DecisionGuard.settle sends it. */
        void settleBelow(RespConnection commands) {
            List<LimitDefinition> limits = List.of(definition(limit, -1));
            List<String> command = new ArrayList<>(List.of("EVAL",
                    scripts.settle(AlgorithmSet.of(limits)).source(), "1", key));
            command.addAll(ScriptArguments.settle(Long.toString(NOW_US), limits, CHANNEL));
            cache.forget(List.of(key));
            commands.command(command.toArray(String[]::new));
        }

        long received() {
            return received.get();
        }

        @Override
        public void close() {
            open = false;
            subscription.close();
        }
    }

    private static LimitDefinition definition(long limit, long cost) {
        return LimitDefinition.builder("quota", limit, WINDOW_MS).algorithm(Algorithm.FIXED_WINDOW).cost(cost).build();
    }
}
