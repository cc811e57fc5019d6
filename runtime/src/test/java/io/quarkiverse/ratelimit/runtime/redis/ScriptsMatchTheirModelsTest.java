package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Limit;
import io.quarkiverse.ratelimit.runtime.redis.model.LimitModel;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Model-checked scripts: random sequences of calls (with costs, several limits on one call, limits in shadow mode),
 * refunds and clock jumps (within and across windows, onto window boundaries) run on a real redis-server through the
 * shipped scripts with an explicit clock, and every reply (allowed, remaining, reset, retry-after) and every key's time
 * to live is compared with a plain Java reference model of the algorithm ({@code model/}), computed exactly.
 * <p>
 * Redis would expire keys on its own clock, not the test's: each script is followed, within one script, by
 * {@code PTTL} (the time to live it set, exactly) and {@code PERSIST}, and the model decides when a key expires on the
 * test's clock, where the test deletes it. Counterexamples jqwik shrinks become example tests.
 */
class ScriptsMatchTheirModelsTest {

    /** 2026-01-01T00:00:00Z in microseconds: a realistic clock, where doubles no longer hold microseconds exactly. */
    private static final long EPOCH_2026_US = 1_767_225_600L * 1_000_000;
    private static final List<Long> LIMITS = List.of(1L, 2L, 3L, 5L, 7L, 10L, 64L, 100L, 1_000L, 1_000_000L,
            1_000_000_000L);
    private static final List<Long> WINDOWS_MS = List.of(1L, 3L, 10L, 250L, 1_000L, 60_000L, 3_600_000L,
            86_400_000L);
    /**
     * Where the scripts promise exact times: limit (and burst) times the window in microseconds below 2^53
     * ({@code lua/prelude.lua}); beyond it counts stay exact ({@link LargeLimitsScriptTest}) but a time may be a
     * millisecond off.
     */
    private static final long EXACT_BOUND = 1L << 53;
    /** The sliding log keeps one entry per unit: its limits stay small enough to write them all. */
    private static final long MAX_LOG_LIMIT = 1_000;
    /** ... and its costs small enough to write them quickly (a key may live a millisecond). */
    private static final long MAX_LOG_COST = 20;

    private static final ScriptHarness redis = new ScriptHarness(Algorithm.FIXED_WINDOW);
    private static final AtomicLong runs = new AtomicLong();

    @AfterContainer
    static void stop() {
        redis.close();
    }

    /** One limit a run, of any algorithm (the sample names it): about 300 runs of each. */
    @Property(tries = 1500)
    void eachAlgorithmAlone(@ForAll("singleLimitRuns") Run run) {
        check(run);
    }

    @Property(tries = 300)
    void severalLimitsOnOneCall(@ForAll("mixedRuns") Run run) {
        check(run);
    }

    @Provide
    Arbitrary<Run> singleLimitRuns() {
        return runs(specs(Arbitraries.of(Algorithm.class).filter(algorithm -> algorithm != Algorithm.CALENDAR_WINDOW), 1));
    }

    @Provide
    Arbitrary<Run> mixedRuns() {
        return runs(specs(Arbitraries.of(Algorithm.class).filter(algorithm -> algorithm != Algorithm.CALENDAR_WINDOW), 3)
                .filter(specs -> specs.size() > 1));
    }

    // ---- what a run is

    /** One limit: its algorithm, limit, window and burst (0: the limit). */
    record Spec(Algorithm algorithm, long limit, long windowMillis, long burst) {

        long capacity() {
            return burst > 0 ? burst : limit;
        }
    }

    sealed interface Step permits Call, Refund, Settle, Advance {
    }

    /** A call: each limit's cost, {@code -1} for a limit the call does not have; the limits in shadow mode. */
    record Call(List<Long> costs, long shadowMask) implements Step {
    }

    /** A refund of what each limit's cost says ({@code -1}: not that limit). */
    record Refund(List<Long> costs) implements Step {
    }

    /**
     * A reservation settled: each limit's difference, real minus reserved ({@link #NOT_THIS_LIMIT}: not that limit),
     * given back below zero, charged beyond the limit if need be above.
     */
    record Settle(List<Long> differences) implements Step {
        static final long NOT_THIS_LIMIT = Long.MIN_VALUE;
    }

    /**
     * The clock moves on by {@code micros}; {@link #NEXT_WINDOW} moves it onto the next boundary of the first limit's
     * window, {@link #JUST_BEFORE_NEXT_WINDOW} to the microsecond before it.
     */
    record Advance(long micros) implements Step {
        static final long NEXT_WINDOW = -1, JUST_BEFORE_NEXT_WINDOW = -2;
    }

