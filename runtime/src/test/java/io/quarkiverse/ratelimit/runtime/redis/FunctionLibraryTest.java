package io.quarkiverse.ratelimit.runtime.redis;

import static io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.WINDOW_START_US;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.limit.AlgorithmSet;
import io.quarkiverse.ratelimit.runtime.limit.ConcurrencyDefinition;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkiverse.ratelimit.runtime.limit.ReturnKind;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.redis.ScriptHarness.Limit;

/**
 * The function library runs the same code as the scripts: random calls, refunds and leases sent both ways, with one
 * explicit clock, get the same replies and leave the same state (the scripts themselves are checked against models in
 * {@link ScriptsMatchTheirModelsTest}).
 */
class FunctionLibraryTest {

    private final RateLimitScripts scripts = new RateLimitScripts();

    @Test
    void everyFunctionAnswersAndWritesAsItsScript() {
        Random random = new Random(42);
        try (LocalRedisServer server = LocalRedisServer.start(); RespConnection redis = server.connect()) {
            assertThat(redis.command("FUNCTION", "LOAD", scripts.library().source()))
                    .isEqualTo(scripts.library().name());
            long now = WINDOW_START_US;
            for (int step = 0; step < 2_000; step++) {
                now += random.nextInt(300_000);
                Algorithm first = Algorithm.values()[random.nextInt(Algorithm.values().length)];
                Algorithm second = Algorithm.values()[random.nextInt(Algorithm.values().length)];
                boolean both = random.nextBoolean();
                long cost = 1 + random.nextInt(3);
                boolean refund = random.nextInt(5) == 0;
                Object byScript = redis.command(call(false, refund, now, both, first, second, cost));
                Object byFunction = redis.command(call(true, refund, now, both, first, second, cost));
                assertThat(byFunction).as("step %d", step).isEqualTo(byScript);
            }
            for (Algorithm algorithm : Algorithm.values()) {
                String key = ":limit:" + algorithm;
                assertThat(state(redis, "{function}" + key)).as(algorithm.name())
                        .isEqualTo(state(redis, "{script}" + key));
            }
        }
    }

    /**
     * The batch function decides each call exactly as the decision function alone: calls of one or two limits, shadow
     * limits, calls that may wait, several calls on the same keys in one batch, calls sent short (a call repeated, another
     * key with the same limits); same replies, same state.
     */
    @Test
    void aBatchDecidesEveryCallAsTheFunctionAlone() {
        Random random = new Random(7);
        String batch = scripts.batchFunction();
        String alone = scripts.decide(1).function();
        Algorithm[] waitable = { Algorithm.TOKEN_BUCKET, Algorithm.GCRA };
        try (LocalRedisServer server = LocalRedisServer.start(); RespConnection redis = server.connect()) {
            redis.command("FUNCTION", "LOAD", scripts.library().source());
            long now = WINDOW_START_US;
            int compact = 0;
            for (int step = 0; step < 400; step++) {
                now += random.nextInt(150_000);
                int calls = 1 + random.nextInt(8);
                List<String> batchKeys = new ArrayList<>();
                List<String> batchArgs = new ArrayList<>(List.of(Integer.toString(calls)));
                List<Object> aloneReplies = new ArrayList<>();
                List<String> previousCall = null;
                List<String> wholeArgs = null; // the arguments of the last call sent whole, when it had one key
                Algorithm wholeAlgorithm = null;
                for (int call = 0; call < calls; call++) {
                    if (previousCall != null && random.nextInt(3) == 0) {
                        // the call before it again (a hot tenant), sent as the one argument 0
                        aloneReplies.add(redis.command(previousCall.toArray(String[]::new)));
                        batchArgs.add("0");
                        continue;
                    }
                    if (wholeArgs != null && random.nextInt(3) == 0) {
                        // another tenant's call of the same limits, sent as = and its key
                        String key = ":t" + random.nextInt(3) + ":" + wholeAlgorithm;
                        List<String> command = new ArrayList<>(List.of("FCALL", alone, "1", "{alone}" + key));
                        command.addAll(wholeArgs);
                        aloneReplies.add(redis.command(command.toArray(String[]::new)));
                        previousCall = command;
                        batchArgs.add("=");
                        batchArgs.add("{batch}" + key);
                        continue;
                    }
                    boolean waits = random.nextInt(4) == 0;
                    Algorithm first = waits ? waitable[random.nextInt(2)]
                            : Algorithm.values()[random.nextInt(Algorithm.values().length)];
                    Algorithm second = waits ? waitable[random.nextInt(2)]
                            : Algorithm.values()[random.nextInt(Algorithm.values().length)];
                    int limits = second == first || random.nextBoolean() ? 1 : 2;
                    String tenant = "t" + random.nextInt(3);
                    List<String> keys = new ArrayList<>();
                    List<LimitDefinition> definitions = new ArrayList<>();
                    for (Algorithm algorithm : limits == 1 ? List.of(first) : List.of(first, second)) {
                        keys.add(":" + tenant + ":" + algorithm);
                        // two window lengths: a batch writes keys whose expiries differ
                        definitions.add(LimitDefinition.builder("limit", 4 + random.nextInt(3), 1000 * (1 + random.nextInt(2)))
                                .algorithm(algorithm).cost(1 + random.nextInt(2))
                                .calendar(algorithm == Algorithm.CALENDAR_WINDOW ? CalendarPeriod.DAY : CalendarPeriod.NONE,
                                        "UTC", 1)
                                .maxWait(waits ? 300 : 0).build());
                    }
                    ShadowMask shadow = random.nextInt(5) == 0 ? ScriptHarness.shadow(1 + random.nextInt(limits))
                            : ShadowMask.NONE;
                    List<String> args = ScriptArguments.limits(Long.toString(now), definitions, shadow);

                    List<String> command = new ArrayList<>(List.of("FCALL", alone, Integer.toString(limits)));
                    keys.forEach(key -> command.add("{alone}" + key));
                    command.addAll(args);
                    aloneReplies.add(redis.command(command.toArray(String[]::new)));
                    previousCall = command;
                    wholeArgs = limits == 1 ? args : null;
                    wholeAlgorithm = first;

                    if (call == 0) {
                        keys.forEach(key -> batchKeys.add("{batch}" + key)); // declared: they route the call
                    }
                    batchArgs.add(Integer.toString(limits));
                    batchArgs.add(Integer.toString(args.size()));
                    keys.forEach(key -> batchArgs.add("{batch}" + key));
                    batchArgs.addAll(args);
                }
                List<String> command = new ArrayList<>(List.of("FCALL", batch, Integer.toString(batchKeys.size())));
                command.addAll(batchKeys);
                command.addAll(batchArgs);
                // one flat array: each call's reply after the one before it, a compact one for a call of one limit
                // admitted at once
                List<Object> flat = new ArrayList<>();
                aloneReplies.forEach(reply -> flat.addAll((List<?>) reply));
                List<?> batchReply = (List<?>) redis.command(command.toArray(String[]::new));
                List<Object> expanded = expanded(batchReply, aloneReplies);
                assertThat(expanded).as("step %d", step).isEqualTo(flat);
                compact += (expanded.size() - batchReply.size()) / 3; // each written out as four
                assertSameStates(redis);
            }
            assertThat(compact).as("compact replies").isPositive();
        }
    }

