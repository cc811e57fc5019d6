// tag::resource[]
package org.acme;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;

@Path("/exports")
public class ExportResource {

    @GET
    @RateLimited(limit = 5, window = "1h", algorithm = Algorithm.SLIDING_WINDOW_LOG) // each call counts for one hour
    public String export() {
        return "export started";
    }
}
// end::resource[]
