package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;
import io.smallrye.mutiny.Uni;

/**
 * A carrier that announces 50 requests a second but may grant fewer (in the demo, the carrier stub of this application,
 * whose quota a test lowers and raises): the limit learns the quota the carrier really grants from its 429 answers.
 */
// tag::client[]
@RegisterRestClient(configKey = "learning-carrier-api")
@Path("/carrier-stub")
public interface LearningCarrierApi {

    @POST
    @Path("/labels")
    @RateLimited(name = "learning-carrier-api", limit = 50, window = "1s", burst = 1, algorithm = Algorithm.GCRA,
            maxWait = "2s", scope = Scope.GLOBAL, adaptive = true)
    Uni<String> createLabel();
}
// end::client[]
