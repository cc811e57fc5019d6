package io.quarkiverse.ratelimit.runtime.admitted;

import java.util.concurrent.Executor;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Runs continuations on the Vert.x context that made the call, so that a method proceeding after a Redis reply sees
 * its own request context (the reply may arrive on another event loop).
 */
final class CallerContext {

    private CallerContext() {
    }

    static Executor current() {
        Context caller = Vertx.currentContext();
        return task -> {
            if (caller == null || Vertx.currentContext() == caller) {
                task.run();
            } else {
                caller.runOnContext(ignored -> task.run());
            }
        };
    }
}
