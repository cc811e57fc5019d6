package io.quarkiverse.ratelimit.runtime.fleet;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.clock.RepeatedTask;
import io.quarkiverse.ratelimit.runtime.config.RateLimitConfig;
import io.quarkiverse.ratelimit.runtime.key.RateLimitKeys;
import io.quarkiverse.ratelimit.runtime.redis.ScriptRunner;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * How many instances share the limits, as Redis counts them: every heartbeat ({@code quarkus.rate-limit.fleet.heartbeat})
 * this instance announces itself ({@code lua/fleet.lua}) and hears back how many instances announced themselves within
 * the last three heartbeats. An instance that stops cleanly leaves at once; one that dies is gone three heartbeats
 * later. While Redis does not answer, the last count heard stands: it is what the {@code local} failure mode divides a
 * limit by, so a fleet without Redis stays at about its limit without being told its size.
 */
@Singleton
public class FleetSize {

    private static final Logger LOG = Logger.getLogger(FleetSize.class);
    /** An announcement holds for this many heartbeats: one lost or late heartbeat does not drop an instance. */
    static final int HEARTBEATS_HELD = 3;
    /** The most a shutdown waits for this instance to leave the fleet. */
    private static final long LEAVE_WAIT_MILLIS = 250;

    private final ScriptRunner scripts;
    private final RepeatedTask heartbeat;
    private final String key;
    /** This instance's member of the fleet; new at every start, so a restarted instance never counts twice. */
    private final String id = UUID.randomUUID().toString();
    private final long heartbeatMillis;
    private final String lifetimeMillis;
    /** {@code local-fallback.expected-instances}, which overrides the count heard; 0 when not set. */
    private final int expectedInstances;
    /** The live instances as last heard, this one included; 0 until Redis first answered. */
    private volatile int live;

    FleetSize(ScriptRunner scripts, RateLimitKeys keys, RateLimitConfig config, InstanceClock clock) {
        this.scripts = scripts;
        this.key = keys.fleetKey();
        this.heartbeatMillis = config.fleet().heartbeat().toMillis();
        this.heartbeat = new RepeatedTask(clock, heartbeatMillis, this::announce);
        this.lifetimeMillis = Long.toString(HEARTBEATS_HELD * heartbeatMillis);
        this.expectedInstances = config.localFallback().expectedInstances().orElse(0);
    }

    /** This instance's member of the fleet: a new id at every start. */
    public String id() {
        return id;
    }

    /** How many instances share the limits as last heard from Redis, this one included; 0 before Redis first answered. */
    public int live() {
        return live;
    }

    /**
     * How many instances share a limit without Redis, each allowing its share: {@code local-fallback.expected-instances}
     * when set, else the live instances last heard (1 before any was heard).
     */
    public int sharing() {
        return expectedInstances > 0 ? expectedInstances : Math.max(1, live);
    }

    /** Runs after the start-up checks ({@code StartupChecks}): an application that fails to start announces nothing. */
    void start(@Observes StartupEvent event) {
        heartbeat.runNow();
    }

    private void announce(Runnable done) {
        send("1").subscribe().with(count -> {
            live = count;
            done.run();
        }, failure -> {
            LOG.debugf(failure, "Could not announce this instance to the fleet; %d instances, as last heard", live);
            done.run();
        });
    }

    /** One announcement (or departure), never waiting beyond a heartbeat: a hung Redis delays the next one only. */
    private Uni<Integer> send(String announce) {
        return scripts.run(scripts.scripts().fleet(), List.of(key), List.of(id, lifetimeMillis, announce))
                .ifNoItem().after(Duration.ofMillis(heartbeatMillis)).fail()
                .map(reply -> reply.toInteger());
    }

    /** At shutdown, before the Redis client closes: leaves the fleet at once rather than three heartbeats later. */
    void stop(@Observes ShutdownEvent event) {
        boolean announced = !heartbeat.stopped() && live > 0;
        stop();
        if (announced) {
            try {
                // bounded: a shutdown never waits long on a Redis that is away (the others stop counting it anyway)
                send("0").await().atMost(Duration.ofMillis(Math.min(heartbeatMillis, LEAVE_WAIT_MILLIS)));
            } catch (RuntimeException e) {
                LOG.debugf(e, "Could not leave the fleet; the others stop counting this instance in %d ms",
                        HEARTBEATS_HELD * heartbeatMillis);
            }
        }
    }

    @PreDestroy
    void stop() {
        heartbeat.stop();
    }
}
