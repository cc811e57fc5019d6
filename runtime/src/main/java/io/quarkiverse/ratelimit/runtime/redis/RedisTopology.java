package io.quarkiverse.ratelimit.runtime.redis;

/** Which Redis node decides for a key: one node outside a cluster, the owner of the key's slot in one. */
public interface RedisTopology {

    /** The node of every key outside a cluster, and in a cluster while a key's owner is not known. */
    String UNKNOWN = "redis";

    /** Whether Redis is a cluster (one node per master) rather than one node. */
    boolean cluster();

    /** The node that decides for {@code key} now, as last heard; {@link #UNKNOWN} outside a cluster. */
    String nodeOf(String key);

    /** Whether {@code node} decides for some key now. */
    boolean decides(String node);
}
