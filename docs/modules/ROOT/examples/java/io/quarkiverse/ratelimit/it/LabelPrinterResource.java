package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;

/** The warehouse's label printer takes 2 labels a second; a request waits up to 3 s for its turn. */
// tag::resource[]
@Path("/printer/labels")
public class LabelPrinterResource {

    @POST
    @RateLimited(limit = 2, window = "1s", burst = 1, algorithm = Algorithm.GCRA, maxWait = "3s", scope = Scope.GLOBAL)
    public String print() {
        return "printed";
    }
}
// end::resource[]
