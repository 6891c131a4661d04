package dev.klave.cluster;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.util.regex.Pattern;

/** A cluster's id: a DNS label (RFC 1123), because it is a URL segment and part of object names. */
public record ClusterId(String value) {
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    public ClusterId {
        requireNonNull(value, "value is null");
        if (!isValid(value)) {
            throw Message.CLUSTER_ID_FORMAT.refusal();
        }
    }

    public static boolean isValid(String text) {
        return text != null && LABEL.matcher(text).matches();
    }

    @Override
    public String toString() {
        return value;
    }
}
