package io.quarkiverse.ratelimit.runtime.http;

import io.quarkus.arc.Arc;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP filter that lets {@link EarlyRefusals} answer a request before Quarkus REST. Registered at build time,
 * before the beans exist: the bean is looked up at the first request.
 */
public final class EarlyRefusalFilter implements Handler<RoutingContext> {

    /**
     * After CORS (300), authentication (200), HTTP permissions (100) and route filters of the default priority (10):
     * whatever of those answers a request still answers it first.
     */
    public static final int PRIORITY = 1;

    private volatile EarlyRefusals refusals;

    @Override
    public void handle(RoutingContext routing) {
        EarlyRefusals early = refusals;
        if (early == null) {
            early = Arc.container().instance(EarlyRefusals.class).get();
            refusals = early;
        }
        early.handle(routing);
    }
}
