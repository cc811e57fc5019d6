package io.quarkiverse.ratelimit.it;

import java.time.Duration;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.keys.ReactiveKeyCommands;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.smallrye.mutiny.Uni;

/**
 * The limiter this extension exists to replace, kept in the demo to show the race it loses: it reads the tenant's
 * count, decides, then counts the call, in separate Redis commands. Calls that read 49 of 50 at the same moment all
 * pass, and on a fleet every instance's calls do. {@code bench/race.sh} bursts it and {@code /exact/sliding} (the same
 * limit with {@code @RateLimited}) on two instances. Never write a limiter like this.
 */
@Path("/naive")
public class NaiveLimiterResource {

    private final ReactiveValueCommands<String, Long> counts;
    private final ReactiveKeyCommands<String> keys;

    NaiveLimiterResource(ReactiveRedisDataSource redis) {
        this.counts = redis.value(Long.class);
        this.keys = redis.key();
    }

    /** At most {@link ExactnessResource#LIMIT} calls a day per tenant, in intention. */
    @GET
    @Path("/sliding")
    public Uni<Response> sliding(@HeaderParam("X-Tenant-Id") String tenant) {
        String key = "naive-limiter:" + tenant;
        return counts.get(key).chain(count -> {
            if (count != null && count >= ExactnessResource.LIMIT) {
                return Uni.createFrom().item(Response.status(429).build());
            }
            // the decision is already taken: another call may have counted since the GET
            return counts.incr(key)
                    .call(counted -> counted == 1 ? keys.expire(key, Duration.ofDays(1)) : Uni.createFrom().voidItem())
                    .replaceWith(Response.ok("naive").build());
        });
    }
}
