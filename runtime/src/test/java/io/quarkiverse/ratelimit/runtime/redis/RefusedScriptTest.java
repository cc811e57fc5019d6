package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;

/**
 * {@code lua/refused.lua} and {@code lua/refused_most.lua} on a real Redis: the instances' reports add up per caller, the
 * most refused read first; a minute's tally holds at most its capacity whatever the number of callers refused, keeps
 * the heavy ones with never less than their refusals, and expires with its hour.
 */
class RefusedScriptTest {

    static final LocalRedisServer server = LocalRedisServer.start();
    static final RespConnection redis = server.connect();
    static final RateLimitScripts scripts = new RateLimitScripts();
    static final int CAPACITY = 1_000;

    @AfterAll
    static void stop() {
        redis.close();
        server.close();
    }

    /** A ring of its own for each test: the tallies of one never count in another's. */
    static List<String> ring() {
        String prefix = "refused-" + UUID.randomUUID();
        List<String> ring = new ArrayList<>();
        for (int minute = 0; minute < 60; minute++) {
            ring.add(prefix + ":{~refused}:" + minute);
        }
        return ring;
    }

    static long report(List<String> ring, Object... callersAndCounts) {
        List<String> command = new ArrayList<>(List.of("EVAL", scripts.refused().source(), "60"));
        command.addAll(ring);
        command.add(Integer.toString(CAPACITY));
        for (Object each : callersAndCounts) {
            command.add(each.toString());
        }
        return (Long) redis.command(command.toArray(String[]::new));
    }

    @SuppressWarnings("unchecked")
    static List<Object> most(List<String> ring, int minutes, int top) {
        List<String> command = new ArrayList<>(List.of("EVAL", scripts.refusedMost().source(), "60"));
        command.addAll(ring);
        command.add(Integer.toString(minutes));
        command.add(Integer.toString(top));
        return (List<Object>) redis.command(command.toArray(String[]::new));
    }

    @Test
    void reportsAddUpAndTheMostRefusedComeFirst() {
        List<String> ring = ring();
        report(ring, "t:acme", 20, "a:203.0.113.7", 5, "t:tiny", 3);
        report(ring, "t:acme", 10, "t:tiny", 12); // another instance's report
        assertThat(most(ring, 5, 10)).containsExactly("t:acme", 30L, "t:tiny", 15L, "a:203.0.113.7", 5L);
        assertThat(most(ring, 5, 2)).as("the top two").containsExactly("t:acme", 30L, "t:tiny", 15L);
        assertThat(most(ring(), 60, 10)).as("nothing reported").isEmpty();
    }

    @Test
    void aHundredThousandCallersFitInAMinutesCapacityAndTheHeavyOnesStay() {
        List<String> ring = ring();
        long memoryBefore = usedMemory();
        for (int batch = 0; batch < 100; batch++) {
            List<Object> report = new ArrayList<>(List.of("t:flood-a", 50, "t:flood-b", 30));
            for (int i = 0; i < 1_000; i++) {
                report.add("a:10." + batch + "." + (i / 250) + "." + (i % 250));
                report.add(1);
            }
            report(ring, report.toArray());
        }
        long held = 0;
        for (String key : ring) {
            long callers = (Long) redis.command("ZCARD", key);
            assertThat(callers).as("callers in one minute's tally").isLessThanOrEqualTo(CAPACITY);
            held += callers;
        }
        assertThat(held).as("a minute, or two when the test crossed a minute").isLessThanOrEqualTo(2L * CAPACITY);
        assertThat(usedMemory() - memoryBefore).as("Redis memory for 100,000 refused callers (bytes)")
                .isLessThan(1_000_000);
        List<Object> top = most(ring, 5, 2);
        assertThat(top.get(0)).isEqualTo("t:flood-a");
        assertThat((Long) top.get(1)).as("never less than its refusals").isGreaterThanOrEqualTo(5_000L);
        assertThat(top.get(2)).isEqualTo("t:flood-b");
        assertThat((Long) top.get(3)).isGreaterThanOrEqualTo(3_000L);
    }

    @Test
    void aMinutesTallyExpiresWithItsHour() {
        List<String> ring = ring();
        long minute = report(ring, "t:acme", 1);
        long ttl = (Long) redis.command("TTL", ring.get((int) (minute % 60)));
        assertThat(ttl).as("seconds until the minute is an hour old").isBetween(3_540L, 3_600L);
    }

    private static long usedMemory() {
        String info = redis.command("INFO", "memory").toString();
        int at = info.indexOf("used_memory:") + "used_memory:".length();
        return Long.parseLong(info.substring(at, info.indexOf('\r', at)).trim());
    }
}
