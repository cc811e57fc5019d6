package io.quarkiverse.ratelimit.runtime.redis;

/** What a Redis error reply says, as the script runner, the connections and the library loader read it. */
final class RedisErrors {

    private RedisErrors() {
    }

    /** Whether Redis refused a call because it lacks the call's code (a script or function), running nothing. */
    static boolean isCodeMissing(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("NOSCRIPT") || isFunctionMissing(failure);
    }

    /** Whether Redis lacks the function a call named (it lost the library: a restart, FUNCTION FLUSH, a new node). */
    static boolean isFunctionMissing(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("ERR Function not found");
    }

    /**
     * Whether the call never reached Redis: the connection could not be made (refused, an unknown host, a connect
     * timeout) or was lost, as opposed to an error Redis answered.
     */
    static boolean isUnreachable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    /** Whether Redis does not know the command (a Redis before 7.0 asked for functions). */
    static boolean isUnknownCommand(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.startsWith("ERR unknown command");
    }

    /**
     * Whether a script's keys are not all served by the node it ran on: a cluster slot being migrated (some keys moved,
     * some not) or a resharding the client did not follow yet. A key a script reads first fails it this way.
     */
    static boolean isNotLocal(Throwable failure) {
        return isNotLocal(failure.getMessage());
    }

    /** {@link #isNotLocal(Throwable)}, of an error reply's text. */
    static boolean isNotLocal(String error) {
        return error != null && (error.contains("non local key") || error.startsWith("TRYAGAIN"));
    }
}