    record Run(List<Spec> specs, long startOffsetUs, List<Step> steps) {
    }

    // ---- generators

    private static Arbitrary<List<Spec>> specs(Arbitrary<Algorithm> algorithms, int maxLimits) {
        return spec(algorithms).list().ofMinSize(1).ofMaxSize(maxLimits);
    }

    private static Arbitrary<Spec> spec(Arbitrary<Algorithm> algorithms) {
        return algorithms.flatMap(algorithm -> Combinators.combine(
                Arbitraries.of(LIMITS).filter(limit -> algorithm != Algorithm.SLIDING_WINDOW_LOG
                        || limit <= MAX_LOG_LIMIT),
                Arbitraries.of(WINDOWS_MS)).flatAs(
                        (limit, window) -> burst(algorithm, limit)
                                .map(burst -> new Spec(algorithm, limit, window, burst))))
                .filter(spec -> Math.max(spec.limit(), spec.burst()) < EXACT_BOUND / (spec.windowMillis() * 1000));
    }

    private static Arbitrary<Long> burst(Algorithm algorithm, long limit) {
        if (algorithm != Algorithm.TOKEN_BUCKET && algorithm != Algorithm.GCRA) {
            return Arbitraries.just(0L);
        }
        return Arbitraries.frequencyOf(
                pair(3, Arbitraries.just(0L)),
                pair(1, Arbitraries.longs().between(1, Math.min(2 * limit, 1_000_000_000L))));
    }

    private static <T> Tuple2<Integer, Arbitrary<? extends T>> pair(int weight, Arbitrary<? extends T> values) {
        return Tuple.of(weight, values);
    }

    private static Arbitrary<Run> runs(Arbitrary<List<Spec>> specs) {
        return specs.flatMap(chosen -> Combinators.combine(
                Arbitraries.longs().between(0, 86_400_000_000L),
                step(chosen).list().ofMinSize(1).ofMaxSize(40))
                .as((offset, steps) -> new Run(chosen, offset, steps)));
    }

    private static Arbitrary<Step> step(List<Spec> specs) {
        return Arbitraries.frequencyOf(
                pair(5, call(specs)),
                pair(1, refund(specs)),
                pair(1, settle(specs)),
                pair(4, advance(specs.get(0).windowMillis() * 1000)));
    }

    private static Arbitrary<Step> call(List<Spec> specs) {
        Arbitrary<Long> shadowMasks = Arbitraries.frequencyOf(
                pair(2, Arbitraries.just(0L)),
                pair(1, Arbitraries.longs().between(0, (1L << specs.size()) - 1)));
        return Combinators.combine(costs(specs), shadowMasks).as(Call::new);
    }

    private static Arbitrary<Step> refund(List<Spec> specs) {
        return costs(specs).map(Refund::new);
    }

    private static Arbitrary<Step> settle(List<Spec> specs) {
        List<Arbitrary<Long>> each = new ArrayList<>();
        for (Spec spec : specs) {
            long most = spec.algorithm() == Algorithm.SLIDING_WINDOW_LOG ? MAX_LOG_COST : spec.capacity();
            Arbitrary<Long> difference = Arbitraries.frequencyOf(
                    pair(1, Arbitraries.just(0L)),
                    pair(2, Arbitraries.longs().between(-most, -1)),
                    pair(3, Arbitraries.longs().between(1, most)));
            each.add(specs.size() == 1 ? difference
                    : Arbitraries.frequencyOf(pair(4, difference), pair(1, Arbitraries.just(Settle.NOT_THIS_LIMIT))));
        }
        return Combinators.combine(each).as(List::copyOf)
                .filter(differences -> differences.stream().anyMatch(d -> d != Settle.NOT_THIS_LIMIT))
                .map(Settle::new);
    }

    /** One cost per limit, at least one limit taking part. */
    private static Arbitrary<List<Long>> costs(List<Spec> specs) {
        List<Arbitrary<Long>> each = new ArrayList<>();
        for (Spec spec : specs) {
            each.add(specs.size() == 1 ? cost(spec)
                    : Arbitraries.frequencyOf(pair(4, cost(spec)), pair(1, Arbitraries.just(-1L))));
        }
        return Combinators.combine(each).as(List::copyOf).filter(costs -> costs.stream().anyMatch(c -> c >= 0));
    }

