package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Placing Redis's decisions in this instance's clock: from the fastest reply heard lately, never before a request left
 * nor after its reply was read, each node by itself. The instants are given (nanoseconds here, microseconds of Redis's
 * clock), so each case is exact.
 */
class RedisClockReadingsTest {

    /** A node's clock ahead of this instance's by some arbitrary amount, in microseconds. */
    static final long REDIS_AHEAD_US = 1_700_000_000_000_000L;
    static final long MS = 1_000_000;

    final RedisClockReadings clocks = new RedisClockReadings(new Topology());

    @Test
    void theFirstReplySaysOnlyThatRedisDecidedBeforeItWasRead() {
        assertThat(clocks.decidedAtNanos("a", 0, 2 * MS, redisMicros(1 * MS))).isEqualTo(2 * MS);
    }

    @Test
    void aReplyReadLateIsPlacedByTheFastestReplyHeard() {
        long t = 10_000 * MS;
        // a fast reply: read 100 us after Redis decided
        clocks.decidedAtNanos("a", t, t + 200_000, redisMicros(t + 100_000));
        // Redis decided 100 us after the request left, but its reply was read 300 ms later (a busy event loop)
        long decided = redisMicros(t + 50 * MS + 100_000);
        assertThat(clocks.decidedAtNanos("a", t + 50 * MS, t + 350 * MS, decided))
                .as("placed 100 us after Redis decided, as the fast reply was read").isEqualTo(t + 50 * MS + 200_000);
    }

    @Test
    void neverBeforeTheRequestLeft() {
        long t = 20_000 * MS;
        clocks.decidedAtNanos("a", t, t + 10 * MS, redisMicros(t + 5 * MS)); // this instance's clock 5 ms ahead of the estimate
        assertThat(clocks.decidedAtNanos("a", t + 100 * MS, t + 100 * MS + 2 * MS, redisMicros(t + 100 * MS - 20 * MS)))
                .as("a reply whose bound its round trip contradicts starts again: placed when read")
                .isEqualTo(t + 102 * MS);
        long sent = t + 200 * MS;
        assertThat(clocks.decidedAtNanos("a", sent, sent + 3 * MS, redisMicros(sent - 1 * MS)))
                .as("never before its request left").isGreaterThanOrEqualTo(sent);
    }

    @Test
    void aSteppedRedisClockStartsTheEstimateAgain() {
        long t = 30_000 * MS;
        clocks.decidedAtNanos("a", t, t + 200_000, redisMicros(t + 100_000));
        // Redis's clock stepped back 1 s: its replies now look a second late, more than their round trip allows
        long stepped = redisMicros(t + 10 * MS + 100_000 - 1000 * MS);
        assertThat(clocks.decidedAtNanos("a", t + 10 * MS, t + 10 * MS + 200_000, stepped)).isEqualTo(t + 10 * MS + 200_000);
        long next = redisMicros(t + 20 * MS + 100_000 - 1000 * MS);
        assertThat(clocks.decidedAtNanos("a", t + 20 * MS, t + 20 * MS + 5 * MS, next))
                .as("placed by the stepped clock's estimate").isEqualTo(t + 20 * MS + 200_000);
    }

    @Test
    void boundsOlderThanTwoPeriodsAreForgotten() {
        long t = 40_000 * MS;
        clocks.decidedAtNanos("a", t, t + 100_000, redisMicros(t + 50_000));
        long later = t + 5_000 * MS;
        assertThat(clocks.decidedAtNanos("a", later, later + 3 * MS, redisMicros(later + 1 * MS)))
                .as("nothing heard for 5 s: placed when read").isEqualTo(later + 3 * MS);
    }

    @Test
    void eachMasterOfAClusterHasItsOwnClock() {
        long t = 50_000 * MS;
        clocks.decidedAtNanos("a", t, t + 100_000, redisMicros(t + 50_000));
        // node b's clock is 2 ms behind node a's: placed by its own replies, not a's
        assertThat(clocks.decidedAtNanos("b", t, t + 3 * MS, redisMicros(t + 1 * MS - 2 * MS))).isEqualTo(t + 3 * MS);
    }

    private static long redisMicros(long localNanos) {
        return REDIS_AHEAD_US + localNanos / 1000;
    }

    /** Keys named after their node. */
    private static final class Topology implements RedisTopology {
        @Override
        public boolean cluster() {
            return true;
        }

        @Override
        public String nodeOf(String key) {
            return key;
        }

        @Override
        public boolean decides(String node) {
            return true;
        }
    }
}
