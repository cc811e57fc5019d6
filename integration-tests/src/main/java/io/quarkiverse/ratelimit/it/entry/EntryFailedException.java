package io.quarkiverse.ratelimit.it.entry;

/** The work of an admitted call failed: the call is given back ({@code refundOn}, {@code RateLimiter.refund}). */
public class EntryFailedException extends RuntimeException {

    public EntryFailedException() {
        super("The work failed; the call does not count", null, false, false);
    }

    /** The answer of an admitted call, or this failure when the caller asked it to fail. */
    static String admittedUnless(boolean fail) {
        if (fail) {
            throw new EntryFailedException();
        }
        return "admitted";
    }
}
