package io.quarkiverse.ratelimit.deployment;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.Awaitility;

import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;

/**
 * What Redis itself counted: proof that a call did, or did not, cost Redis a command. An application that counts with
 * it sets {@code quarkus.rate-limit.fleet.heartbeat} to {@link #QUIET_HEARTBEAT}: the instance then announces itself
 * to the fleet (a function call) once, at start-up, which every count here waits for, and never among what is counted.
 */
public final class RedisCommandStats {

    /** A heartbeat that never beats while a test runs. */
    public static final String QUIET_HEARTBEAT = "1h";

    private RedisCommandStats() {
    }

    /** Waits until the application announced itself to the fleet ({@code lua/fleet.lua}), as it does at start-up. */
    private static void awaitAnnounced(Redis redis) {
        Awaitility.await("the instance's announcement at start-up").atMost(Duration.ofSeconds(10))
                .until(() -> redis.send(Request.cmd(Command.EXISTS).arg("rate-limit:{~fleet}")).await().indefinitely()
                        .toInteger() == 1);
    }

    /** How often Redis ran {@code command} (lower case, as INFO commandstats names it) since it started. */
    public static long calls(Redis redis, String command) {
        awaitAnnounced(redis);
        String stats = redis.send(Request.cmd(Command.INFO).arg("commandstats")).await().indefinitely().toString();
        Matcher matcher = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(stats);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    /** Script and function calls Redis has run since it started (FCALL, EVALSHA and EVAL), from INFO commandstats. */
    public static long scriptCalls(Redis redis) {
        awaitAnnounced(redis);
        String stats = redis.send(Request.cmd(Command.INFO).arg("commandstats")).await().indefinitely().toString();
        long calls = 0;
        Matcher matcher = Pattern.compile("cmdstat_(fcall|evalsha|eval):calls=(\\d+)").matcher(stats);
        while (matcher.find()) {
            calls += Long.parseLong(matcher.group(2));
        }
        return calls;
    }
}
