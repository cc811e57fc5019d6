package io.quarkiverse.ratelimit.deployment.dispatch;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;

import io.vertx.core.Context;

/**
 * An application's own blocking request filter: Quarkus REST runs it on the worker thread, after the switch from the
 * event loop. It counts the requests that got that far, by path, and those it saw on the event loop.
 */
@Provider
public class BlockingFilterCalls implements ContainerRequestFilter {

    static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();
    static final AtomicInteger ON_EVENT_LOOP = new AtomicInteger();

    @Override
    public void filter(ContainerRequestContext request) {
        if (Context.isOnEventLoopThread()) {
            ON_EVENT_LOOP.incrementAndGet();
        }
        CALLS.computeIfAbsent(request.getUriInfo().getPath(), path -> new AtomicInteger()).incrementAndGet();
    }

    static int calls(String path) {
        AtomicInteger calls = CALLS.get(path);
        return calls == null ? 0 : calls.get();
    }
}
