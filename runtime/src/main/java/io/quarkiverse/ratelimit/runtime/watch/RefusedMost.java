package io.quarkiverse.ratelimit.runtime.watch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.RateLimitSubject;
import io.quarkiverse.ratelimit.RefusedCaller;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.clock.RepeatedTask;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.observe.RateLimitMetrics;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * Who is refused most, fleet-wide: every fleet heartbeat ({@code quarkus.rate-limit.fleet.heartbeat}) this instance
 * reports the callers it refused since the last report ({@link RefusedCallers}) into the minute's tally in Redis
 * ({@code lua/refused.lua}: a ring of an hour of one-minute sorted sets, each holding at most {@link #CAPACITY}
 * callers), one script call and only when it refused anybody; an operator reads the sum of the last minutes
 * ({@code lua/refused_most.lua}). Memory is bounded in the instance and in Redis whatever the number of callers.
 */
@Singleton
public class RefusedMost {

    private static final Logger LOG = Logger.getLogger(RefusedMost.class);

    /** The most callers one minute's tally holds: a caller refused more than a 1/1000 share of a minute's refusals stays. */
    static final int CAPACITY = 1_000;
    /** The longest period that can be asked for: the ring holds an hour. */
    public static final int MAX_MINUTES = 60;

    private final RefusedCallers callers;
    private final ScriptRunner scripts;
    private final List<String> ring;
    private final RepeatedTask reports;

    RefusedMost(RefusedCallers callers, ScriptRunner scripts, RateLimitKeys keys, InstanceClock clock,
            RateLimitConfig config, RateLimitMetrics metrics) {
        this.callers = callers;
        metrics.refusedCallers(callers::lastCallers, callers::lastTopShare);
        this.scripts = scripts;
        this.ring = keys.refusedRing();
        long reportMillis = config.fleet().heartbeat().toMillis();
        this.reports = new RepeatedTask(clock, reportMillis, done -> report()
                .ifNoItem().after(Duration.ofMillis(reportMillis)).fail()
                .subscribe().with(ignored -> done.run(), failure -> {
                    LOG.debugf(failure, "Could not report the refused callers of the last %d ms", reportMillis);
                    done.run();
                }));
    }

    /** Runs after the start-up checks ({@code StartupChecks}), as the fleet's heartbeat does. */
    void start(@Observes StartupEvent event) {
        reports.runLater();
    }

    /**
     * The callers refused most over the last {@code minutes} minutes (1 to {@link #MAX_MINUTES}), the most refused
     * first, at most {@code top} of them: what every instance reported so far (a heartbeat behind at most).
     */
    public Uni<List<RefusedCaller>> read(int minutes, int top) {
        return scripts.run(scripts.scripts().refusedMost(), ring, List.of(Integer.toString(minutes),
                Integer.toString(top))).map(RefusedMost::callers);
    }

    /** Reports what was counted since the last report; its failure loses that report only (a tally, not a limit). */
    Uni<Void> report() {
        Map<String, LongAdder> counted = callers.drain();
        if (counted.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<String> args = new ArrayList<>(1 + 2 * counted.size());
        args.add(Integer.toString(CAPACITY));
        counted.forEach((caller, refusals) -> {
            args.add(caller);
            args.add(Long.toString(refusals.sum()));
        });
        return scripts.run(scripts.scripts().refused(), ring, args).replaceWithVoid();
    }

    private static List<RefusedCaller> callers(Response reply) {
        List<RefusedCaller> most = new ArrayList<>(reply.size() / 2);
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            String caller = reply.get(i).toString();
            RateLimitSubject subject = caller.startsWith("a:") ? RateLimitSubject.clientAddress(caller.substring(2))
                    : RateLimitSubject.tenant(caller.substring(2));
            most.add(new RefusedCaller(subject, reply.get(i + 1).toLong()));
        }
        return List.copyOf(most);
    }

    @PreDestroy
    void stop() {
        reports.stop();
    }
}
