package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.ratelimit.ConcurrencyLimited;
import io.quarkiverse.ratelimit.RateLimited;

/** Reports are expensive: a few at once per tenant, and a daily budget. Shown on the docs' first page. */
@Path("/reports")
public class ReportResource {

    // tag::generate[]
    @POST
    @ConcurrencyLimited(limit = 2, lease = "5m")      // at most 2 reports generated at once per tenant
    @RateLimited(limit = 100, window = "1d")
    public String generate(String title) {
        return "report: " + title;
    }
    // end::generate[]
}
