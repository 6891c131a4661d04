package dev.klave.credential;

import static java.util.Objects.requireNonNull;

import dev.klave.account.Login;
import dev.klave.storage.Keyset;

/** A credential as a listing shows it: with its owner's login, read in the same query. */
public record ListedCredential(Credential credential, Login ownerLogin) {
    public ListedCredential {
        requireNonNull(credential, "credential is null");
        requireNonNull(ownerLogin, "ownerLogin is null");
    }

    /** Where the page after this row starts. */
    public Keyset keyset() {
        return new Keyset(credential.createdAt(), credential.id());
    }
}
