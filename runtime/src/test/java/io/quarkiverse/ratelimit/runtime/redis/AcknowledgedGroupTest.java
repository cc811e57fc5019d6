package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.vertx.core.Promise;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;

/** Group commit: one group in flight; what arrives meanwhile forms the next group, bounded in size. */
class AcknowledgedGroupTest {

    private final AcknowledgedGroup group = new AcknowledgedGroup();

    @Test
    void theFirstDecisionSendsAndTheOthersWaitForTheNextGroup() {
        assertThat(add()).as("nothing in flight: send now").isTrue();
        assertThat(group.next()).hasSize(1);
        assertThat(add()).as("a group in flight").isFalse();
        assertThat(add()).isFalse();

        assertThat(group.next()).as("sent when the group before is answered").hasSize(2);
        assertThat(group.next()).as("nothing waits: no group in flight any more").isNull();
        assertThat(add()).isTrue();
    }

    @Test
    void aGroupIsBoundedAndTheRestFollows() {
        for (int i = 0; i < AcknowledgedGroup.MAX_SIZE + 10; i++) {
            add();
        }
        assertThat(group.next()).hasSize(AcknowledgedGroup.MAX_SIZE);
        assertThat(group.next()).hasSize(10);
        assertThat(group.next()).isNull();
    }

    private boolean add() {
        return group.add(Request.cmd(Command.PING), Promise.promise());
    }
}
