package dev.klave.installation;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One check of the installation's health: its name, whether it passes ({@code ok}), fails
 * ({@code failing}) or does not apply ({@code off}), and what the operator should read.
 */
public record HealthCheck(String name, String state, Optional<String> detail) {
    public static final String OK = "ok";
    public static final String FAILING = "failing";
    public static final String OFF = "off";

    public HealthCheck {
        requireNonNull(name, "name is null");
        requireNonNull(state, "state is null");
        requireNonNull(detail, "detail is null");
    }
}
