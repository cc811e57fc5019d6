package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.rest.client.inject.RestClient;

import io.smallrye.mutiny.Uni;

/**
 * The gateway's endpoint on the carrier whose real quota the limit learns ({@link LearningCarrierApi}). A call the
 * carrier refused anyway is answered 503 with the carrier's retry time: the gateway cannot serve it now.
 */
@Path("/gateway/learning-labels")
public class LearningGatewayResource {

    @RestClient
    LearningCarrierApi carrier;

    @POST
    public Uni<Response> createLabel() {
        return carrier.createLabel().map(label -> Response.ok(label).build())
                .onFailure(CarrierRefusals::refusedByCarrier).recoverWithItem(CarrierRefusals::unavailable);
    }
}
