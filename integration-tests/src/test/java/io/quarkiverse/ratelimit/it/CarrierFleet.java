package io.quarkiverse.ratelimit.it;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.ratelimit.localredis.LocalRedisServer;

/**
 * Two packaged instances of the demo on one carrier: the first instance's carrier stub is every instance's carrier, so
 * it counts the calls of the whole fleet.
 */
final class CarrierFleet {

    private CarrierFleet() {
    }

    /**
     * @param clients the REST Clients (configuration keys) that call the carrier: the second instance's point at the
     *        first one's stub
     * @param properties of both instances
     */
    static List<AppInstance> start(LocalRedisServer redis, List<String> clients, String... properties) {
        AppInstance first = AppInstance.start(redis, properties);
        first.awaitReady();
        List<String> second = new ArrayList<>(List.of(properties));
        clients.forEach(client -> second.add("quarkus.rest-client." + client + ".url=" + first.uri()));
        AppInstance other = AppInstance.start(redis, second.toArray(String[]::new));
        other.awaitReady();
        return List.of(first, other);
    }
}
