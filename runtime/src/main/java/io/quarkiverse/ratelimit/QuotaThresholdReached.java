package io.quarkiverse.ratelimit;

import java.time.Duration;
import java.time.Instant;

/**
 * Fired, asynchronously, when a call takes a tenant's use of a limit to a configured share of it
 * ({@code quarkus.rate-limit.thresholds}, for example 80, 90 and 100 percent): once per threshold, limit, tenant and
 * period (the limit's window, aligned to the epoch) across every instance of the application. Observe it with
 * {@code @ObservesAsync} to e-mail the customer or call a webhook; it never delays the call that crossed the threshold.
 *
 * @param limitName the limit's name, as in {@code RateLimit-Policy}
 * @param tenant the tenant, {@code null} for a limit that is not per tenant (global, per client address)
 * @param percent the threshold reached, in percent of the limit
 * @param limit the limit, in units per window
 * @param used the units in use after the call, as the limit's algorithm counts them
 * @param window the limit's window
 * @param periodStart the start of the period the threshold was reached in (the window aligned to the epoch)
 */
public record QuotaThresholdReached(String limitName, String tenant, int percent, long limit, long used,
        Duration window, Instant periodStart) {
}
