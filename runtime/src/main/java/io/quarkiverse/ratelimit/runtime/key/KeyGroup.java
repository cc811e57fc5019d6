package io.quarkiverse.ratelimit.runtime.key;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.ratelimit.runtime.limit.LimitDefinition;

/**
 * Counters that share one hash tag, with their limits: one script call reads or resets them (a call's keys must be in
 * one cluster slot).
 */
public record KeyGroup(List<String> keys, List<LimitDefinition> limits) {

    /** {@code owned}'s counters (key to limit) grouped by their keys' hash tags, in the order first met. */
    public static List<KeyGroup> byHashTag(Map<String, LimitDefinition> owned) {
        Map<String, KeyGroup> byTag = new LinkedHashMap<>();
        owned.forEach((key, limit) -> {
            String hashTag = key.substring(key.indexOf('{'), key.indexOf('}') + 1);
            KeyGroup group = byTag.computeIfAbsent(hashTag, ignored -> new KeyGroup(new ArrayList<>(), new ArrayList<>()));
            group.keys().add(key);
            group.limits().add(limit);
        });
        return List.copyOf(byTag.values());
    }
}
