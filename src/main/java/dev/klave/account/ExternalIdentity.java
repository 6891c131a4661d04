package dev.klave.account;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * An account's identity at an external provider. What identifies the person is {@link Key}
 * alone — the forge's numeric account id (spec 1 §5 "Forge login checks" 7), or the OIDC issuer,
 * subject claim name and its value (spec 2 §2) — never a login or an e-mail, which can change
 * hands. An account keeps at most one identity per provider; one identity links at most one
 * account.
 *
 * @param display what people recognise: the forge login (refreshed when renamed) or the OIDC name
 * @param email the provider's e-mail for the identity (OIDC), kept apart from the account's own
 */
public record ExternalIdentity(SubjectId subjectId, Key key, Optional<String> display, Optional<String> email,
        Instant linkedAt) {
    public ExternalIdentity {
        requireNonNull(subjectId, "subjectId is null");
        requireNonNull(key, "key is null");
        requireNonNull(display, "display is null");
        requireNonNull(email, "email is null");
        requireNonNull(linkedAt, "linkedAt is null");
    }

    /** What identifies the person at the provider. */
    public record Key(IdentityProvider provider, String issuer, String claim, String value) {
        /** The forge names no issuer: one Klave talks to one forge. */
        private static final String FORGE_ISSUER = "";
        private static final String FORGE_CLAIM = "id";

        public Key {
            requireNonNull(provider, "provider is null");
            requireNonNull(issuer, "issuer is null");
            requireNonNull(claim, "claim is null");
            requireNonNull(value, "value is null");
            if (claim.isEmpty() || value.isEmpty()) {
                throw new IllegalArgumentException("an external identity needs a claim and a value");
            }
        }

        /** The forge account with this numeric id. */
        public static Key forge(long forgeId) {
            if (forgeId <= 0) {
                throw new IllegalArgumentException("forge ids are positive");
            }
            return new Key(IdentityProvider.FORGE, FORGE_ISSUER, FORGE_CLAIM, Long.toString(forgeId));
        }

        public static Key oidc(String issuer, String claim, String value) {
            return new Key(IdentityProvider.OIDC, issuer, claim, value);
        }

        /** The forge's numeric account id; forge keys only. */
        public long forgeId() {
            if (provider != IdentityProvider.FORGE) {
                throw new IllegalStateException("not a forge identity");
            }
            return Long.parseLong(value);
        }
    }

    /** The same identity, shown under a new name (the forge login after a rename). */
    public ExternalIdentity withDisplay(String value) {
        return new ExternalIdentity(subjectId, key, Optional.of(value), email, linkedAt);
    }

    public ExternalIdentity withEmail(Optional<String> value) {
        return new ExternalIdentity(subjectId, key, display, value, linkedAt);
    }
}