    private static Arbitrary<Long> cost(Spec spec) {
        long capacity = spec.capacity();
        return Arbitraries.frequencyOf(
                pair(8, Arbitraries.just(1L)),
                pair(2, Arbitraries.longs().between(0, Math.min(capacity, 5))),
                pair(2, Arbitraries.longs().between(1,
                        Math.min(capacity, spec.algorithm() == Algorithm.SLIDING_WINDOW_LOG ? MAX_LOG_LIMIT : capacity))),
                pair(1, Arbitraries.just(capacity)),
                pair(1, Arbitraries.just(capacity + 1)))
                .filter(cost -> spec.algorithm() != Algorithm.SLIDING_WINDOW_LOG || cost <= MAX_LOG_COST
                        || cost > capacity);
    }

    private static Arbitrary<Step> advance(long windowUs) {
        return Arbitraries.frequencyOf(
                pair(1, Arbitraries.just(0L)),
                pair(3, Arbitraries.longs().between(1, 1_000)),
                pair(3, Arbitraries.longs().between(1, windowUs)),
                pair(2, Arbitraries.longs().between(windowUs, 3 * windowUs)),
                pair(1, Arbitraries.longs().between(3 * windowUs, 20 * windowUs)),
                pair(1, Arbitraries.of(Advance.NEXT_WINDOW, Advance.JUST_BEFORE_NEXT_WINDOW)))
                .map(Advance::new);
    }

    // ---- running a run on Redis and on the models

    private static void check(Run run) {
        String prefix = "{model-" + runs.incrementAndGet() + "}:";
        List<LimitModel> models = new ArrayList<>();
        for (Spec spec : run.specs()) {
            models.add(LimitModel.of(spec.algorithm(), spec.limit(), spec.windowMillis(), spec.burst()));
        }
        long now = EPOCH_2026_US + run.startOffsetUs();
        long firstWindowUs = run.specs().get(0).windowMillis() * 1000;
        int stepNumber = 0;
        for (Step step : run.steps()) {
            stepNumber++;
            String at = "step " + stepNumber + " (" + step + ") at " + now + " us";
            if (step instanceof Advance advance) {
                now = advance(now, advance.micros(), firstWindowUs);
                for (int i = 0; i < models.size(); i++) {
                    if (models.get(i).expire(now)) {
                        redis.redis("DEL", prefix + i);
                    }
                }
            } else if (step instanceof Call call) {
                call(run.specs(), models, prefix, now, call, at);
            } else if (step instanceof Refund refund) {
                refund(run.specs(), models, prefix, now, refund, at);
            } else if (step instanceof Settle settle) {
                settle(run.specs(), models, prefix, now, settle, at);
            }
        }
    }

    private static long advance(long now, long micros, long windowUs) {
        if (micros == Advance.NEXT_WINDOW) {
            return (Math.floorDiv(now, windowUs) + 1) * windowUs;
        }
        if (micros == Advance.JUST_BEFORE_NEXT_WINDOW) {
            long boundary = (Math.floorDiv(now, windowUs) + 1) * windowUs - 1;
            return boundary > now ? boundary : boundary + windowUs;
        }
        return now + micros;
    }

    private static void call(List<Spec> specs, List<LimitModel> models, String prefix, long now, Call call,
            String at) {
        List<Integer> taking = taking(call.costs());
        List<LimitModel.Check> checks = new ArrayList<>();
        long shadowMask = 0;
        boolean admitted = true;
        for (int n = 0; n < taking.size(); n++) {
            int i = taking.get(n);
            LimitModel.Check check = models.get(i).check(now, call.costs().get(i));
            checks.add(check);
            boolean shadowed = taking.size() > 1 && (call.shadowMask() & (1L << i)) != 0;
            if (shadowed) {
                shadowMask |= 1L << n;
            }
            admitted &= check.reply().allowed() || shadowed;
        }
        List<LimitModel.Reply> expected = new ArrayList<>();
        for (int n = 0; n < taking.size(); n++) {
            int i = taking.get(n);
            LimitModel.Reply reply = checks.get(n).reply();
            if (admitted && reply.allowed()) {
                checks.get(n).commit().run();
            } else {
                models.get(i).untouched();
                if (reply.allowed()) {
                    // would have admitted, consumed nothing: what it has left now
                    reply = new LimitModel.Reply(true, reply.remaining() + call.costs().get(i), reply.resetMillis(),
                            0);
                }
            }
            expected.add(reply);
        }
        Limit[] limits = limits(specs, prefix, call.costs(), taking);
        runAndCompare(redis.decideCommand(now, shadowMask, limits), expected, specs, models, taking,
                at + ": replies of " + describe(specs, taking));
    }

    private static void refund(List<Spec> specs, List<LimitModel> models, String prefix, long now, Refund refund,
            String at) {
        List<Integer> taking = taking(refund.costs());
        for (int i : taking) {
            models.get(i).refund(now, refund.costs().get(i));
        }
        Limit[] limits = limits(specs, prefix, refund.costs(), taking);
        @SuppressWarnings("unchecked")
        List<Object> replies = (List<Object>) redis.redis(withTimesToLive(redis.refundCommand(now, limits)));
        checkTimesToLive(specs, models, taking, replies, at);
    }

