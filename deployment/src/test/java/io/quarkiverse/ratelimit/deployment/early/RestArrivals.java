package io.quarkiverse.ratelimit.deployment.early;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.vertx.ext.web.Router;

/**
 * Counts the requests that reach Quarkus REST's route: a route of order 0 runs after every HTTP filter (the limiter's
 * early refusals included) and before Quarkus REST.
 */
@ApplicationScoped
public class RestArrivals {

    static final AtomicInteger COUNT = new AtomicInteger();

    void count(@Observes Router router) {
        router.route().order(0).handler(routing -> {
            COUNT.incrementAndGet();
            routing.next();
        });
    }

    static int count() {
        return COUNT.get();
    }
}
