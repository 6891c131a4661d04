package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/** What is needed to create a person; the display name defaults to the login. */
public record NewPerson(Login login, Optional<String> displayName, Optional<String> email, boolean admin,
        boolean breakGlass) {
    public NewPerson {
        requireNonNull(login, "login is null");
        requireNonNull(displayName, "displayName is null");
        requireNonNull(email, "email is null");
    }
}
