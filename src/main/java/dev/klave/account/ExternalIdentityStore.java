package dev.klave.account;

import java.util.List;
import java.util.Optional;

/**
 * Storage of the accounts' external identities (spec 1 §2 "forge link", spec 2 §2 "Provider
 * identity"). Every method is one statement or joins the caller's transaction.
 */
public interface ExternalIdentityStore {
    /** The identity with this key, whichever account holds it. */
    Optional<ExternalIdentity> find(ExternalIdentity.Key key);

    /** The account's identity at {@code provider}, if it has one. */
    Optional<ExternalIdentity> findFor(SubjectId subject, IdentityProvider provider);

    /** Every identity of the account, in provider order. */
    List<ExternalIdentity> listFor(SubjectId subject);

    /** Every identity at {@code provider} (the forge sync walks these). */
    List<ExternalIdentity> list(IdentityProvider provider);

    /** The identities of each of {@code subjects} (a page of accounts), every provider's. */
    List<ExternalIdentity> listFor(java.util.Collection<SubjectId> subjects);

    /**
     * Links {@code identity} to its account, replacing the account's earlier identity at the same
     * provider (spec 1 §5: a linking link "switches an account to another forge account").
     *
     * @throws dev.klave.storage.AlreadyExistsException when another account holds the key
     */
    void link(ExternalIdentity identity);

    /** Removes the account's identity at {@code provider}; returns whether there was one. */
    boolean unlink(SubjectId subject, IdentityProvider provider);

    /**
     * Stores a new display name (and e-mail) for the identity with this key, if it is still linked
     * to {@code subject}; returns whether it was.
     */
    boolean refresh(SubjectId subject, ExternalIdentity.Key key, Optional<String> display, Optional<String> email);
}
