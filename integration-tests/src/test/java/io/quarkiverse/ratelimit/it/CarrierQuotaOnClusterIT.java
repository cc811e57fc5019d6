package io.quarkiverse.ratelimit.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link CarrierQuotaIT} on the Redis Cluster topology (three masters; without replicas, which would only add
 * processes to the machine's two cores and jitter to the calls): the same fleet, the same carrier, the same figures;
 * the reservations and the pause run as scripts on the master of the limit's slot.
 */
class CarrierQuotaOnClusterIT {

    @RegisterExtension
    static final Fleet fleet = Fleet.onCluster(cluster -> CarrierQuotaIT.twoInstancesOnOneCarrier(
            cluster.masters().get(0), "quarkus.redis.hosts=" + cluster.hosts(), "quarkus.redis.client-type=cluster"));

    @Test
    void theFleetKeepsWithinTheCarriersQuotaAndUsesIt() throws Exception {
        CarrierQuotaIT.keepsWithinTheCarriersQuotaAndUsesIt(fleet);
    }
}
