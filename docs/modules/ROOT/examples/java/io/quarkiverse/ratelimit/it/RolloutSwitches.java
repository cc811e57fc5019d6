package io.quarkiverse.ratelimit.it;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.RateLimitAdmin;

/** Run-time switches from code: the kill switch, one policy switched, and back. Shown on Rolling out. */
@ApplicationScoped
public class RolloutSwitches {

    // tag::inject[]
    @Inject
    RateLimitAdmin admin;
    // end::inject[]

    public void everyLimitOff() {
        // tag::kill-switch[]
        admin.setMode(null, Mode.OFF);                                   // every limit: the kill switch
        // end::kill-switch[]
    }

    public void labelsForAQuarterOfTenants() {
        // tag::one-policy[]
        admin.setSwitches("labels", Mode.ENFORCE, 25, FailureMode.FAIL_CLOSED);
        // end::one-policy[]
    }

    public void backToConfiguration() {
        // tag::back[]
        admin.clearSwitches("labels");
        admin.clearSwitches(null);
        // end::back[]
    }
}
