package io.quarkiverse.ratelimit.runtime.clock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An {@link InstanceClock} a unit test drives: time stands still until {@link #advance}, which runs the timers that
 * came due, in order, each at its own time. No thread, no real time.
 */
public final class DrivenClock implements InstanceClock {

    /** Where the wall time stands when the driven time starts: 2023-11-14T22:13:20Z, the start of a whole second. */
    public static final long EPOCH_MILLIS = 1_700_000_000_000L;
    private static final long START_NANOS = 1_000_000_000L;

    private long nowNanos = START_NANOS;
    private long nextId;
    private final TreeMap<Long, List<Long>> due = new TreeMap<>();
    private final Map<Long, Runnable> actions = new HashMap<>();

    @Override
    public synchronized long nanoTime() {
        return nowNanos;
    }

    /** Wall time moves with the driven time, from {@link #EPOCH_MILLIS}. */
    @Override
    public synchronized long currentTimeMillis() {
        return EPOCH_MILLIS + (nowNanos - START_NANOS) / 1_000_000;
    }

    @Override
    public synchronized long setTimer(long delayMillis, Runnable action) {
        long id = nextId++;
        long at = nowNanos + delayMillis * 1_000_000;
        due.computeIfAbsent(at, ignored -> new ArrayList<>()).add(id);
        actions.put(id, action);
        return id;
    }

    @Override
    public synchronized boolean cancelTimer(long id) {
        return actions.remove(id) != null;
    }

    /** How many timers are pending. */
    public synchronized int pendingTimers() {
        return actions.size();
    }

    /**
     * Moves time forward by {@code millis} and runs no timer meanwhile, as a stalled event loop: the timers that came
     * due run late, at the next {@link #advanceMillis}.
     */
    public synchronized void stallMillis(long millis) {
        nowNanos += millis * 1_000_000;
    }

    /** Moves time forward by {@code millis}, running each timer that comes due at its time. */
    public void advanceMillis(long millis) {
        long until;
        synchronized (this) {
            until = nowNanos + millis * 1_000_000;
        }
        while (true) {
            Runnable action;
            synchronized (this) {
                Map.Entry<Long, List<Long>> next = due.firstEntry();
                if (next == null || next.getKey() > until) {
                    nowNanos = until;
                    return;
                }
                nowNanos = Math.max(nowNanos, next.getKey()); // an overdue timer runs now, late
                long id = next.getValue().remove(0);
                if (next.getValue().isEmpty()) {
                    due.remove(next.getKey());
                }
                action = actions.remove(id);
            }
            if (action != null) {
                action.run();
            }
        }
    }
}
