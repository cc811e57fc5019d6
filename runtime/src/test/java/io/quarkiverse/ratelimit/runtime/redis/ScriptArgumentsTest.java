package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkiverse.ratelimit.localredis.RespConnection;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * The two halves of the script argument contract, run against each other on a real Redis: what
 * {@link ScriptArguments} writes is what {@code lua/prelude.lua}'s {@code clock} and {@code limit_args} read.
 */
class ScriptArgumentsTest {

    /** The prelude, then every limit's values as {@code limit_args} returns them, as strings. */
    private static final String ECHO = LuaScript.load(RateLimitScripts.PRELUDE).source() + """

            local echo = { string.format('%.0f', clock(ARGV)) }
            for i = 1, #KEYS do
              local algorithm, limit, window_us, cost, burst = limit_args(ARGV, i)
              for _, value in ipairs({ algorithm, limit, window_us, cost, burst }) do
                echo[#echo + 1] = type(value) == 'number' and string.format('%.0f', value) or value
              end
            end
            return echo
            """;

    @Test
    void thePreludeReadsEachLimitAsTheJavaSideWritesIt() {
        List<LimitDefinition> limits = List.of(
                LimitDefinition.builder("a", 5, 10_000).build(),
                LimitDefinition.builder("b", 1_000_000_000, 86_400_000).algorithm(Algorithm.TOKEN_BUCKET).cost(7)
                        .burst(20).build(),
                LimitDefinition.builder("c", 3, 1).algorithm(Algorithm.GCRA).cost(0).build());
        try (LocalRedisServer server = LocalRedisServer.start(); RespConnection redis = server.connect()) {
            List<String> command = new ArrayList<>(List.of("EVAL", ECHO, "3", "{t}:a", "{t}:b", "{t}:c"));
            command.addAll(ScriptArguments.limits("1700000000123456", limits));

            assertThat(redis.command(command.toArray(String[]::new))).isEqualTo(List.of("1700000000123456",
                    "sliding_window_counter", "5", "10000000", "1", "5",
                    "token_bucket", "1000000000", "86400000000", "7", "20",
                    "gcra", "3", "1000", "0", "3"));
        }
    }

    @Test
    void anEmptyClockMeansRedisTime() {
        try (LocalRedisServer server = LocalRedisServer.start(); RespConnection redis = server.connect()) {
            List<String> command = new ArrayList<>(List.of("EVAL", ECHO, "0"));
            command.addAll(ScriptArguments.limits(ScriptArguments.REDIS_CLOCK, List.of()));
            @SuppressWarnings("unchecked")
            List<String> echo = (List<String>) redis.command(command.toArray(String[]::new));
            long redisMicros = Long.parseLong(((List<String>) redis.command("TIME")).get(0)) * 1_000_000;

            assertThat(Long.parseLong(echo.get(0))).isBetween(redisMicros - 2_000_000, redisMicros + 2_000_000);
        }
    }

    @Test
    void bothHalvesCountTheSameValuesPerLimit() {
        try (LocalRedisServer server = LocalRedisServer.start(); RespConnection redis = server.connect()) {
            String perLimit = LuaScript.load(RateLimitScripts.PRELUDE).source() + "\nreturn ARGS_PER_LIMIT";

            assertThat(redis.command("EVAL", perLimit, "0", ScriptArguments.REDIS_CLOCK))
                    .isEqualTo((long) ScriptArguments.PER_LIMIT);
            assertThat(ScriptArguments.limits("", List.of(LimitDefinition.builder("a", 5, 1000)
                    .algorithm(Algorithm.FIXED_WINDOW).build()))).hasSize(1 + ScriptArguments.PER_LIMIT);
        }
    }
}
