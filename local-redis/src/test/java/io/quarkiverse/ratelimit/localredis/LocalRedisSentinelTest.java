package io.quarkiverse.ratelimit.localredis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LocalRedisSentinelTest {

    @Test
    void sentinelsPromoteTheReplicaWhenTheMasterDies() throws InterruptedException {
        try (LocalRedisSentinel setup = LocalRedisSentinel.start()) {
            assertEquals(setup.master().port(), setup.currentMasterPort());
            setup.master().kill();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (setup.currentMasterPort() != setup.replica().port() && System.nanoTime() < deadline) {
                Thread.sleep(100); // waiting on the Sentinels' election, which only polling can observe
            }
            assertEquals(setup.replica().port(), setup.currentMasterPort());
            assertTrue(LocalRedisCluster.isMaster(setup.replica()));
        }
    }
}
