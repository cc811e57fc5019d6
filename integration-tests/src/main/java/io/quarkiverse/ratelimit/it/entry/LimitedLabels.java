package io.quarkiverse.ratelimit.it.entry;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.ratelimit.RateLimited;

/** A CDI bean whose method is limited: its callers are not REST endpoints. */
@ApplicationScoped
public class LimitedLabels {

    @RateLimited(policy = "entry-bean", limit = EntryPointsResource.LIMIT, window = "1d", refundOn = EntryFailedException.class)
    public String label(boolean fail) {
        return EntryFailedException.admittedUnless(fail);
    }
}
