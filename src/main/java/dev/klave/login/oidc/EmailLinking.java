package dev.klave.login.oidc;

import static dev.klave.login.SignInError.AMBIGUOUS_ACCOUNT;
import static dev.klave.login.SignInError.IDENTITY_MISMATCH;
import static java.util.Objects.requireNonNull;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.IdentityProvider;
import dev.klave.account.LinkTokenStore;
import dev.klave.account.SessionStore;
import dev.klave.account.Subject;
import dev.klave.account.SubjectStore;
import dev.klave.config.OidcSettings;
import dev.klave.login.SignInError;
import dev.klave.login.SignInFailure;
import dev.klave.login.SignInMethod;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A first sign-in with an identity linked to no account (spec 2 §5 rules 7 and 8, "Link policy"):
 * the person accounts whose e-mail matches, the table of outcomes, and the autolink policy.
 */
public final class EmailLinking {
    private final OidcSettings.Autolink policy;
    private final SubjectStore subjects;
    private final ExternalIdentityStore identities;
    private final SessionStore sessions;
    private final LinkTokenStore links;
    private final Clock clock;

    public EmailLinking(OidcSettings.Autolink policy, SubjectStore subjects, ExternalIdentityStore identities,
            SessionStore sessions, LinkTokenStore links, Clock clock) {
        this.policy = requireNonNull(policy, "policy is null");
        this.subjects = requireNonNull(subjects, "subjects is null");
        this.identities = requireNonNull(identities, "identities is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.links = requireNonNull(links, "links is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public SignInMethod.FirstSignIn firstSignIn(SignInMethod.ProviderIdentity identity) throws SignInFailure {
        String email = identity.email().orElseThrow(() -> SignInFailure.of(SignInError.NO_EMAIL, "no e-mail"));
        List<Subject> people = subjects.findPeopleByEmail(email);
        List<Subject> enabled = people.stream().filter(Subject::enabled).toList();
        if (enabled.size() >= 2) {
            throw SignInFailure.of(AMBIGUOUS_ACCOUNT, enabled.size() + " enabled accounts have the address")
                    .with(Map.of("candidates", enabled.stream().map(subject -> subject.login().value()).toList()));
        }
        if (enabled.isEmpty()) {
            throw people.isEmpty()
                    ? SignInFailure.of(SignInError.UNKNOWN_ACCOUNT, "no account has the address")
                    : SignInFailure.of(SignInError.DISABLED, "every account with the address is disabled")
                            .about(people.getFirst());
        }
        Subject subject = enabled.getFirst();
        Optional<ExternalIdentity> existing = identities.findFor(subject.id(), IdentityProvider.OIDC);
        ExternalIdentity.Key key = identity.key();
        if (existing.isPresent() && existing.get().key().issuer().equals(key.issuer())
                && existing.get().key().claim().equals(key.claim())) {
            // Same issuer and claim, another value: never replaced by e-mail (spec 2 §3).
            throw SignInFailure.of(IDENTITY_MISMATCH, "the account is linked to another identity of the provider")
                    .about(subject);
        }
        if (!allows(subject)) {
            throw SignInFailure.of(SignInError.UNKNOWN_ACCOUNT, "the autolink policy (" + policy.code()
                    + ") does not link this account by e-mail").about(subject);
        }
        return new SignInMethod.FirstSignIn(subject, existing);
    }

    /** Spec 2 §5 "Link policy". */
    private boolean allows(Subject subject) {
        return switch (policy) {
            case ALL -> true;
            case INVITED -> !sessions.everOpened(subject.id()) || links.hasPending(subject.id(), clock.instant());
            case OFF -> false;
        };
    }
}
