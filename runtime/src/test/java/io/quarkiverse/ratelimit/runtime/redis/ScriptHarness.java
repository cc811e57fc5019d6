package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.limit.AlgorithmSet;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;

/** Runs the shipped script on a real Redis with an explicit clock, so that time is under the test's control. */
final class ScriptHarness implements AutoCloseable {

    static final long WINDOW_MS = 1000;
    /** The period of a calendar window in this harness: a day in UTC. */
    static final CalendarPeriod CALENDAR_DAY = CalendarPeriod.DAY;
    /** A clock value on a window boundary, in microseconds. */
    static final long WINDOW_START_US = 1_700_000_000L * 1_000_000;

    private final LocalRedisServer server = LocalRedisServer.start();
    private final RespConnection redis = server.connect();
    private final RateLimitScripts scripts = new RateLimitScripts();
    private final Algorithm algorithm;
    private final LuaScript script;

    ScriptHarness(Algorithm algorithm) {
        this.algorithm = algorithm;
        this.script = scripts.decide(1 << algorithm.ordinal());
    }

    /** One limit of this harness's algorithm: {allowed, remaining, reset_ms, retry_after_ms}. */
    Reply call(String key, long limit, long cost, long nowMicros) {
        return callAll(nowMicros, new Limit(key, algorithm, limit, cost)).get(0);
    }

