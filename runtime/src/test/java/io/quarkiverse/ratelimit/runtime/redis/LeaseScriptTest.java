package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.runtime.limit.AlgorithmSet;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Limit;

/**
 * {@code lua/lease.lua} on a real Redis, for every algorithm that leases: a slice counts in the limit at once, so
 * decisions and slices together never pass the limit; a slice is at most the share of what is left and none is taken
 * when the share is empty, and near the limit the slices out are recalled; what is given back counts in the lease's
 * window only, and nothing after a reset; a bucket is kept from refilling into its slice, and takes back unused units
 * only while the lease lasts.
 */
class LeaseScriptTest {

    @RegisterExtension
    static final ScriptHarnesses harnesses = new ScriptHarnesses();
    static final long NOW = WINDOW_START_US + 100_000;

    final String key = "rate-limit:{" + UUID.randomUUID() + "}:leased";

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "CALENDAR_WINDOW" })
    void aSliceCountsAtOnceSoDecisionsAndSlicesNeverPassTheLimit(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        List<Long> leased = take(script, algorithm, 100, "a", 0, 30, 2);
        assertThat(leased.subList(0, 2)).as("admitted, 100 - 1 - 30 left").containsExactly(1L, 69L);
        assertThat(leased.get(4)).as("the slice").isEqualTo(30);
        assertThat(leased.get(5)).as("the lease lasts, at most the longest lease").isBetween(1L, 1_000L);
        List<Long> second = take(script, algorithm, 100, "b", 0, 60, 2);
        assertThat(second.get(4)).as("at most what is left after the call over the share: 68 / 2").isEqualTo(34);
        assertThat(script.admitUntilRefused(key, 100, NOW)).as("what no slice holds").isEqualTo(100 - 2 - 30 - 34);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "CALENDAR_WINDOW" })
    void nearTheLimitNoSliceIsTakenAndTheCallIsDecidedAsWithoutALease(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        script.admitUntilRefused(key, 5, NOW);
        assertThat(take(script, algorithm, 5, "a", 0, 10, 2)).as("refused, no slice").startsWith(0L, 0L)
                .endsWith(0L, 0L);
        String other = key + "-other";
        assertThat(take(script, algorithm, 5, other, "a", 0, 10, 16))
                .as("admitted; 4 left over a share of 16 leases nothing").startsWith(1L, 4L).endsWith(0L, 0L);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "CALENDAR_WINDOW" })
    void nearTheLimitTheSlicesOutAreRecalledUntilTheirLeasesAreGivenBack(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        // a leases 40 of 100 (share 1); b, with a smallest slice of 30 and a share of 2, finds 58 left after its
        // call: 29 each, too little to lease, so near the limit, where a's slice is called back
        assertThat(take(script, algorithm, 100, key, "a", 0, 40, 1, 1, "").get(4)).isEqualTo(40);
        long published = publishes(script);
        assertThat(take(script, algorithm, 100, key, "b", 0, 40, 30, 2, "invalidations"))
                .as("no slice; a's 40 held elsewhere, recalled").startsWith(1L, 58L).endsWith(0L, 0L, 40L);
        assertThat(publishes(script) - published).as("the recall").isEqualTo(1);

        // a gives its slice back, spent: nothing comes back, and no lease is left out to recall
        assertThat(giveBack(script, algorithm, 100, "a", 0)).isZero();
        published = publishes(script);
        assertThat(take(script, algorithm, 100, key, "b", 0, 40, 30, 2, "invalidations")).startsWith(1L, 57L)
                .endsWith(0L, 0L, 0L);
        assertThat(publishes(script) - published).as("nothing out: no recall").isZero();
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "CALENDAR_WINDOW" })
    void aRecallCountsWhatTheOtherInstancesLiveSlicesHoldAndCallsThemBack(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        assertThat(take(script, algorithm, 100, key, "a", 0, 20, 1, 4, "").get(4)).isEqualTo(20);
        assertThat(take(script, algorithm, 100, key, "b", 0, 10, 1, 4, "").get(4)).isEqualTo(10);
        long published = publishes(script);
        assertThat(recall(script, algorithm, 100, "c")).as("a's and b's slices").isEqualTo(30);
        assertThat(recall(script, algorithm, 100, "a")).as("b's, not its own").isEqualTo(10);
        assertThat(publishes(script) - published).as("each recall announced").isEqualTo(2);

        assertThat(giveBack(script, algorithm, 100, "a", 0)).isZero();
        assertThat(giveBack(script, algorithm, 100, "b", 0)).isZero();
        published = publishes(script);
        assertThat(recall(script, algorithm, 100, "c")).as("nothing out").isZero();
        assertThat(publishes(script) - published).as("nothing to recall, nothing announced").isZero();
        assertThat(script.admitUntilRefused(key, 100, NOW)).as("the recall counted nothing").isEqualTo(100 - 2 - 30);
    }

    /**
     * A lease that ended by its holder's clock stays in its slice until the holder sweeps it, up to a lease later: a
     * recall still brings its units back while they count (its window lasts), until a lease after its end.
     */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "CALENDAR_WINDOW" })
    void aLeaseThatEndedIsRecalledUntilItsHolderSweptIt(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        assertThat(takeLeaseOf(script, new Limit(key, algorithm, 100, 1), 30, 200, NOW).get(5)).as("a lease of 200 ms")
                .isEqualTo(200L);
        assertThat(recallAt(script, algorithm, 100, "b", NOW + 300_000, 200)).as("ended 100 ms ago: still recalled")
                .isEqualTo(30);
        assertThat(recallAt(script, algorithm, 100, "b", NOW + 500_000, 200)).as("ended a lease ago: its holder swept")
                .isZero();
        assertThat(giveBackAt(script, algorithm, 100, key, "a", 30, NOW + 500_000)).as("its window lasts")
                .isEqualTo(30);
    }

    private long recall(ScriptHarness script, Algorithm algorithm, long limit, String instance) {
        return recallAt(script, algorithm, limit, instance, NOW, 1_000);
    }

    private long recallAt(ScriptHarness script, Algorithm algorithm, long limit, String instance, long nowMicros,
            long leaseMillis) {
        LimitDefinition definition = ScriptHarness.definitions(new Limit(key, algorithm, limit, 1)).get(0);
        List<String> command = command(definition, key);
        command.addAll(ScriptArguments.recallLeases(Long.toString(nowMicros), definition, instance, leaseMillis,
                "invalidations"));
        return (Long) script.redis(command.toArray(String[]::new));
    }

    /** The PUBLISH commands Redis ran since it started. */
    private static long publishes(ScriptHarness script) {
        String stats = (String) script.redis("INFO", "commandstats");
        Matcher calls = Pattern.compile("cmdstat_publish:calls=(\\d+)").matcher(stats);
        return calls.find() ? Long.parseLong(calls.group(1)) : 0;
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "CALENDAR_WINDOW" })
    void whatIsGivenBackCountsOnceInTheLeasesWindowAndNotAfterAReset(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        take(script, algorithm, 100, "a", 0, 40, 2);
        assertThat(giveBack(script, algorithm, 100, "a", 25)).isEqualTo(25);
        assertThat(giveBack(script, algorithm, 100, "a", 25)).as("given back once").isZero();
        assertThat(script.admitUntilRefused(key, 100, NOW)).as("1 decided, 15 of the slice spent")
                .isEqualTo(100 - 1 - 15);

        String reset = key + "-reset";
        take(script, algorithm, 100, reset, "a", 0, 40, 2);
        script.redis("EVAL", new RateLimitScripts().reset().source(), "1", reset, "");
        assertThat(script.redis("EXISTS", reset + ":leases")).isEqualTo(0L);
        assertThat(giveBack(script, algorithm, 100, reset, "a", 40)).as("nothing to give back into").isZero();
        assertThat(script.admitUntilRefused(reset, 100, NOW)).isEqualTo(100);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER" })
    void aSliceGivenBackAfterItsWindowGivesNothingToTheNextOne(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        take(script, algorithm, 100, "a", 0, 40, 2);
        long nextWindow = NOW + ScriptHarness.WINDOW_MS * 1000;
        script.call(key, 100, 1, nextWindow);
        assertThat(giveBackAt(script, algorithm, 100, key, "a", 40, nextWindow)).isZero();
        int admitted = 1;
        while (script.callKeepingTheKey(key, 100, 1, nextWindow).allowed()) {
            admitted++;
        }
        assertThat(admitted).as("the next window, whatever the last one left in a slice")
                .isLessThanOrEqualTo(100);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "CALENDAR_WINDOW" })
    void aNewLeaseFirstTakesBackWhatThePreviousOneLeftUnused(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        take(script, algorithm, 100, "a", 0, 40, 2);
        List<Long> renewed = take(script, algorithm, 100, "a", 30, 10, 2);
        assertThat(renewed.subList(0, 2)).as("30 back: 100 - 1 - 10 (spent) - 1 - 10 (new slice)")
                .containsExactly(1L, 78L);
        assertThat(script.redis("HGET", key + ":leases", "a")).asString().startsWith("10 ");
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "CALENDAR_WINDOW" })
    void aGiveBackNamingAnEarlierLeaseLeavesTheLaterOneAlone(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        LimitDefinition definition = ScriptHarness.definitions(new Limit(key, algorithm, 100, 1)).get(0);
        List<String> first = command(definition, key);
        first.addAll(ScriptArguments.takeLease(Long.toString(NOW), definition, "a", "", 0, "1", 40, 1, 2, 1_000, ""));
        script.redis(first.toArray(String[]::new));
        List<String> second = command(definition, key);
        second.addAll(ScriptArguments.takeLease(Long.toString(NOW), definition, "a", "1", 0, "2", 20, 1, 2, 1_000, ""));
        script.redis(second.toArray(String[]::new));
        List<String> late = command(definition, key);
        late.addAll(ScriptArguments.returnLease(Long.toString(NOW), definition, "a", "1", 40, ""));
        assertThat(script.redis(late.toArray(String[]::new))).as("lease 1's give-back, arrived after lease 2")
                .isEqualTo(0L);
        assertThat(script.admitUntilRefused(key, 100, NOW)).as("lease 1's 40 lost, lease 2's 20 held")
                .isEqualTo(100 - 2 - 40 - 20);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "TOKEN_BUCKET", "GCRA" })
    void aFullBucketIsKeptFromRefillingIntoItsSliceSoBucketAndSliceNeverHoldMoreThanTheBurst(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        // 100 a second (one every 10 ms), a burst of 100, leases of 250 ms, which refill 25: while the slice is out,
        // the bucket may refill to 60 at most, the burst less the slice
        List<Long> leased = takeBucketLease(script, algorithm, key, 40, NOW);
        assertThat(leased.subList(0, 2)).as("admitted; 100 - 40 - 25 left now").containsExactly(1L, 35L);
        assertThat(leased.subList(4, 6)).as("the slice and its lease").containsExactly(40L, 250L);

        long beforeTheLeaseEnds = NOW + 249_000;
        int fromRedis = 0;
        while (script.callKeepingTheKey(key, 100, 1, beforeTheLeaseEnds).allowed()) {
            fromRedis++;
        }
        assertThat(fromRedis + 40L).as("the bucket (refilled 24.9 since) and the unspent slice together")
                .isLessThanOrEqualTo(100);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "TOKEN_BUCKET", "GCRA" })
    void aDrainedBucketsLeaseCostsNothingButTheSlice(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        for (int i = 0; i < 80; i++) {
            assertThat(script.callKeepingTheKey(key, 100, 1, NOW).allowed()).isTrue();
        }
        // 20 left: the lease's 250 ms refill 25, to 34 at most, far below 90 (the burst less the slice): nothing to pay
        List<Long> leased = takeBucketLease(script, algorithm, key, 10, NOW);
        assertThat(leased.subList(0, 2)).as("admitted; 100 - 80 - 1 - 10 left").containsExactly(1L, 9L);
        assertThat(leased.get(4)).as("the slice").isEqualTo(10L);
        assertThat(giveBackAt(script, algorithm, 100, key, "a", 10, NOW + 100_000)).isEqualTo(10);
        assertThat(script.admitUntilRefused(key, 100, NOW + 100_000)).as("19 left and 10 refilled")
                .isEqualTo(29);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = { "TOKEN_BUCKET", "GCRA" })
    void aBucketsUnusedUnitsComeBackEvenAfterTheLeaseNeverBeyondItsBurst(Algorithm algorithm) {
        ScriptHarness script = harnesses.of(algorithm);
        takeBucketLease(script, algorithm, key, 40, NOW);
        assertThat(giveBackAt(script, algorithm, 100, key, "a", 40, NOW + 100_000)).isEqualTo(40);

        // drained to 10 (89 calls, then the call and the slice of 20 the lease takes: 69 after the lease's floor)
        String late = key + "-late";
        for (int i = 0; i < 70; i++) {
            script.callKeepingTheKey(late, 100, 1, NOW);
        }
        takeBucketLease(script, algorithm, late, 20, NOW);
        assertThat(giveBackAt(script, algorithm, 100, late, "a", 20, NOW + 300_000))
                .as("after the lease: the units were never admitted").isEqualTo(20);
        assertThat(script.admitUntilRefused(late, 100, NOW + 300_000)).as("9 left, 20 back, 30 refilled: no more")
                .isEqualTo(59);

        String full = key + "-full";
        takeBucketLease(script, algorithm, full, 40, NOW);
        giveBackAt(script, algorithm, 100, full, "a", 40, NOW + 2_000_000);
        assertThat(script.admitUntilRefused(full, 100, NOW + 2_000_000)).as("full again: never beyond the burst")
                .isEqualTo(100);
    }

    /** A lease of a bucket of 100 a second (burst 100) for 250 ms, taken by instance "a" at {@code nowMicros}. */
    private static List<Long> takeBucketLease(ScriptHarness script, Algorithm algorithm, String key, long wanted,
            long nowMicros) {
        return takeLeaseOf(script, new Limit(key, algorithm, 100, 1), wanted, 250, nowMicros);
    }

    /** A lease of {@code limit} for at most {@code leaseMillis}, taken by instance "a" at {@code nowMicros}. */
    @SuppressWarnings("unchecked")
    private static List<Long> takeLeaseOf(ScriptHarness script, Limit limit, long wanted, long leaseMillis,
            long nowMicros) {
        LimitDefinition definition = ScriptHarness.definitions(limit).get(0);
        List<String> command = command(definition, limit.key());
        command.addAll(ScriptArguments.takeLease(Long.toString(nowMicros), definition, "a", "", 0, "a-previous",
                wanted, 1, 1, leaseMillis, ""));
        return (List<Long>) script.redis(command.toArray(String[]::new));
    }

    private List<Long> take(ScriptHarness script, Algorithm algorithm, long limit, String instance, long unused,
            long wanted, long share) {
        return take(script, algorithm, limit, key, instance, unused, wanted, share);
    }

    private static List<Long> take(ScriptHarness script, Algorithm algorithm, long limit, String key,
            String instance, long unused, long wanted, long share) {
        return take(script, algorithm, limit, key, instance, unused, wanted, 1, share, "");
    }

    @SuppressWarnings("unchecked")
    private static List<Long> take(ScriptHarness script, Algorithm algorithm, long limit, String key,
            String instance, long unused, long wanted, long minSlice, long share, String channel) {
        LimitDefinition definition = ScriptHarness.definitions(new Limit(key, algorithm, limit, 1)).get(0);
        List<String> command = command(definition, key);
        // each lease named after the instance and the slice wanted; the one given back, after the unused units
        command.addAll(ScriptArguments.takeLease(Long.toString(NOW), definition, instance, instance + "-previous",
                unused, instance + "-previous", wanted, minSlice, share, 1_000, channel));
        return (List<Long>) script.redis(command.toArray(String[]::new));
    }

    private long giveBack(ScriptHarness script, Algorithm algorithm, long limit, String instance, long unused) {
        return giveBack(script, algorithm, limit, key, instance, unused);
    }

    private static long giveBack(ScriptHarness script, Algorithm algorithm, long limit, String key, String instance,
            long unused) {
        return giveBackAt(script, algorithm, limit, key, instance, unused, NOW);
    }

    private static long giveBackAt(ScriptHarness script, Algorithm algorithm, long limit, String key, String instance,
            long unused, long nowMicros) {
        LimitDefinition definition = ScriptHarness.definitions(new Limit(key, algorithm, limit, 1)).get(0);
        List<String> command = command(definition, key);
        command.addAll(ScriptArguments.returnLease(Long.toString(nowMicros), definition, instance,
                instance + "-previous", unused, ""));
        return (Long) script.redis(command.toArray(String[]::new));
    }

    private static List<String> command(LimitDefinition definition, String key) {
        String source = new RateLimitScripts().lease(AlgorithmSet.of(List.of(definition))).source();
        return new ArrayList<>(List.of("EVAL", source, "2", key, key + ":leases"));
    }
}
