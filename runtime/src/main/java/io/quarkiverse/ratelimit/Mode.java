package io.quarkiverse.ratelimit;

/** Whether a limit is enforced, only recorded, or skipped; for rolling a limit out without risk. */
public enum Mode {
    /** Decided on Redis; a refusal refuses the call (429). */
    ENFORCE,
    /**
     * Decided on Redis exactly as when enforced (it counts the calls it admits), but a refusal does not refuse the
     * call: the call proceeds, the refusal is logged and counted ({@code mode="shadow"} in the metrics).
     */
    SHADOW,
    /** Not decided at all: no Redis call, no headers. */
    OFF
}
