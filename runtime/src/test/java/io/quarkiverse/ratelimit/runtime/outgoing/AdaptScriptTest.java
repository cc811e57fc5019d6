package io.quarkiverse.ratelimit.runtime.outgoing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.redis.LuaScript;

/**
 * lua/adapt.lua, an adaptive limit lowered by its upstream's 429, against a real redis-server, and the Java copy of its
 * growth formula ({@link LearnedLimit}) against the script's. The script takes the time from Redis: a test writes a
 * field whose decrease lies the wanted time in the past of Redis's clock.
 */
class AdaptScriptTest {

    static final LocalRedisServer server = LocalRedisServer.start();
    static final RespConnection redis = server.connect();
    static final String SOURCE = LuaScript.load("adapt.lua").source();
    static final String HASH = "al:{~learned-limits}";

    /** Configured 50 a second; factor 0.9; interval 5 s; first step 1 (0.02 of 50); longest hold 40 s. */
    static final long LIMIT = 50;
    static final long INTERVAL_MS = 5000;
    static final double STEP = 1;
    static final long LONGEST_HOLD_MS = 40_000;

    @AfterAll
    static void stop() {
        redis.close();
        server.close();
    }

    /** A 429 to a call decided now. */
    static LearnedLimit refused(String key) {
        return refused(key, redisMillis());
    }

    static LearnedLimit refused(String key, long decidedAtMillis) {
        Object state = redis.command("EVAL", SOURCE + "\nreturn adapt(KEYS, ARGV)", "1", HASH, key,
                Long.toString(LIMIT), Long.toString(decidedAtMillis), "0.9", Long.toString(INTERVAL_MS), "1",
                Long.toString(LONGEST_HOLD_MS), "");
        return LearnedLimit.parse(state.toString());
    }

    @SuppressWarnings("unchecked")
    static long redisMillis() {
        List<Object> time = (List<Object>) redis.command("TIME");
        return Long.parseLong(time.get(0).toString()) * 1000 + Long.parseLong(time.get(1).toString()) / 1000;
    }

    /**
     * A field lowered to {@code base} {@code agoMillis} before Redis's now, holding for {@code holdMillis}, after a
     * 429 at {@code ceiling}.
     */
    static void learnedEarlier(String key, double base, long agoMillis, long holdMillis, double ceiling) {
        redis.command("HSET", HASH, key,
                String.format("%.3f %d %d %.3f", base, redisMillis() - agoMillis, holdMillis, ceiling));
    }

    @Test
    void aFirst429LowersTheConfiguredLimitByTheFactorAndHoldsForOneInterval() {
        LearnedLimit learned = refused("al:first");
        assertThat(learned.base()).isEqualTo(45.0);
        assertThat(learned.ceiling()).as("where the upstream refused").isEqualTo(50.0);
        assertThat(learned.holdMillis()).isEqualTo(INTERVAL_MS);
        assertThat(learned.sinceMillis()).isCloseTo(redisMillis(), within(1000L));
        assertThat((Long) redis.command("PTTL", HASH)).as("the hash lives as long as a field can lower a limit")
                .isBetween(LONGEST_HOLD_MS, LONGEST_HOLD_MS + 100 * INTERVAL_MS);
    }

    @Test
    void a429ToACallDecidedBeforeTheLastDecreaseIsTheSameRefusal() {
        long decided = redisMillis() - 1;
        LearnedLimit first = refused("al:same", decided);
        assertThat(refused("al:same", decided)).as("a call in flight or queued when the upstream began refusing")
                .isEqualTo(first);
        assertThat(refused("al:same", first.sinceMillis()).base()).as("a call decided after the decrease")
                .isEqualTo(40.5);
    }

    @Test
    void a429WhileTheLimitHoldsLowersItAgainWithTheSameHold() {
        learnedEarlier("al:holding", 40, 2000, INTERVAL_MS, 45);
        LearnedLimit learned = refused("al:holding");
        assertThat(learned.base()).isEqualTo(36.0);
        assertThat(learned.ceiling()).isEqualTo(40.0);
        assertThat(learned.holdMillis()).isEqualTo(INTERVAL_MS);
    }

    @Test
    void a429OnceTheLimitGrowsDoublesTheHoldUpToTheLongest() {
        learnedEarlier("al:probe", 40, 6000, INTERVAL_MS, 42); // grew for 1 s: one step, 41
        LearnedLimit learned = refused("al:probe");
        assertThat(learned.base()).isEqualTo(36.9);
        assertThat(learned.ceiling()).isEqualTo(41.0);
        assertThat(learned.holdMillis()).isEqualTo(2 * INTERVAL_MS);

        learnedEarlier("al:longest", 40, 31_000, 30_000, 42);
        assertThat(refused("al:longest").holdMillis()).isEqualTo(LONGEST_HOLD_MS);
    }

