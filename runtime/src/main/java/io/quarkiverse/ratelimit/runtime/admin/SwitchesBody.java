package io.quarkiverse.ratelimit.runtime.admin;

import java.util.List;

import io.quarkiverse.ratelimit.FailureMode;
import io.quarkiverse.ratelimit.Mode;
import io.quarkiverse.ratelimit.runtime.config.ConfigSpelling;
import io.quarkiverse.ratelimit.runtime.policy.LimitModes;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/** A PUT body of the switches endpoints ({@link AdminHandler}): each setting optional, nothing else allowed. */
record SwitchesBody(Mode mode, Integer rolloutPercentage, FailureMode failureMode) {

    /** The settings' names in JSON, as GET answers them. */
    private static final List<String> SETTINGS = LimitModes.SETTINGS.stream().map(LimitModes::settingName).toList();

    static SwitchesBody of(Buffer body) {
        JsonObject json;
        try {
            json = body == null || body.length() == 0 ? null : new JsonObject(body);
        } catch (DecodeException | ClassCastException e) {
            json = null;
        }
        if (json == null) {
            throw new IllegalArgumentException("The body must be a JSON object: {\"mode\": \"enforce\" | \"shadow\""
                    + " | \"off\", \"rolloutPercentage\": 0 to 100, \"failureMode\": \"local\" | \"fail-open\""
                    + " | \"fail-closed\"}, each optional");
        }
        for (String field : json.fieldNames()) {
            if (!SETTINGS.contains(field)) {
                throw new IllegalArgumentException("Unknown setting '" + field
                        + "'; the settings are mode, rolloutPercentage and failureMode");
            }
        }
        return new SwitchesBody(constant(json, "mode", Mode.class), percentage(json), constant(json, "failureMode",
                FailureMode.class));
    }

    private static Integer percentage(JsonObject json) {
        Object value = json.getValue("rolloutPercentage");
        if (value == null) {
            return null;
        }
        if (!(value instanceof Number number) || number.doubleValue() != number.intValue()) {
            throw new IllegalArgumentException("rolloutPercentage must be a whole number from 0 to 100, not "
                    + value);
        }
        return number.intValue();
    }

    private static <E extends Enum<E>> E constant(JsonObject json, String field, Class<E> type) {
        Object value = json.getValue(field);
        if (value == null) {
            return null;
        }
        try {
            E constant = Enum.valueOf(type, ConfigSpelling.constant(value.toString()));
            if (constant != FailureMode.DEFAULT) {
                return constant;
            }
        } catch (IllegalArgumentException e) {
            // below
        }
        throw new IllegalArgumentException(field + " cannot be '" + value + "'; it is one of "
                + ConfigSpelling.realValues(type));
    }
}
