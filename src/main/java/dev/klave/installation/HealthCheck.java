package dev.klave.installation;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/** One check of the installation's health: its name, its state, and what the operator should read. */
public record HealthCheck(CheckName name, CheckState state, Optional<String> detail) {
    public HealthCheck {
        requireNonNull(name, "name is null");
        requireNonNull(state, "state is null");
        requireNonNull(detail, "detail is null");
    }
}
