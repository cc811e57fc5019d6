package io.quarkiverse.ratelimit.it;

import java.util.List;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.quarkiverse.ratelimit.localredis.LocalRedisCluster;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * {@link FailoverLossMeasurement} in a cluster of three masters with a replica each: one master dies, so about a third
 * of the tenants are at risk. Durable decisions do not exist in a cluster.
 */
@QuarkusTest
@WithTestResource(value = RedisClusterResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
@EnabledIfSystemProperty(named = "measure-failover-loss", matches = "true")
class ClusterFailoverLossMeasurement extends FailoverLossMeasurement {

    @InjectRedisCluster
    LocalRedisCluster cluster;

    private LocalRedisServer replica;

    @Override
    LocalRedisServer master() {
        return cluster.masters().get(0);
    }

    @Override
    LocalRedisServer replica() {
        if (replica == null) {
            replica = cluster.replicaOf(master());
        }
        return replica;
    }

    @Override
    boolean replicaPromoted() {
        return "master".equals(((List<?>) replica().command("ROLE")).get(0));
    }
}