    private static void settle(List<Spec> specs, List<LimitModel> models, String prefix, long now, Settle settle,
            String at) {
        List<Integer> taking = new ArrayList<>();
        List<LimitModel.Reply> expected = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            long difference = settle.differences().get(i);
            if (difference == Settle.NOT_THIS_LIMIT) {
                continue;
            }
            taking.add(i);
            LimitModel model = models.get(i);
            if (difference < 0) {
                model.refund(now, -difference);
            } else if (difference > 0) {
                model.charge(now, difference);
            } else {
                model.untouched();
            }
            expected.add(model.check(now, 0).reply());
        }
        Limit[] limits = taking.stream().map(i -> {
            Spec spec = specs.get(i);
            return new Limit(prefix + i, spec.algorithm(), spec.limit(), settle.differences().get(i), spec.burst(),
                    spec.windowMillis());
        }).toArray(Limit[]::new);
        runAndCompare(redis.settleCommand(now, limits), expected, specs, models, taking,
                at + ": state after the settlement of " + describe(specs, taking));
    }

    /** Runs a script's command on Redis; its replies and the keys' times to live are the models'. */
    private static void runAndCompare(String[] command, List<LimitModel.Reply> expected, List<Spec> specs,
            List<LimitModel> models, List<Integer> taking, String what) {
        @SuppressWarnings("unchecked")
        List<Object> replies = (List<Object>) redis.redis(withTimesToLive(command));
        @SuppressWarnings("unchecked")
        List<ScriptHarness.Reply> actual = ScriptHarness.replies((List<Long>) replies.get(0));
        assertThat(actual).as(what).containsExactlyElementsOf(expected.stream().map(r -> new ScriptHarness.Reply(
                r.allowed(), r.remaining(), r.resetMillis(), r.retryAfterMillis())).toList());
        checkTimesToLive(specs, models, taking, replies, what);
    }

    /**
     * The shipped script's command, run inside a script that then reads each key's time to live and makes the key
     * persistent (the model expires it), and says how long it ran: Redis's clock runs on during a script, so a time
     * to live read after a long script is that much shorter.
     */
    private static String[] withTimesToLive(String[] command) {
        String[] wrapped = command.clone();
        wrapped[1] = "local function shipped()\n" + command[1] + "\nend\n" + """
                local started = redis.call('TIME')
                local reply = shipped()
                local ttls = {}
                for i = 1, #KEYS do
                  ttls[i] = redis.call('PTTL', KEYS[i])
                  redis.call('PERSIST', KEYS[i])
                end
                local ended = redis.call('TIME')
                return { reply, ttls, (ended[1] - started[1]) * 1000000 + ended[2] - started[2] }
                """;
        return wrapped;
    }

    private static void checkTimesToLive(List<Spec> specs, List<LimitModel> models, List<Integer> taking,
            List<Object> replies, String at) {
        @SuppressWarnings("unchecked")
        List<Long> timesToLive = (List<Long>) replies.get(1);
        // the milliseconds that may have turned between the write and PTTL
        long ran = (Long) replies.get(2) / 1000 + 1;
        for (int n = 0; n < taking.size(); n++) {
            int i = taking.get(n);
            long expected = models.get(i).ttlAfterLastOperation();
            long actual = timesToLive.get(n);
            if (actual == LimitModel.ABSENT && expected > 0 && expected <= ran) {
                models.get(i).expire(Long.MAX_VALUE); // it expired on Redis's clock while the script ran
                continue;
            }
            assertThat(actual).as(at + ": time to live of limit " + i + " " + specs.get(i))
                    .isBetween(expected > 0 ? Math.max(0, expected - ran) : expected, expected);
        }
    }

    private static List<Integer> taking(List<Long> costs) {
        List<Integer> taking = new ArrayList<>();
        for (int i = 0; i < costs.size(); i++) {
            if (costs.get(i) >= 0) {
                taking.add(i);
            }
        }
        return taking;
    }

    private static Limit[] limits(List<Spec> specs, String prefix, List<Long> costs, List<Integer> taking) {
        return taking.stream().map(i -> {
            Spec spec = specs.get(i);
            return new Limit(prefix + i, spec.algorithm(), spec.limit(), costs.get(i), spec.burst(),
                    spec.windowMillis());
        }).toArray(Limit[]::new);
    }

    private static String describe(List<Spec> specs, List<Integer> taking) {
        return taking.stream().map(specs::get).toList().toString();
    }
}
