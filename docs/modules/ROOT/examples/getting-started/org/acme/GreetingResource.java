// tag::resource[]
package org.acme;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.RateLimited;

@Path("/hello")
public class GreetingResource {

    @GET
    @RateLimited(limit = 5, window = "10s")
    public String hello() {
        return "Hello from Quarkus REST";
    }
}
// end::resource[]
