package io.quarkiverse.ratelimit.runtime.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

class LimitModesTest {

    static final LimitDefinition SEARCH = LimitDefinition.builder("search", 100, 60_000).build();
    static final List<String> TENANTS = IntStream.range(0, 10_000).mapToObj(i -> "tenant-" + i).toList();

    @Test
    void aQuarterOfTenThousandTenantsIsEnforcedWithinBinomialBounds() {
        Set<String> enforced = enforced(rollout(25, "spring-launch", Set.of(), Set.of()));
        double sigma = Math.sqrt(TENANTS.size() * 0.25 * 0.75);
        assertThat((double) enforced.size()).isBetween(2500 - 3 * sigma, 2500 + 3 * sigma);
    }

    /**
     * Ids that differ only in their last characters, as a customer's ids usually do, are picked independently: over
     * 2,000 groups of 200 such ids at 25 %, each group's share spreads as a binomial (sigma 6.12), not wider. A CRC
     * spread them with sigma 6.8, and one group in 150 fell outside 3 sigma.
     */
    @Test
    void idsThatDifferOnlyInTheirLastCharactersArePickedIndependently() {
        LimitModes modes = rollout(25, "rate-limit", Set.of(), Set.of());
        double sum = 0;
        double squares = 0;
        int groups = 2_000;
        for (int group = 0; group < groups; group++) {
            int enforced = 0;
            for (int t = 0; t < 200; t++) {
                if (modes.mode(SEARCH, "customer-" + group + "-" + t) == Mode.ENFORCE) {
                    enforced++;
                }
            }
            sum += enforced;
            squares += (double) enforced * enforced;
        }
        double mean = sum / groups;
        double sigma = Math.sqrt(squares / groups - mean * mean);
        // the sample sigma of 2,000 binomial groups lies within about 3 % of 6.12 (3 standard errors: 6.12 +- 0.29)
        assertThat(mean).isBetween(49.0, 51.0);
        assertThat(sigma).isBetween(5.8, 6.45);
    }

    @Test
    void everyInstanceAndEveryRestartPicksTheSameTenants() {
        assertThat(enforced(rollout(25, "spring-launch", Set.of(), Set.of())))
                .isEqualTo(enforced(rollout(25, "spring-launch", Set.of(), Set.of())));
    }

    @Test
    void aNewSaltPicksOtherTenants() {
        Set<String> first = enforced(rollout(25, "spring-launch", Set.of(), Set.of()));
        Set<String> second = enforced(rollout(25, "autumn-launch", Set.of(), Set.of()));
        Set<String> both = new HashSet<>(first);
        both.retainAll(second);
        // independent picks share a quarter of a quarter: about 625 tenants, not 2500
        assertThat(both.size()).isBetween(450, 800);
    }

    @Test
    void raisingThePercentageOnlyAddsTenants() {
        Set<String> quarter = enforced(rollout(25, "spring-launch", Set.of(), Set.of()));
        Set<String> half = enforced(rollout(50, "spring-launch", Set.of(), Set.of()));
        assertThat(half).containsAll(quarter).hasSizeGreaterThan(quarter.size());
    }

    @Test
    void listedTenantsWinOverThePercentage() {
        LimitModes nobody = rollout(0, "spring-launch", Set.of("acme"), Set.of());
        assertThat(nobody.mode(SEARCH, "acme")).isEqualTo(Mode.ENFORCE);
        assertThat(nobody.mode(SEARCH, "globex")).isEqualTo(Mode.SHADOW);

        LimitModes everybody = rollout(100, "spring-launch", Set.of(), Set.of("acme"));
        assertThat(everybody.mode(SEARCH, "acme")).isEqualTo(Mode.SHADOW);
        assertThat(everybody.mode(SEARCH, "globex")).isEqualTo(Mode.ENFORCE);
        assertThat(everybody.everyLimitEnforced()).as("a never list puts someone in shadow").isFalse();
    }

