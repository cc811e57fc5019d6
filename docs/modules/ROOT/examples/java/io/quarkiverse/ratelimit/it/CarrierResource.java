package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.quarkiverse.ratelimit.RateLimited;

/**
 * The carrier-integration gateway: each tenant's label and rate requests are limited per carrier, with the
 * values of its plan ({@code application.properties}: policies {@code labels} and {@code rates}, plans
 * {@code enterprise} and {@code starter}).
 */
// tag::resource[]
@Path("/carriers/{carrier}")
public class CarrierResource {

    @POST
    @Path("labels")
    @RateLimited(policy = "labels", perParameter = "carrier")   // values come from configuration
    public String createLabel(@PathParam("carrier") String carrier) {
        return "label from " + carrier;
    }

    @GET
    @Path("rates")
    @RateLimited(policy = "rates", perParameter = "carrier")
    public String quoteRates(@PathParam("carrier") String carrier) {
        return "rates from " + carrier;
    }
}
// end::resource[]
