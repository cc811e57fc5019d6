package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.ratelimit.RateLimitDecision;
import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.types.MultiType;
import io.vertx.redis.client.impl.types.NumberType;

/**
 * The Java half of the decision replies' contract (lua/rate_limit.lua): a waiting call's reply carries the decision's
 * clock after its limits' values, and a batch's flat reply is split into its calls' replies by that rule.
 */
class ScriptRepliesTest {

    static final long CLOCK = 1_700_000_000_123_456L;

    @Test
    void aBatchReplyIsSplitIntoItsCallsRepliesAWaitingCallsWithItsClock() {
        Response batch = reply(1, 3, 1000, 0, // admitted at once
                1, 0, 1800, 800, CLOCK, // admitted for a slot 800 ms later, then the decision's clock
                0, 0, 500, 250, 1, 5, 900, 0); // a call of two limits, refused by the first
        assertThat(ScriptReplies.replySize(batch, 0, 1)).isEqualTo(4);
        assertThat(ScriptReplies.replySize(batch, 4, 1)).isEqualTo(5);
        assertThat(ScriptReplies.replySize(batch, 9, 2)).isEqualTo(8);
    }

    @Test
    void aBatchsCompactReplyIsACallOfOneLimitAdmittedAtOnce() {
        List<LimitDefinition> one = List.of(LimitDefinition.builder("l", 100, 60_000).build());
        Response batch = reply(-1 - (41 + 59_250 * ScriptReplies.COMPACT_REMAINING), 0, 0, 500, -1);
        assertThat(ScriptReplies.replySize(batch, 0, 1)).isEqualTo(1);
        assertThat(ScriptReplies.replySize(batch, 1, 1)).as("a refusal that never fits: -1 last, not compact")
                .isEqualTo(4);
        RateLimitDecision admitted = ScriptReplies.decisions(one, new BatchedReply(batch, 0, 1)).get(0);
        assertThat(admitted.allowed()).isTrue();
        assertThat(admitted.remaining()).isEqualTo(41);
        assertThat(admitted.resetAfter()).isEqualTo(Duration.ofMillis(59_250));
        assertThat(admitted.retryAfter()).isEqualTo(Duration.ZERO);
        assertThat(admitted.waitTime()).isEqualTo(Duration.ZERO);
        assertThat(ScriptReplies.decisionClockMicros(one, new BatchedReply(batch, 0, 1))).isEqualTo(-1);
    }

    @Test
    void theClockOfAWaitingCallsDecision() {
        List<LimitDefinition> one = List.of(LimitDefinition.builder("l", 2, 1000).maxWait(5000).build());
        assertThat(ScriptReplies.decisionClockMicros(one, reply(1, 0, 1800, 800, CLOCK))).isEqualTo(CLOCK);
        assertThat(ScriptReplies.decisionClockMicros(one, reply(1, 1, 500, 0))).as("a call that does not wait").isEqualTo(-1);
        assertThat(ScriptReplies.decisions(one, reply(1, 0, 1800, 800, CLOCK)).get(0).waitTime().toMillis()).isEqualTo(800);
    }

    private static Response reply(long... values) {
        MultiType reply = MultiType.create(values.length, false);
        for (long value : values) {
            reply.add(NumberType.create(value));
        }
        return reply;
    }
}
