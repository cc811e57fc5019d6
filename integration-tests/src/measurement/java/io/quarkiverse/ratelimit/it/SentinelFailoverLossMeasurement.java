package io.quarkiverse.ratelimit.it;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.quarkiverse.ratelimit.localredis.LocalRedisSentinel;
import io.quarkiverse.ratelimit.localredis.LocalRedisServer;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** {@link FailoverLossMeasurement} behind Sentinel: a master, a replica, three Sentinels. */
@QuarkusTest
@WithTestResource(value = RedisSentinelResource.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
@EnabledIfSystemProperty(named = "measure-failover-loss", matches = "true")
class SentinelFailoverLossMeasurement extends FailoverLossMeasurement {

    @InjectRedisSentinel
    LocalRedisSentinel sentinel;

    @Override
    LocalRedisServer master() {
        return sentinel.master();
    }

    @Override
    LocalRedisServer replica() {
        return sentinel.replica();
    }

    @Override
    boolean replicaPromoted() {
        return sentinel.currentMasterPort() == sentinel.replica().port();
    }

    /** The Sentinels make the restarted old master the new master's replica. */
    @Override
    void restartOldMaster() {
        sentinel.master().restart();
    }
}
