package io.quarkiverse.ratelimit.deployment.tenant;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.RateLimited;
import io.quarkiverse.ratelimit.Scope;

/** One call per client address per hour; one endpoint (and counter) per test. */
@Path("/address")
public class ClientAddressEndpoints {

    @GET
    @Path("spoofed")
    @RateLimited(limit = 1, window = "1h", scope = Scope.CLIENT_ADDRESS)
    public String spoofed() {
        return "ok";
    }

    @GET
    @Path("forwarded")
    @RateLimited(limit = 1, window = "1h", scope = Scope.CLIENT_ADDRESS)
    public String forwarded() {
        return "ok";
    }

    @GET
    @Path("chain")
    @RateLimited(limit = 1, window = "1h", scope = Scope.CLIENT_ADDRESS)
    public String chain() {
        return "ok";
    }

    @GET
    @Path("ipv6")
    @RateLimited(limit = 1, window = "1h", scope = Scope.CLIENT_ADDRESS)
    public String ipv6() {
        return "ok";
    }

    @GET
    @Path("garbage")
    @RateLimited(limit = 1, window = "1h", scope = Scope.CLIENT_ADDRESS)
    public String garbage() {
        return "ok";
    }
}
