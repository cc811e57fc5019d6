package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

/**
 * What the gateway answers when the carrier refused its call anyway (an outage, a quota lowered without notice): 503
 * Service Unavailable with the carrier's retry time, never a 500. The limiter has paused the carrier's queue on every
 * instance meanwhile.
 */
// tag::refusals[]
final class CarrierRefusals {

    private CarrierRefusals() {
    }

    /** The REST Client's failure for a carrier's 429 or 503. */
    static boolean refusedByCarrier(Throwable failure) {
        return failure instanceof WebApplicationException answer
                && (answer.getResponse().getStatus() == 429 || answer.getResponse().getStatus() == 503);
    }

    static Response unavailable(Throwable refusal) {
        String retryAfter = ((WebApplicationException) refusal).getResponse().getHeaderString("Retry-After");
        Response.ResponseBuilder answer = Response.status(503).entity("the carrier cannot take the call now");
        return (retryAfter == null ? answer : answer.header("Retry-After", retryAfter)).build();
    }
}
// end::refusals[]
