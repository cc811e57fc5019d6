package io.quarkiverse.ratelimit.runtime.admitted;

/** {@link Admissions} for calls that give nothing back (no refund, no settlement, no wait, not outgoing). */
public final class AdmissionsForTests {

    private AdmissionsForTests() {
    }

    public static Admissions givingNothingBack() {
        return new Admissions(null, null, null, null);
    }
}
