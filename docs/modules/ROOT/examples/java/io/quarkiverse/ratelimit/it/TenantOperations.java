package io.quarkiverse.ratelimit.it;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.ratelimit.RateLimitAdmin;
import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.RateLimitSubject;

/** What an operator does for tenants from code: the same as the administration endpoints. Shown on Multi-tenancy. */
@ApplicationScoped
public class TenantOperations {

    /** What the operator saw on the way. */
    public record Seen(Map<String, Long> limits, List<RateLimitDecision> left) {
    }

    @Inject
    RateLimitAdmin admin;

    public Seen raiseInspectAndBlock() {
        // tag::admin[]
        admin.setLimit("tiny-shop", "payments", 20);                          // set when it returns
        Map<String, Long> limits = admin.limits("tiny-shop");                 // {payments=20}
        List<RateLimitDecision> left = admin.status("tiny-shop", "payments"); // what is left, without consuming
        admin.reset("tiny-shop", "payments");                                 // forget what was consumed
        admin.removeLimit("tiny-shop", "payments");                           // back to the configured limit
        admin.block("abuser");                // every limited call answers 403, until admin.unblock("abuser")
        // end::admin[]
        return new Seen(limits, left);
    }

    /** What the operator sees of the other counters: a caller address's, one carrier's, the printer's. */
    public record Subjects(int addressCountersReset, List<RateLimitDecision> ups, List<RateLimitDecision> printer) {
    }

    public Subjects inspectOtherCounters(String address) {
        // tag::subjects[]
        int reset = admin.reset(RateLimitSubject.clientAddress(address), "signup"); // 1, or 0: nothing was counted
        List<RateLimitDecision> ups = admin.status(                                  // one carrier's counter
                RateLimitSubject.tenant("tiny-shop").withArgument("carrier", "ups"), "labels");
        List<RateLimitDecision> printer = admin.status(RateLimitSubject.everyone(), // a global limit
                "LabelPrinterResource.print");
        // end::subjects[]
        return new Subjects(reset, ups, printer);
    }
}