    @Test
    void aLimitsOwnModeWinsOverTheGlobalOneAndShadowOrOffIgnoreTheRollout() {
        LimitModes modes = new LimitModes(Mode.ENFORCE, 100, "s", Set.of("acme"), Set.of(),
                Map.of("search", Mode.OFF), Map.of(), false, null);
        assertThat(modes.mode(SEARCH, "acme")).isEqualTo(Mode.OFF);
        assertThat(new LimitModes(Mode.SHADOW, 100, "s", Set.of("acme"), Set.of(), Map.of(), Map.of(), false, null)
                .mode(SEARCH, "acme")).isEqualTo(Mode.SHADOW);
    }

    @Test
    void theSwitchOfEveryLimitTurnsEveryLimitOffWhateverItsOwnSettingSays() {
        Map<String, String> switches = Map.of("* mode", "off", "search mode", "enforce");
        LimitModes modes = new LimitModes(Mode.ENFORCE, 100, "s", Set.of(), Set.of(),
                Map.of("search", Mode.ENFORCE), Map.of(), false, () -> switches);

        assertThat(modes.mode(limit("search"), "acme")).isEqualTo(Mode.OFF);
        assertThat(modes.mode(limit("other"), "acme")).isEqualTo(Mode.OFF);
        assertThat(modes.concurrencyMode()).isEqualTo(Mode.OFF);
    }

    @Test
    void theShadowSwitchOfEveryLimitShadowsEnforcedLimitsAndLeavesOffOnesOff() {
        Map<String, String> switches = Map.of("* mode", "shadow");
        LimitModes modes = new LimitModes(Mode.ENFORCE, 100, "s", Set.of("acme"), Set.of(),
                Map.of("search", Mode.ENFORCE, "quiet", Mode.OFF), Map.of(), false, () -> switches);

        assertThat(modes.mode(limit("search"), "acme")).isEqualTo(Mode.SHADOW);
        assertThat(modes.mode(limit("quiet"), "acme")).isEqualTo(Mode.OFF);
        assertThat(modes.concurrencyMode()).isEqualTo(Mode.SHADOW);
    }

    @Test
    void theEnforceSwitchOfEveryLimitLeavesALimitsOwnSettingInForce() {
        Map<String, String> switches = Map.of("* mode", "enforce");
        LimitModes modes = new LimitModes(Mode.SHADOW, 100, "s", Set.of(), Set.of(),
                Map.of("quiet", Mode.OFF), Map.of(), false, () -> switches);

        assertThat(modes.mode(limit("quiet"), "acme")).isEqualTo(Mode.OFF);
        assertThat(modes.mode(limit("search"), "acme")).isEqualTo(Mode.ENFORCE);
        assertThat(modes.concurrencyMode()).isEqualTo(Mode.ENFORCE);
    }

    @Test
    void aLimitWithoutATenantIsEnforcedOnlyAtAHundred() {
        assertThat(rollout(99, "s", Set.of(), Set.of()).mode(SEARCH, null)).isEqualTo(Mode.SHADOW);
        assertThat(rollout(100, "s", Set.of(), Set.of()).mode(SEARCH, null)).isEqualTo(Mode.ENFORCE);
    }

    @Test
    void theDefaultEnforcesEverythingWithoutAskingPerCall() {
        assertThat(rollout(100, "s", Set.of(), Set.of()).everyLimitEnforced()).isTrue();
        assertThat(rollout(100, "s", Set.of("acme"), Set.of()).everyLimitEnforced()).isTrue();
    }

    private static LimitModes rollout(int percentage, String salt, Set<String> always, Set<String> never) {
        return new LimitModes(Mode.ENFORCE, 100, salt, always, never, Map.of(), Map.of("search", percentage), false, null);
    }

    private static Set<String> enforced(LimitModes modes) {
        return TENANTS.stream().filter(tenant -> modes.mode(SEARCH, tenant) == Mode.ENFORCE)
                .collect(Collectors.toSet());
    }

    private static LimitDefinition limit(String name) {
        return LimitDefinition.builder(name, 100, 60_000).build();
    }
}