    /** A batch's reply with each compact reply written out as the four integers the call alone answers. */
    private static List<Object> expanded(List<?> batchReply, List<Object> aloneReplies) {
        List<Object> expanded = new ArrayList<>();
        int at = 0;
        for (Object alone : aloneReplies) {
            if (batchReply.get(at) instanceof Long value && value < 0) {
                long packed = -1 - value;
                expanded.addAll(List.of(1L, packed % ScriptReplies.COMPACT_REMAINING,
                        packed / ScriptReplies.COMPACT_REMAINING, 0L));
                at++;
            } else {
                int size = ((List<?>) alone).size();
                expanded.addAll(batchReply.subList(at, Math.min(batchReply.size(), at + size)));
                at += size;
            }
        }
        expanded.addAll(batchReply.subList(Math.min(at, batchReply.size()), batchReply.size()));
        return expanded;
    }

    /**
     * Every key the batches wrote holds what the calls alone wrote, with the same expiry. A key about to expire is left
     * out: the calls alone wrote theirs a moment before the batch, so it expires a moment earlier.
     */
    private static void assertSameStates(RespConnection redis) {
        for (String tenant : List.of("t0", "t1", "t2")) {
            for (Algorithm algorithm : Algorithm.values()) {
                String key = ":" + tenant + ":" + algorithm;
                long batchTtl = (Long) redis.command("PTTL", "{batch}" + key);
                long aloneTtl = (Long) redis.command("PTTL", "{alone}" + key);
                if (batchTtl >= 0 && batchTtl < 200 || aloneTtl >= 0 && aloneTtl < 200) {
                    continue;
                }
                assertThat(state(redis, "{batch}" + key)).as(key).isEqualTo(state(redis, "{alone}" + key));
                // written a few milliseconds apart, with the same explicit clock: the same TTL (-1 for none, -2 for
                // no key)
                if (batchTtl < 0 || aloneTtl < 0) {
                    assertThat(batchTtl).as(key + " PTTL").isEqualTo(aloneTtl);
                } else {
                    assertThat(batchTtl).as(key + " PTTL").isCloseTo(aloneTtl, Offset.offset(100L));
                }
            }
        }
    }

