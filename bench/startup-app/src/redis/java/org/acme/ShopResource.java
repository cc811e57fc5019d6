package org.acme;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.mutiny.Uni;

/**
 * The four endpoints of src/plain, each reading a counter from Redis through Quarkus's client, as an application that
 * uses Redis does: what the rate limiter adds is then measured beyond the Redis client's own cost.
 */
@Path("/shop")
public class ShopResource {

    @Inject
    RedisDataSource redis;

    @Inject
    ReactiveRedisDataSource reactiveRedis;

    @GET
    @Path("products")
    public String products() {
        return "products " + redis.value(String.class).get("shop:products");
    }

    @GET
    @Path("prices")
    public Uni<String> prices() {
        return reactiveRedis.value(String.class).get("shop:prices").map(value -> "prices " + value);
    }

    @POST
    @Path("orders")
    public String order() {
        return "ordered " + redis.value(String.class).get("shop:orders");
    }

    @POST
    @Path("exports")
    public String export() {
        return "exporting " + redis.value(String.class).get("shop:exports");
    }
}
