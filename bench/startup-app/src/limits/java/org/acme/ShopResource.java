package org.acme;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.Algorithm;
import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Uni;

/** Four endpoints, each limited (src/plain holds the same without the limits). */
@Path("/shop")
public class ShopResource {

    @GET
    @Path("products")
    @RateLimited(limit = 100, window = "1m")
    public String products() {
        return "products";
    }

    @GET
    @Path("prices")
    @RateLimited(limit = 100, window = "1m", algorithm = Algorithm.FIXED_WINDOW)
    public Uni<String> prices() {
        return Uni.createFrom().item("prices");
    }

    @POST
    @Path("orders")
    @RateLimited(limit = 10, window = "1s", algorithm = Algorithm.GCRA)
    public String order() {
        return "ordered";
    }

    @POST
    @Path("exports")
    @RateLimited(limit = 5, window = "1h", algorithm = Algorithm.SLIDING_WINDOW_LOG)
    public String export() {
        return "exporting";
    }
}