    @Test
    void a429AfterGrowingLongerThanTheLongestHoldStartsTheHoldAgainFromTheGrownLimit() {
        learnedEarlier("al:later", 30, 10_000 + 41_000, 10_000, 32); // grew for 41 s: two steps to 32, then doubling
        LearnedLimit learned = refused("al:later");
        assertThat(learned.ceiling()).as("grown back to the configured limit").isEqualTo(50.0);
        assertThat(learned.base()).isEqualTo(45.0);
        assertThat(learned.holdMillis()).isEqualTo(INTERVAL_MS);

        learnedEarlier("al:sooner", 30, 26_000, 10_000, 32); // grew for 16 s: two steps to 32, then 1 and 2 more
        LearnedLimit sooner = refused("al:sooner");
        assertThat(sooner.ceiling()).isEqualTo(35.0);
        assertThat(sooner.base()).isEqualTo(31.5);
        assertThat(sooner.holdMillis()).as("within the longest hold of growing: doubled").isEqualTo(20_000L);
    }

    @Test
    void a429ToACallThatWaitedLowersTheLimitItWasDecidedWithNotTheOneItGrewTo() {
        // grew for 16 s by now (35: two steps to 32, then 1 and 2 more); for 6 s when the call was decided (32)
        learnedEarlier("al:waited", 30, 26_000, 10_000, 32);
        LearnedLimit learned = refused("al:waited", redisMillis() - 10_000);
        assertThat(learned.ceiling()).as("the limit the call went at").isEqualTo(32.0);
        assertThat(learned.base()).isEqualTo(28.8);
        assertThat(learned.holdMillis()).as("it was growing then: doubled").isEqualTo(20_000L);
        assertThat(learned.sinceMillis()).as("lowered now").isCloseTo(redisMillis(), within(1000L));
    }

    @Test
    void aCallDecidedByAClockAheadOfRedissCountsAsDecidedNow() {
        learnedEarlier("al:ahead", 30, 26_000, 10_000, 32);
        assertThat(refused("al:ahead", redisMillis() + 60_000).ceiling()).isEqualTo(35.0);
    }

    @Test
    void theLimitNeverFallsBelowOne() {
        learnedEarlier("al:floor", 1, 2000, INTERVAL_MS, 2);
        assertThat(refused("al:floor").base()).isEqualTo(1.0);
    }

    @Test
    void aFieldThatCanNoLongerLowerALimitIsDeletedByTheNextCall() {
        learnedEarlier("al:old", 10, INTERVAL_MS + 100 * INTERVAL_MS + 1000, INTERVAL_MS, 12);
        learnedEarlier("al:recent", 10, 60_000, INTERVAL_MS, 12);
        refused("al:other");
        assertThat(redis.command("HEXISTS", HASH, "al:old")).isEqualTo(0L);
        assertThat(redis.command("HEXISTS", HASH, "al:recent")).isEqualTo(1L);
    }

    @Test
    void theJavaFormulaIsTheScripts() {
        String formula = SOURCE + "\nreturn tostring(learned_at(tonumber(ARGV[1]), tonumber(ARGV[2]),"
                + " tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]),"
                + " tonumber(ARGV[8])))";
        long since = 1_000_000;
        for (double base : new double[] { 1, 7.3, 29.5, 45 }) {
            for (double ceiling : new double[] { base, base + 0.5, 33, 50 }) {
                for (long hold : new long[] { 1000, 5000, 40_000 }) {
                    for (long elapsed = 0; elapsed <= 400_000; elapsed += 1700) {
                        LearnedLimit learned = new LearnedLimit(base, since, hold, ceiling);
                        String script = redis.command("EVAL", formula, "0", Double.toString(base),
                                Long.toString(since), Long.toString(hold), Double.toString(ceiling),
                                Long.toString(since + elapsed), Long.toString(LIMIT), Long.toString(INTERVAL_MS),
                                Double.toString(STEP)).toString();
                        long scripts = Math.max(1, Math.min(LIMIT, (long) Math.floor(Double.parseDouble(script))));
                        assertThat(learned.limitAt(since + elapsed, LIMIT, INTERVAL_MS, STEP))
                                .as("base %s, ceiling %s, hold %d, %d ms later", base, ceiling, hold, elapsed)
                                .isEqualTo(scripts);
                    }
                }
            }
        }
    }
}
