package io.quarkiverse.ratelimit.deployment;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;

/** What Redis itself counted: proof that a call did, or did not, cost Redis a command. */
public final class RedisCommandStats {

    private RedisCommandStats() {
    }

    /** How often Redis ran {@code command} (lower case, as INFO commandstats names it) since it started. */
    public static long calls(Redis redis, String command) {
        String stats = redis.send(Request.cmd(Command.INFO).arg("commandstats")).await().indefinitely().toString();
        Matcher matcher = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(stats);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    /** Script and function calls Redis has run since it started (FCALL, EVALSHA and EVAL), from INFO commandstats. */
    public static long scriptCalls(Redis redis) {
        String stats = redis.send(Request.cmd(Command.INFO).arg("commandstats")).await().indefinitely().toString();
        long calls = 0;
        Matcher matcher = Pattern.compile("cmdstat_(fcall|evalsha|eval):calls=(\\d+)").matcher(stats);
        while (matcher.find()) {
            calls += Long.parseLong(matcher.group(2));
        }
        return calls;
    }
}
