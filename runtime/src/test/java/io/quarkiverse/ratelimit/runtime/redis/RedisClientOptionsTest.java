package io.quarkiverse.ratelimit.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;

/** A connection of the rate limiter's own to one cluster master carries the client's credentials and TLS. */
class RedisClientOptionsTest {

    @Test
    void aNodesOptionsKeepTheClientsSchemeCredentialsAndTls() {
        RedisClientOptions captured = new RedisClientOptions("<default>");
        assertThat(captured.forNode("10.0.0.2", 7001)).as("before Quarkus built the client").isNull();

        RedisOptions client = new RedisOptions().setType(RedisClientType.CLUSTER)
                .setEndpoints(List.of("rediss://limiter:s3cret@redis-0.example:6379", "rediss://redis-1.example:6379"))
                .setPassword("s3cret").setNetClientOptions(new NetClientOptions().setSsl(true));
        captured.customize("other", new RedisOptions().setEndpoint("redis://elsewhere:6379"));
        captured.customize("<default>", client);

        RedisOptions node = captured.forNode("10.0.0.2", 7001);
        assertThat(node.getType()).isEqualTo(RedisClientType.STANDALONE);
        assertThat(node.getEndpoints()).containsExactly("rediss://limiter:s3cret@10.0.0.2:7001");
        assertThat(node.getPassword()).isEqualTo("s3cret");
        assertThat(node.getNetClientOptions().isSsl()).isTrue();
        assertThat(client.getType()).as("the client's own options are left as they were").isEqualTo(RedisClientType.CLUSTER);
    }

    @Test
    void aConnectionOnItsEventLoopIsOpenedByAClientOfItsOwnUnlessBehindSentinel() {
        RedisClientOptions captured = new RedisClientOptions("<default>");
        assertThat(captured.forEventLoop()).as("before Quarkus built the client").isNull();

        RedisOptions standalone = new RedisOptions().setEndpoint("rediss://limiter:s3cret@redis-0.example:6379")
                .setNetClientOptions(new NetClientOptions().setSsl(true));
        captured.customize("<default>", standalone);
        RedisOptions own = captured.forEventLoop();
        assertThat(own).isNotSameAs(standalone);
        assertThat(own.getEndpoint()).isEqualTo("rediss://limiter:s3cret@redis-0.example:6379");
        assertThat(own.getNetClientOptions().isSsl()).isTrue();

        captured.customize("<default>", new RedisOptions().setType(RedisClientType.CLUSTER)
                .setEndpoints(List.of("redis://redis-0.example:6379", "redis://redis-1.example:6379")));
        assertThat(captured.forEventLoop().getType()).isEqualTo(RedisClientType.CLUSTER);

        captured.customize("<default>", new RedisOptions().setType(RedisClientType.SENTINEL)
                .setEndpoints(List.of("redis://sentinel-0.example:26379")).setMasterName("limits"));
        assertThat(captured.forEventLoop()).as("behind Sentinel, the client Quarkus built").isNull();
    }

    @Test
    void aNamedClientIsRecognisedByItsName() {
        RedisClientOptions captured = new RedisClientOptions("limits");
        captured.customize("<default>", new RedisOptions().setEndpoint("redis://default:6379"));
        assertThat(captured.forNode("10.0.0.3", 7002)).isNull();
        captured.customize("limits", new RedisOptions().setEndpoint("redis://limits:6379"));
        assertThat(captured.forNode("10.0.0.3", 7002).getEndpoints()).containsExactly("redis://10.0.0.3:7002");
    }
}
