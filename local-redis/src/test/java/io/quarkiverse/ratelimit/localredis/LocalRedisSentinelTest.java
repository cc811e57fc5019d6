package io.quarkiverse.ratelimit.localredis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class LocalRedisSentinelTest {

    @Test
    void sentinelsPromoteTheReplicaWhenTheMasterDies() {
        try (LocalRedisSentinel setup = LocalRedisSentinel.start()) {
            assertEquals(setup.master().port(), setup.currentMasterPort());
            setup.master().kill();
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> setup.currentMasterPort() == setup.replica().port());
            assertTrue(LocalRedisCluster.isMaster(setup.replica()));
        }
    }
}
