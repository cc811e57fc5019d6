package io.quarkiverse.ratelimit.runtime.watch;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.clock.InstanceClock;
import io.quarkiverse.ratelimit.runtime.limit.ShadowMask;
import io.quarkiverse.ratelimit.runtime.observe.DecidedCall;
import io.quarkiverse.ratelimit.runtime.observe.DecisionObserver;

/**
 * Logs the refusals of limits in shadow mode at INFO, at most once per limit every ten seconds with the number of
 * refusals since the last line: a dark launch shows what it would refuse without flooding the log. Only the refusals
 * of calls that proceeded: a call an enforced limit refused is refused, whatever its shadow limits said.
 */
@Singleton
public final class ShadowRefusals implements DecisionObserver {

    private static final Logger LOG = Logger.getLogger(ShadowRefusals.class);
    static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Per limit: refusals not logged yet, and when the last line was written. */
    private static final class Window {
        final AtomicLong unlogged = new AtomicLong();
        final AtomicLong loggedAt;

        Window(long now) {
            this.loggedAt = new AtomicLong(now - INTERVAL_NANOS);
        }
    }

    private final ConcurrentMap<String, Window> byLimit = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;

    @Inject
    ShadowRefusals(InstanceClock clock) {
        this(clock::nanoTime);
    }

    ShadowRefusals(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    @Override
    public void decided(DecidedCall call) {
        ShadowMask shadow = call.shadow();
        if (shadow.isEmpty()) {
            return;
        }
        List<RateLimitDecision> decisions = call.decisions();
        for (int i = 0; i < decisions.size(); i++) {
            if (!decisions.get(i).allowed() && !shadow.contains(i)) {
                return;
            }
        }
        for (int i = 0; i < decisions.size(); i++) {
            if (!decisions.get(i).allowed()) {
                refused(decisions.get(i), call.tenant());
            }
        }
    }

    /** @return whether this refusal wrote a line */
    boolean refused(RateLimitDecision decision, String tenant) {
        long now = nanoClock.getAsLong();
        Window window = byLimit.computeIfAbsent(decision.limitName(), name -> new Window(now));
        window.unlogged.incrementAndGet();
        long last = window.loggedAt.get();
        if (now - last < INTERVAL_NANOS || !window.loggedAt.compareAndSet(last, now)) {
            return false;
        }
        long counted = window.unlogged.getAndSet(0);
        LOG.infof("Rate limit '%s' (shadow mode) would have refused %d call(s) in the last %d s, the latest of"
                + " tenant %s (%d of %d left); the calls proceeded", decision.limitName(), counted,
                TimeUnit.NANOSECONDS.toSeconds(INTERVAL_NANOS), tenant == null ? "(none)" : "'" + tenant + "'",
                decision.remaining(), decision.limit());
        return true;
    }
}
