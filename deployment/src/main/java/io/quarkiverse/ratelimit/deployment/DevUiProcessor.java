package io.quarkiverse.ratelimit.deployment;

import java.util.List;

import io.quarkiverse.ratelimit.runtime.devui.RateLimitJsonRpcService;
import io.quarkus.deployment.IsLocalDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;

/**
 * The Dev UI card (dev mode only): the limits, a tenant's status and reset, who is refused most, Redis and the circuit
 * breaker.
 */
public class DevUiProcessor {

    @BuildStep(onlyIf = IsLocalDevelopment.class)
    CardPageBuildItem card(List<RateLimitedMethodBuildItem> methods) {
        long limits = methods.stream().mapToLong(method -> method.limits().getLimits().size()).sum();
        CardPageBuildItem card = new CardPageBuildItem();
        card.addPage(Page.webComponentPageBuilder()
                .title("Limits")
                .icon("font-awesome-solid:gauge-high")
                .componentLink("qwc-rate-limit-limits.js")
                .staticLabel(String.valueOf(limits)));
        card.addPage(Page.webComponentPageBuilder()
                .title("Tenant status")
                .icon("font-awesome-solid:user-clock")
                .componentLink("qwc-rate-limit-tenant.js"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Refused most")
                .icon("font-awesome-solid:ban")
                .componentLink("qwc-rate-limit-refused.js"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Redis and breaker")
                .icon("font-awesome-solid:heart-pulse")
                .componentLink("qwc-rate-limit-breaker.js"));
        return card;
    }

    @BuildStep(onlyIf = IsLocalDevelopment.class)
    JsonRPCProvidersBuildItem jsonRpcService() {
        return new JsonRPCProvidersBuildItem(RateLimitJsonRpcService.class);
    }
}
