package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import java.util.regex.Pattern;

/** Where a grant applies: one namespace, or {@code *} for the whole cluster. */
public record Scope(String value) {
    public static final Scope ALL = new Scope("*");
    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

    public Scope {
        requireNonNull(value, "value is null");
        if (!value.equals("*") && !NAMESPACE.matcher(value).matches()) {
            throw Message.SCOPE_INVALID.refusal();
        }
    }

    public boolean wholeCluster() {
        return value.equals("*");
    }

    @Override
    public String toString() {
        return value;
    }
}
