package io.quarkiverse.ratelimit.deployment;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;

public final class Throwables {

    private Throwables() {
    }

    /** Every message in the cause and suppressed tree: build errors arrive wrapped and aggregated. */
    public static String allMessages(Throwable root) {
        StringBuilder messages = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> pending = new ArrayDeque<>();
        pending.add(root);
        while (!pending.isEmpty()) {
            Throwable t = pending.poll();
            if (!seen.add(t)) {
                continue;
            }
            messages.append(t.getMessage()).append('\n');
            if (t.getCause() != null) {
                pending.add(t.getCause());
            }
            Collections.addAll(pending, t.getSuppressed());
        }
        return messages.toString();
    }
}
