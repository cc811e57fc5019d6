package io.quarkiverse.ratelimit.localredis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LocalRedisClusterTest {

    @Test
    void threeMastersWithReplicasServeEverySlot() {
        try (LocalRedisCluster cluster = LocalRedisCluster.start(3, true)) {
            assertEquals(3, cluster.masters().size());
            assertEquals(3, cluster.replicas().size());
            String info = (String) cluster.masters().get(1).command("CLUSTER", "INFO");
            assertTrue(info.contains("cluster_slots_assigned:16384"), info);
            assertTrue(info.contains("cluster_known_nodes:6"), info);
            LocalRedisServer first = cluster.masterOf(0);
            LocalRedisServer last = cluster.masterOf(16383);
            assertNotEquals(first.port(), last.port());
        }
    }
}
