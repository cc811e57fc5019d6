package io.quarkiverse.ratelimit.deployment.config;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.ratelimit.deployment.config.StartupFailures.Labels;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Configuration shared by several applications, each using some of its policies: with
 * {@code quarkus.rate-limit.unused-policies=warn} the application starts, and a warning names the unused policy.
 */
class UnusedPolicyWarnedTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Labels.class))
            .overrideConfigKey("quarkus.rate-limit.tenant.header", "X-Tenant-Id")
            .overrideConfigKey("quarkus.rate-limit.unused-policies", "warn")
            .overrideConfigKey("quarkus.rate-limit.policies.invoices.limit", "3")
            .setLogRecordPredicate(record -> record.getLoggerName().endsWith("ConfiguredNames"))
            .assertLogRecords(records -> assertThat(records).singleElement()
                    .satisfies(record -> assertThat(((ExtLogRecord) record).getFormattedMessage()).isEqualTo(
                            "quarkus.rate-limit.policies.invoices.* is configured, but no @RateLimited(policy ="
                                    + " \"invoices\") uses it (policies in use: [labels])")));

    @Test
    void theApplicationStarts() {
        given().header("X-Tenant-Id", "acme").get("/labels/ups").then().statusCode(200);
    }
}