    @Test
    void theConcurrencyFunctionHoldsLeasesAsItsScript() {
        LuaScript script = scripts.concurrency();
        ConcurrencyDefinition limit = new ConcurrencyDefinition("limit", 2, 5000, FailureMode.DEFAULT, ReturnKind.UNI);
        try (LocalRedisServer server = LocalRedisServer.start(); RespConnection redis = server.connect()) {
            redis.command("FUNCTION", "LOAD", scripts.library().source());
            for (int lease = 0; lease < 4; lease++) {
                List<String> args = ScriptArguments.concurrency(Long.toString(WINDOW_START_US + lease * 1000L), limit,
                        "lease-" + lease);
                Object byScript = redis.command(command("EVAL", script.source(), "{script}:cl", args));
                Object byFunction = redis.command(command("FCALL", script.function(), "{function}:cl", args));
                assertThat(byFunction).isEqualTo(byScript);
            }
            for (int lease = 0; lease < 2; lease++) { // the first two leases given up
                List<String> args = ScriptArguments.cancelLease(limit, "lease-" + lease);
                Object byScript = redis.command(command("EVAL", scripts.cancelLease().source(), "{script}:cl", args));
                Object byFunction = redis.command(command("FCALL", scripts.cancelLease().function(), "{function}:cl",
                        args));
                assertThat(byFunction).isEqualTo(byScript);
            }
            assertThat(redis.command("ZRANGE", "{function}:cl", "0", "-1", "WITHSCORES"))
                    .isEqualTo(redis.command("ZRANGE", "{script}:cl", "0", "-1", "WITHSCORES"));
        }
    }

    /**
     * Every function a call can name is one the library registers: each entry's script for every set of algorithms,
     * and the batch function, against what {@code FUNCTION LIST} says Redis holds after the load. A function the
     * library lacks would cost every such call a failed {@code FCALL} and a reload of the library.
     */
    @Test
    void everyFunctionACallCanNameIsInTheLibraryRedisHolds() {
        java.util.Set<String> named = new java.util.TreeSet<>();
        for (int set = 1; set < AlgorithmSet.SETS; set++) {
            named.add(scripts.decide(set).function());
            named.add(scripts.refund(set).function());
            named.add(scripts.pause(set).function());
        }
        named.add(scripts.concurrency().function());
        named.add(scripts.cancelLease().function());
        named.add(scripts.reset().function());
        named.add(scripts.batchFunction());
        try (LocalRedisServer server = LocalRedisServer.start(); RespConnection redis = server.connect()) {
            redis.command("FUNCTION", "LOAD", scripts.library().source());
            java.util.Set<String> held = new java.util.TreeSet<>();
            List<?> libraries = (List<?>) redis.command("FUNCTION", "LIST", "LIBRARYNAME", scripts.library().name());
            List<?> library = (List<?>) libraries.get(0);
            List<?> functions = (List<?>) library.get(library.indexOf("functions") + 1);
            for (Object function : functions) {
                List<?> fields = (List<?>) function;
                held.add((String) fields.get(fields.indexOf("name") + 1));
            }
            assertThat(held).containsAll(named);
            assertThat(held).hasSameSizeAs(RateLimitScripts.ENTRIES);
        }
    }

    @Test
    void aFileThatIsNotAnEntryHasNoFunction() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> scripts.function(RateLimitScripts.PRELUDE));
    }

    @Test
    void theLibraryAndItsFunctionsAreNamedAfterTheirCode() {
        String digest = scripts.library().name().substring("quarkus_rate_limit_".length());
        assertThat(digest).matches("[0-9a-f]{12}");
        assertThat(scripts.decide(1).function()).isEqualTo("rate_limit_" + digest)
                .isEqualTo(scripts.decide(0b11111).function());
        assertThat(scripts.refund(1).function()).isEqualTo("refund_" + digest);
        assertThat(scripts.concurrency().function()).isEqualTo("concurrency_" + digest);
    }

    private String[] call(boolean function, boolean refund, long now, boolean both, Algorithm first,
            Algorithm second, long cost) {
        String tag = function ? "{function}" : "{script}";
        List<Limit> limits = new ArrayList<>();
        limits.add(new Limit(tag + ":limit:" + first, first, 5, cost));
        if (both && second != first) {
            limits.add(new Limit(tag + ":limit:" + second, second, 7, 1, 3));
        }
        Limit[] array = limits.toArray(Limit[]::new);
        int set = AlgorithmSet.of(ScriptHarness.definitions(array));
        LuaScript script = refund ? scripts.refund(set) : scripts.decide(set);
        String[] command = ScriptHarness.command(script, now, array);
        if (function) {
            command[0] = "FCALL";
            command[1] = script.function();
        }
        return command;
    }

    /** A call of a lease's scripts: the leases' key, and the mark of a given-up lease (its id is the first argument). */
    private static String[] command(String verb, String scriptOrFunction, String key, List<String> args) {
        String leaseId = args.get(0).startsWith("lease-") ? args.get(0) : args.get(3);
        List<String> command = new ArrayList<>(List.of(verb, scriptOrFunction, "2", key, key + ":" + leaseId));
        command.addAll(args);
        return command.toArray(String[]::new);
    }

    private static Object state(RespConnection redis, String key) {
        return "zset".equals(redis.command("TYPE", key)) ? redis.command("ZRANGE", key, "0", "-1", "WITHSCORES")
                : redis.command("GET", key);
    }
}
