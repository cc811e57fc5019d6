package io.quarkiverse.ratelimit.runtime.redis;

import java.util.List;

/**
 * What the messages on the invalidation channel ({@code InvalidationChannel}) say, and which listener method each one calls. A
 * message is one of:
 * <ul>
 * <li>{@code *}: anything may have changed (run-time limits, blocked tenants, switches);</li>
 * <li>{@code "\npause <ms>\n<key>\n<key>..."}: the keys' limits were paused ({@code lua/pause.lua});</li>
 * <li>{@code "\nlearned <value>\n<key>"}: an adaptive limit's key learned a new value ({@code lua/adapt.lua});</li>
 * <li>{@code "\nreset\n<key>\n<key>..."}: the keys' state was deleted ({@code lua/reset.lua});</li>
 * <li>{@code "\nrecall\n<key>"}: the slices leased of the key are called back, near its limit ({@code lua/lease.lua});
 * an instance that knows no such message forgets the refusals it holds for the key, no more;</li>
 * <li>otherwise the keys whose state changed, one per line ({@code lua/refund.lua}, {@code lua/lease.lua}).</li>
 * </ul>
 * A key never starts with a line break, so the first two kinds cannot be taken for a key list.
 */
final class InvalidationMessages {

    /** The message of a change that concerns every key. */
    static final String EVERYTHING = "*";
    private static final String PAUSE = "\npause ";
    private static final String LEARNED = "\nlearned ";
    private static final String RESET = "\nreset\n";
    private static final String RECALL = "\nrecall\n";

    private InvalidationMessages() {
    }

    /** Tells each listener what {@code payload} says; a message of an unknown shape tells none. */
    static void tell(String payload, List<InvalidationListener> listeners) {
        if (EVERYTHING.equals(payload)) {
            for (InvalidationListener listener : listeners) {
                listener.everythingChanged();
            }
        } else if (payload.startsWith(PAUSE)) {
            String[] lines = payload.substring(PAUSE.length()).split("\n");
            long pauseMillis = Long.parseLong(lines[0]);
            List<String> keys = List.of(lines).subList(1, lines.length);
            for (InvalidationListener listener : listeners) {
                listener.paused(keys, pauseMillis);
            }
        } else if (payload.startsWith(RESET)) {
            List<String> keys = List.of(payload.substring(RESET.length()).split("\n"));
            for (InvalidationListener listener : listeners) {
                listener.keysReset(keys);
            }
        } else if (payload.startsWith(RECALL)) {
            List<String> keys = List.of(payload.substring(RECALL.length()).split("\n"));
            for (InvalidationListener listener : listeners) {
                listener.keysRecalled(keys);
            }
        } else if (payload.startsWith(LEARNED)) {
            int keyStart = payload.indexOf('\n', LEARNED.length());
            if (keyStart > 0) {
                String learned = payload.substring(LEARNED.length(), keyStart);
                String key = payload.substring(keyStart + 1);
                for (InvalidationListener listener : listeners) {
                    listener.learned(key, learned);
                }
            }
        } else {
            List<String> keys = List.of(payload.split("\n"));
            for (InvalidationListener listener : listeners) {
                listener.keysChanged(keys);
            }
        }
    }
}
