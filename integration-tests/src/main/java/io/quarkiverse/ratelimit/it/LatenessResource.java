package io.quarkiverse.ratelimit.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/**
 * Makes this instance late, as a long garbage-collection pause or a blocked event loop would: every event loop of it
 * stops for {@code millis}. For the tests of a fleet whose one instance runs late; not part of a real application.
 */
@Path("/lateness")
public class LatenessResource {

    @Inject
    Vertx vertx;

    @POST
    public String stall(@QueryParam("millis") long millis) {
        for (EventExecutor loop : ((VertxInternal) vertx).getEventLoopGroup()) {
            loop.execute(() -> {
                try {
                    Thread.sleep(millis); // the lateness itself: what a stalled event loop does
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        return "stalling " + millis + " ms";
    }
}
