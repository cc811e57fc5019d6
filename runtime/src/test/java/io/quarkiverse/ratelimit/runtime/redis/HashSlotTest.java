package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;

/** The slot of a key, as Redis itself computes it ({@code CLUSTER KEYSLOT} on a cluster-enabled redis-server). */
class HashSlotTest {

    static LocalRedisServer redis;

    @BeforeAll
    static void start() {
        redis = LocalRedisServer.start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf");
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @Test
    void theExamplesOfTheRedisDocumentation() {
        assertThat(HashSlot.of("somekey")).isEqualTo(11058);
        assertThat(HashSlot.of("foo{hash_tag}")).isEqualTo(2515);
        assertThat(HashSlot.of("{user1000}.following")).isEqualTo(HashSlot.of("{user1000}.followers"));
    }

    @Test
    void randomKeysWithAndWithoutTagsHashAsRedisHashesThem() {
        Random random = new Random(7);
        String alphabet = "ab{}:~é漢0";
        for (int i = 0; i < 2000; i++) {
            StringBuilder key = new StringBuilder();
            int length = random.nextInt(12);
            for (int c = 0; c < length; c++) {
                key.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            assertThat((long) HashSlot.of(key.toString())).as(key.toString())
                    .isEqualTo(redis.command("CLUSTER", "KEYSLOT", key.toString()));
        }
    }

    @Test
    void theKeysOfOneCallShareTheSlotOfTheirTag() {
        assertThat(HashSlot.of("rate-limit:{acme}:search:s")).isEqualTo(HashSlot.of("acme"))
                .isEqualTo(HashSlot.of("rate-limit:{acme}:export:f"));
    }
}
