package io.quarkiverse.ratelimit.runtime.admitted;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;

/**
 * Settlements that came after their reservation's lease and changed nothing (the call counts at its estimate): counted
 * per limit, and logged, as a warning the first time a limit has one (a lease shorter than its calls shows at once)
 * and at debug level after, so that a lease too short for every call does not flood the log.
 */
@Singleton
public class LateSettlements {

    private static final Logger LOG = Logger.getLogger(LateSettlements.class);

    private final RateLimitMetrics metrics;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    LateSettlements(RateLimitMetrics metrics) {
        this.metrics = metrics;
    }

    /** A reservation of these limits was settled after its lease ({@code quarkus.rate-limit.reservation-lease}). */
    public void settledLate(List<RateLimitDecision> reserved) {
        for (RateLimitDecision limit : reserved) {
            metrics.settledLate(limit.limitName());
            String message = "A reservation of '%s' was settled after quarkus.rate-limit.reservation-lease and changed"
                    + " nothing: the call counts at its estimate. A lease longer than the calls it holds lets them settle";
            if (warned.add(limit.limitName())) {
                LOG.warnf(message, limit.limitName());
            } else {
                LOG.debugf(message, limit.limitName());
            }
        }
    }
}
