package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.ratelimit.RateLimited;

/**
 * The payment quota: each tenant may take 10 payments an hour ({@code application.properties}, policies
 * {@code payments} and {@code payment-retries}), and a payment that did not go through consumes nothing of it, on
 * every instance.
 */
@Path("/payments")
public class PaymentResource {

    /** A payment the card network declined ({@code ?declined=true}): 402, and the unit is given back. */
    @POST
    @RateLimited(policy = "payments", refundOn = PaymentDeclinedException.class)
    public String pay(@QueryParam("declined") boolean declined) {
        if (declined) {
            throw new PaymentDeclinedException();
        }
        return "paid";
    }

    /** A payment provider that is down ({@code ?unavailable=true}): 503, and the unit is given back. */
    @POST
    @Path("through-provider")
    @RateLimited(policy = "payment-retries", refundOnServerError = true)
    public Response payThroughProvider(@QueryParam("unavailable") boolean unavailable) {
        return unavailable ? Response.status(503).entity("provider unavailable").build() : Response.ok("paid").build();
    }
}
