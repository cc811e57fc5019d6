package io.quarkiverse.ratelimit.runtime.redis;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * Sends a command that takes no key to every master of a cluster, over connections of the rate limiter's own to each
 * master: {@code FUNCTION LOAD}, which must reach every master and which the cluster client would send to one. The
 * application's Redis client and its commands are left as they are (Quarkus's client offers no way to address a node:
 * it wraps the cluster connection, which Vert.x's {@code RedisCluster.onAllMasterNodes} then refuses). The masters are
 * asked for ({@code CLUSTER SLOTS}) on every send, so a master that appeared since (a failover, a resharding) gets the
 * command too; connections to nodes that are no longer masters are closed.
 */
final class EveryMaster {

    private final Vertx vertx;
    private final RedisClientOptions options;
    private final Function<Request, Future<Response>> send;
    /** One client per master, by "host:port". */
    private final Map<String, Redis> nodes = new ConcurrentHashMap<>();

    /**
     * @param send sends a command on the decisions' connections ({@code CLUSTER SLOTS})
     */
    EveryMaster(Vertx vertx, RedisClientOptions options, Function<Request, Future<Response>> send) {
        this.vertx = vertx;
        this.options = options;
        this.send = send;
    }

    /** Sends the request {@code command} makes to every master; fails when one of them fails it. */
    Future<Void> send(Supplier<Request> command) {
        return send.apply(Request.cmd(Command.CLUSTER).arg("SLOTS")).compose(slots -> {
            Set<String> masters = new HashSet<>();
            List<Future<Response>> replies = new ArrayList<>();
            for (Response range : slots) {
                Response master = range.get(2);
                String host = master.get(0).toString();
                int port = master.get(1).toInteger();
                String node = host + ':' + port;
                if (masters.add(node)) {
                    Redis client = client(node, host, port);
                    if (client == null) {
                        return Future.failedFuture("the Redis client's options are not known yet");
                    }
                    replies.add(client.send(command.get()));
                }
            }
            forgetAllBut(masters);
            return Future.all(replies).<Void> mapEmpty();
        });
    }

    private Redis client(String node, String host, int port) {
        Redis known = nodes.get(node);
        if (known != null) {
            return known;
        }
        RedisOptions nodeOptions = options.forNode(host, port);
        if (nodeOptions == null) {
            return null;
        }
        return nodes.computeIfAbsent(node, ignored -> Redis.createClient(vertx, nodeOptions));
    }

    private void forgetAllBut(Set<String> masters) {
        nodes.entrySet().removeIf(node -> {
            if (masters.contains(node.getKey())) {
                return false;
            }
            node.getValue().close();
            return true;
        });
    }

    void close() {
        nodes.values().forEach(Redis::close);
        nodes.clear();
    }
}
