package io.quarkiverse.ratelimit.runtime.observe;

import java.util.List;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.quarkus.arc.All;

/**
 * Tells every {@link DecisionObserver} of a decision. An observer that throws is logged and skipped: watching a
 * decision never changes it.
 */
@Singleton
public class DecisionObservers {

    private static final Logger LOG = Logger.getLogger(DecisionObservers.class);

    private final DecisionObserver[] observers;

    DecisionObservers(@All List<DecisionObserver> observers) {
        this.observers = observers.toArray(DecisionObserver[]::new);
    }

    public void decided(DecidedCall call) {
        for (DecisionObserver observer : observers) {
            try {
                observer.decided(call);
            } catch (RuntimeException e) {
                LOG.debugf(e, "%s failed to observe a decision", observer);
            }
        }
    }

    public void unavailable(List<LimitDefinition> limits, String tenant, Object span) {
        for (DecisionObserver observer : observers) {
            try {
                observer.unavailable(limits, tenant, span);
            } catch (RuntimeException e) {
                LOG.debugf(e, "%s failed to observe an unavailable decision", observer);
            }
        }
    }
}
