package io.quarkiverse.ratelimit;

import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Names the plan of a tenant when {@code quarkus.rate-limit.tenants.<tenant>.plan} does not (a database, a JWT claim):
 * implement it as one CDI bean. The plan selects the values of {@code quarkus.rate-limit.plans.<plan>.<policy>.*} for
 * the limits that use a policy. Called once per limited call that has a tenant and a policy limit, so cache what is
 * expensive; it must not block.
 */
public interface PlanResolver {

    /**
     * @param tenant the tenant, as its source gave it
     * @param request the HTTP request of the call, {@code null} when the call is not part of one
     * @return the plan, or a {@code null} item for none (the policy's own values apply)
     */
    Uni<String> resolve(String tenant, RoutingContext request);
}
