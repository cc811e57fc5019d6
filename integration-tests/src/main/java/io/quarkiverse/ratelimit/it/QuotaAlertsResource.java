package io.quarkiverse.ratelimit.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** The quota notices this instance sent a tenant ({@link QuotaAlerts}): what the demo's operator (or a test) reads. */
@Path("/alerts/{tenant}")
public class QuotaAlertsResource {

    @Inject
    QuotaAlerts alerts;

    /** One notice per line. */
    @GET
    public String sentTo(@PathParam("tenant") String tenant) {
        return String.join("\n", alerts.sentTo(tenant));
    }
}
