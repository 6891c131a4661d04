package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What an administrator may change on an account ({@code PATCH /api/subjects/{id}}); an empty
 * field is left as it is, and an empty e-mail text removes the address.
 *
 * @param writesNeedApproval a bot's writes-need-approval setting (spec 3 §4)
 */
public record SubjectChanges(Optional<String> displayName, Optional<String> email, Optional<Boolean> admin,
        Optional<Boolean> writesNeedApproval) {
    public SubjectChanges {
        requireNonNull(displayName, "displayName is null");
        requireNonNull(email, "email is null");
        requireNonNull(admin, "admin is null");
        requireNonNull(writesNeedApproval, "writesNeedApproval is null");
    }
}
