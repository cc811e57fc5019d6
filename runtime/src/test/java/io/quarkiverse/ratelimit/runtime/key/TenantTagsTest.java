package io.quarkiverse.ratelimit.runtime.key;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class TenantTagsTest {

    @Test
    void plainIdsStayReadable() {
        assertThat(TenantTags.forTenant("acme-corp_42.eu@example")).isEqualTo("acme-corp_42.eu@example");
    }

    @Test
    void characterThatCouldBreakAKeyOrItsHashTagAreEscaped() {
        assertThat(TenantTags.forTenant("a}:{b")).isEqualTo("a%7D%3A%7Bb");
        assertThat(TenantTags.forTenant("*\\ ")).isEqualTo("%2A%5C%20");
        assertThat(TenantTags.forTenant("é")).isEqualTo("%C3%A9");
    }

    @Test
    void distinctIdsNeverShareATag() {
        List<String> ids = List.of("a}:{b", "a%7D%3A%7Bb", "a", "b", "%", "%25", "~anonymous", "~ip:1.2.3.4", "1.2.3.4",
                "x".repeat(64), "x".repeat(65), "x".repeat(65) + "y", "~h:abc");
        Set<String> tags = new HashSet<>();
        ids.forEach(id -> tags.add(TenantTags.forTenant(id)));
        tags.add(TenantTags.forClientAddress("1.2.3.4"));
        tags.add(TenantTags.ANONYMOUS);
        assertThat(tags).hasSize(ids.size() + 2);
    }

    @Test
    void longIdsAreHashedToABoundedLength() {
        String tag = TenantTags.forTenant("t".repeat(4096));
        assertThat(tag).startsWith("~h:").hasSize(3 + 43);
        assertThat(TenantTags.forTenant("é".repeat(22))).startsWith("~h:");
        assertThat(TenantTags.forTenant("x".repeat(TenantTags.MAX_ESCAPED_LENGTH))).doesNotStartWith("~h:");
    }

    @Test
    void clientAddressesAreKeptApartFromTenantIds() {
        assertThat(TenantTags.forClientAddress("::1")).isEqualTo("~ip:%3A%3A1");
        assertThat(TenantTags.forClientAddress("10.0.0.1")).isNotEqualTo(TenantTags.forTenant("10.0.0.1"));
    }
}
