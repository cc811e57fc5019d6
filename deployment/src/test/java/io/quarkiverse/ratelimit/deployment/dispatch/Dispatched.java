package io.quarkiverse.ratelimit.deployment.dispatch;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

import io.quarkiverse.ratelimit.RateLimited;
import io.smallrye.mutiny.Uni;

/** Endpoints whose limits read nothing, a path parameter, a query parameter, or a converted query parameter. */
@Path("/dispatch")
public class Dispatched {

    static final AtomicInteger INVOKED = new AtomicInteger();

    @GET
    @Path("plain")
    @RateLimited(limit = 2, window = "1h")
    public String plain() {
        INVOKED.incrementAndGet();
        return "ok";
    }

    @GET
    @Path("reactive")
    @RateLimited(limit = 2, window = "1h")
    public Uni<String> reactive() {
        return Uni.createFrom().item("ok");
    }

    @GET
    @Path("carriers/{carrier}")
    @RateLimited(limit = 1, window = "1h", perParameter = "carrier")
    public String byPath(@PathParam("carrier") String carrier) {
        return carrier;
    }

    @GET
    @Path("rates")
    @RateLimited(limit = 1, window = "1h", perParameter = "carrier")
    public String byQuery(@QueryParam("carrier") String carrier) {
        return carrier;
    }

    /** An int the request holds as text: "7" and "07" are one page, as the method receives them. */
    @GET
    @Path("pages")
    @RateLimited(limit = 1, window = "1h", perParameter = "page")
    public String byPage(@QueryParam("page") int page) {
        return "page " + page;
    }
}
