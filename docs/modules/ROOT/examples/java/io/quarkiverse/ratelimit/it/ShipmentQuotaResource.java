package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.CalendarPeriod;
import io.quarkiverse.ratelimit.RateLimited;

/**
 * The carrier gateway's shipment quota, as a tenant's contract writes it: 50,000 shipments a day, 1,000,000 a billing
 * month that renews on the 15th, both in New York time.
 */
// tag::resource[]
@Path("/shipments")
public class ShipmentQuotaResource {

    @POST
    @RateLimited(limit = 50_000, period = CalendarPeriod.DAY, timeZone = "America/New_York")
    @RateLimited(limit = 1_000_000, period = CalendarPeriod.MONTH, anchorDay = 15, timeZone = "America/New_York")
    public String ship() {
        return "shipped";
    }
}
// end::resource[]