    /**
     * {@link #call}, then, in the same script, the key made persistent: for a test whose clock stands still while
     * Redis's runs on (a bucket of 10^12 a second is full again, and its key expired, within a millisecond).
     */
    Reply callKeepingTheKey(String key, long limit, long cost, long nowMicros) {
        String[] command = command(script, nowMicros, new Limit(key, algorithm, limit, cost));
        command[1] = "local function shipped()\n" + command[1] + "\nend\n"
                + "local reply = shipped()\nredis.call('PERSIST', KEYS[1])\nreturn reply\n";
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) redis.command(command);
        return replies(reply).get(0);
    }

    /**
     * {@link #callAll}, then, in the same script, every key made persistent: for a test whose clock stands still while
     * Redis's runs on (a key of a 1 ms window expires in real time between two calls of a slow test run).
     */
    List<Reply> callAllKeepingTheKeys(long nowMicros, Limit... limits) {
        String[] command = decideCommand(nowMicros, 0, limits);
        command[1] = "local function shipped()\n" + command[1] + "\nend\n"
                + "local reply = shipped()\nfor i = 1, #KEYS do redis.call('PERSIST', KEYS[i]) end\nreturn reply\n";
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) redis.command(command);
        return replies(reply);
    }

    /** Gives back {@code cost} of one limit of this harness's algorithm. */
    void refund(String key, long limit, long cost, long nowMicros) {
        redis.command(command(refundScript(), nowMicros, new Limit(key, algorithm, limit, cost)));
    }

    /** Several limits in one call, as the application sends them. */
    List<Reply> callAll(long nowMicros, Limit... limits) {
        return callAllWithShadow(nowMicros, 0, limits);
    }

    /** Several limits in one call, those whose bit is set in {@code shadowMask} in shadow mode. */
    List<Reply> callAllWithShadow(long nowMicros, long shadowMask, Limit... limits) {
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) redis.command(decideCommand(nowMicros, shadowMask, limits));
        return replies(reply);
    }

    /** Several limits in one call that may wait up to {@code maxWaitMillis} for a later slot (a reservation). */
    List<Reply> callAllWaiting(long nowMicros, long maxWaitMillis, Limit... limits) {
        List<LimitDefinition> definitions = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < limits.length; i++) {
            definitions.add(definitions(limits).get(i).toBuilder().maxWait(maxWaitMillis).build());
            keys.add(limits[i].key());
        }
        return decide(nowMicros, keys, definitions);
    }

    /** The decision of limits defined as the application defines them, each with its key. */
    List<Reply> decide(long nowMicros, List<String> keys, List<LimitDefinition> definitions) {
        return replies(decideReply(nowMicros, keys, definitions));
    }

    /** The decision script's reply, as Redis answers it. */
    List<Long> decideReply(long nowMicros, List<String> keys, List<LimitDefinition> definitions) {
        List<String> command = new ArrayList<>(List.of("EVAL", scripts.decide(AlgorithmSet.of(definitions)).source(),
                Integer.toString(keys.size())));
        command.addAll(keys);
        command.addAll(ScriptArguments.limits(Long.toString(nowMicros), definitions, ShadowMask.NONE));
        @SuppressWarnings("unchecked")
        List<Long> reply = (List<Long>) redis.command(command.toArray(String[]::new));
        return reply;
    }

    /** Pauses the limits for {@code pauseMillis} from {@code nowMicros}; the number paused. */
    long pause(long nowMicros, List<String> keys, List<LimitDefinition> definitions, long pauseMillis) {
        List<String> command = new ArrayList<>(List.of("EVAL", scripts.pause(AlgorithmSet.of(definitions)).source(),
                Integer.toString(keys.size())));
        command.addAll(keys);
        command.addAll(ScriptArguments.pause(Long.toString(nowMicros), definitions, pauseMillis, ""));
        return (Long) redis.command(command.toArray(String[]::new));
    }

    /** Gives back what a call of {@code definitions} consumed, at {@code nowMicros}. */
    void refund(long nowMicros, List<String> keys, List<LimitDefinition> definitions) {
        List<String> command = new ArrayList<>(List.of("EVAL", scripts.refund(AlgorithmSet.of(definitions)).source(),
                Integer.toString(keys.size())));
        command.addAll(keys);
        command.addAll(ScriptArguments.refund(Long.toString(nowMicros), definitions, ""));
        redis.command(command.toArray(String[]::new));
    }

    /** The decision script's command for these limits, as the application sends it. */
    String[] decideCommand(long nowMicros, long shadowMask, Limit... limits) {
        return command(scripts.decide(AlgorithmSet.of(definitions(limits))), nowMicros, shadowMask,
                limits);
    }

    /** The refund script's command for these limits, as the application sends it. */
    String[] refundCommand(long nowMicros, Limit... limits) {
        return command(scripts.refund(AlgorithmSet.of(definitions(limits))), nowMicros, limits);
    }

    /** The settlement script's command for these limits (each cost: the difference to settle), as the application sends it. */
    String[] settleCommand(long nowMicros, Limit... limits) {
        return command(scripts.settle(AlgorithmSet.of(definitions(limits))), nowMicros, limits);
    }

    /** A decision script's reply, four integers per limit (a waiting call's clock after them left out). */
    static List<Reply> replies(List<Long> reply) {
        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i + 4 <= reply.size(); i += 4) {
            replies.add(new Reply(reply.get(i) == 1, reply.get(i + 1), reply.get(i + 2), reply.get(i + 3)));
        }
        return replies;
    }

    static String[] command(LuaScript script, long nowMicros, Limit... limits) {
        return command(script, nowMicros, 0, limits);
    }

    static String[] command(LuaScript script, long nowMicros, long shadowMask, Limit... limits) {
        List<String> command = new ArrayList<>(List.of("EVAL", script.source(), Integer.toString(limits.length)));
        for (Limit limit : limits) {
            command.add(limit.key());
        }
        command.addAll(ScriptArguments.limits(Long.toString(nowMicros), definitions(limits), shadow(shadowMask)));
        return command.toArray(String[]::new);
    }

    /** The limits as the application sends them. */
    static List<LimitDefinition> definitions(Limit... limits) {
        List<LimitDefinition> definitions = new ArrayList<>();
        for (Limit limit : limits) {
            definitions.add(LimitDefinition.builder("limit", limit.limit(), limit.windowMillis())
                    .algorithm(limit.algorithm()).cost(limit.cost()).burst(limit.burst())
                    .calendar(limit.algorithm() == Algorithm.CALENDAR_WINDOW ? CALENDAR_DAY : CalendarPeriod.NONE,
                            "UTC", 1)
                    .build());
        }
        return definitions;
    }

    LocalRedisServer server() {
        return server;
    }

    LuaScript script() {
        return script;
    }

    /** The refund script of this harness's algorithm. */
    LuaScript refundScript() {
        return scripts.refund(1 << algorithm.ordinal());
    }

    /**
     * Admits calls of cost 1 until the first refusal; the number admitted. The key is kept ({@link #callKeepingTheKey}):
     * the calls come at one instant of the script's clock while Redis's runs on, and the TTL each call sets counts from
     * that instant in real time (at 997 a second, a millisecond more a call), so a pause of a few ms early in the burst
     * would expire the key and start the count again.
     */
    int admitUntilRefused(String key, long limit, long nowMicros) {
        int admitted = 0;
        while (callKeepingTheKey(key, limit, 1, nowMicros).allowed()) {
            admitted++;
        }
        return admitted;
    }

    Object redis(String... command) {
        return redis.command(command);
    }

    /** Redis's own clock ({@code TIME}) in microseconds: what a key's TTL and a calendar's periods run on. */
    @SuppressWarnings("unchecked")
    long redisTimeMicros() {
        List<Object> time = (List<Object>) redis.command("TIME");
        return Long.parseLong(time.get(0).toString()) * 1_000_000 + Long.parseLong(time.get(1).toString());
    }

    /** The value a key holds (every algorithm but the sliding log keeps one string), {@code null} when absent. */
    String state(String key) {
        return (String) redis.command("GET", key);
    }

    /**
     * The units a sliding window counter's key counts in its window and the one before: its state is
     * {@code (previous * 2^25 + current) * 4 + window index mod 4}, or the three packed once a count reaches 2^25.
     */
    @SuppressWarnings("unchecked")
    List<Long> slidingWindowCounts(String key) {
        List<Long> state = (List<Long>) redis.command("EVAL", """
                local state = redis.call('GET', KEYS[1])
                if #state == 17 then
                  local _, current, previous = struct.unpack('<Bdd', state)
                  return { current, previous }
                end
                local counts = math.floor(state / 4)
                return { counts % 33554432, math.floor(counts / 33554432) }
                """, "1", key);
        return state;
    }

    /** The units a fixed window's key counts in the current window: its value is units * 4 + window index mod 4. */
    long fixedWindowUnits(String key) {
        String state = state(key);
        return state == null ? 0 : Long.parseLong(state) / 4;
    }

    @Override
    public void close() {
        redis.close();
        server.close();
    }

    /** @param burst 0 for the limit */
    record Limit(String key, Algorithm algorithm, long limit, long cost, long burst, long windowMillis) {
        Limit(String key, Algorithm algorithm, long limit, long cost, long burst) {
            this(key, algorithm, limit, cost, burst, WINDOW_MS);
        }

        Limit(String key, Algorithm algorithm, long limit, long cost) {
            this(key, algorithm, limit, cost, 0);
        }
    }

    record Reply(boolean allowed, long remaining, long resetMillis, long retryAfterMillis) {
    }

    /** The limits whose bit is set in {@code bits}, in shadow mode. */
    static ShadowMask shadow(long bits) {
        ShadowMask shadow = ShadowMask.NONE;
        for (int i = 0; i < Long.SIZE; i++) {
            if ((bits & 1L << i) != 0) {
                shadow = shadow.with(i);
            }
        }
        return shadow;
    }
}
