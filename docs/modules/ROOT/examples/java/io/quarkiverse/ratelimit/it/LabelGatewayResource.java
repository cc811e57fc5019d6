package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.rest.client.inject.RestClient;

import io.smallrye.mutiny.Uni;

/** The gateway's endpoint that creates a label at the carrier: the outgoing call waits for the carrier quota. */
// tag::gateway[]
@Path("/gateway/labels")
public class LabelGatewayResource {

    @RestClient
    CarrierApi carrier;

    @POST
    public Uni<Response> createLabel() {
        return carrier.createLabel() // waits for its turn; 429 when the turn is more than 2 s away
                .map(label -> Response.ok(label).build())
                .onFailure(CarrierRefusals::refusedByCarrier).recoverWithItem(CarrierRefusals::unavailable);
    }
}
// end::gateway[]
