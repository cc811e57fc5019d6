package io.quarkiverse.ratelimit.runtime.decide;

import io.quarkiverse.ratelimit.runtime.admitted.Admission;
import io.quarkiverse.ratelimit.runtime.limit.EffectiveMethod;
import io.vertx.ext.web.RoutingContext;

/**
 * Carries a call admitted by the HTTP request filter, before dispatch, to the method's interceptor, which then does not
 * decide again and only keeps the admission (to refund the call if it fails).
 */
public final class DispatchDecisions {

    private static final String KEY = DispatchDecisions.class.getName();

    private DispatchDecisions() {
    }

    /**
     * Records that {@code method}'s call on {@code request} was admitted with {@code admission}. Most admissions hold
     * nothing: then the method itself is recorded, without an allocation per request.
     */
    public static void admitted(RoutingContext request, EffectiveMethod method, Admission admission) {
        request.put(KEY, admission.holdsNothing() ? method : new Admitted(method, admission));
    }

    /**
     * The admission of {@code method}'s call on {@code request} made before dispatch, taken once (a second call of the
     * method in the same request is decided on its own); {@code null} when none was made.
     */
    public static Admission take(RoutingContext request, EffectiveMethod method) {
        if (request == null) {
            return null;
        }
        Object recorded = request.get(KEY);
        Admission admission = recorded == method ? Admission.NONE
                : recorded instanceof Admitted admitted && admitted.method == method ? admitted.admission : null;
        if (admission != null) {
            request.remove(KEY);
        }
        return admission;
    }

    private record Admitted(EffectiveMethod method, Admission admission) {
    }
}
