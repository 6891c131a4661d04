package dev.klave.access;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Login;
import dev.klave.storage.Keyset;

/** A grant as a listing shows it: with its holder's login and whether the holder is enabled, read in the same query. */
public record ListedGrant(Grant grant, Login holderLogin, boolean holderEnabled) {
    public ListedGrant {
        requireNonNull(grant, "grant is null");
        requireNonNull(holderLogin, "holderLogin is null");
    }

    /** Where the page after this row starts. */
    public Keyset keyset() {
        return new Keyset(grant.createdAt(), grant.id());
    }
}
