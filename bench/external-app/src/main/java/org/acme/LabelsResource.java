package org.acme;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;

@Path("/labels")
public class LabelsResource {

    @POST
    @RateLimited(limit = 50, window = "1h")
    public String create() {
        return "label";
    }

    @GET
    @RateLimited(limit = 50, window = "1h", algorithm = Algorithm.FIXED_WINDOW)
    public String list() {
        return "labels";
    }
}
