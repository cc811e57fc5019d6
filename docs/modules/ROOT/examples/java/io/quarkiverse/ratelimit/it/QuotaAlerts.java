package io.quarkiverse.ratelimit.it;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;

import io.quarkiverse.ratelimit.QuotaThresholdReached;

/**
 * Tells a tenant when its quota runs low ({@code quarkus.rate-limit.thresholds}): here the notices are kept in a list,
 * which stands for the mailer or webhook an application would call.
 */
@ApplicationScoped
public class QuotaAlerts {

    final List<String> sent = new CopyOnWriteArrayList<>();

    // tag::alerts[]
    void onThreshold(@ObservesAsync QuotaThresholdReached reached) {
        if (reached.tenant() != null) { // a per-tenant limit
            notify(reached.tenant(), "You have used " + reached.percent() + " % of your quota '"
                    + reached.limitName() + "': " + reached.used() + " of " + reached.limit() + " this period");
        }
    }
    // end::alerts[]

    private void notify(String tenant, String notice) {
        sent.add(tenant + ": " + notice);
    }

    /** The notices sent to {@code tenant}. */
    public List<String> sentTo(String tenant) {
        return sent.stream().filter(notice -> notice.startsWith(tenant + ": ")).toList();
    }
}
