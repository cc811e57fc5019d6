package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;
import io.smallrye.mutiny.Uni;

/**
 * The carrier's API as the gateway calls it (in the demo, the carrier stub of this application). The carrier grants the
 * platform's account 50 requests a second; every gateway instance shares 48 of them, one every 21 ms, and a call waits
 * up to 2 s for its turn.
 */
// tag::client[]
@RegisterRestClient(configKey = "carrier-api")
@Path("/carrier-stub")
public interface CarrierApi {

    @POST
    @Path("/labels")
    @RateLimited(name = "carrier-api", limit = 48, window = "1s", burst = 1, algorithm = Algorithm.GCRA,
            maxWait = "2s", scope = Scope.GLOBAL)
    Uni<String> createLabel();
}
// end::client[]
