package dev.klave.login.forge;

import static java.util.Objects.requireNonNull;

/** A forge account: the numeric id is who it is, the login is what it is called today. */
public record ForgeUser(long id, String login) {
    public ForgeUser {
        if (id <= 0) {
            throw new IllegalArgumentException("forge ids are positive");
        }
        requireNonNull(login, "login is null");
    }
}
