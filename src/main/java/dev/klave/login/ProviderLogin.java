package dev.klave.login;

import static dev.klave.login.SignInError.DISABLED;
import static dev.klave.login.SignInError.UNKNOWN_ACCOUNT;
import static java.util.Objects.requireNonNull;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.OpenedSession;
import dev.klave.account.Subject;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sign-in flow (spec 1 §5 "Forge login checks", spec 2 §5): the identity opens the account it
 * is linked to, or — the first time — the account the method finds for it (by e-mail, OIDC only),
 * which it is then linked to. Either way one transaction checks again that the account is still
 * enabled and still this identity's, and opens the session with its {@code login.success}.
 */
final class ProviderLogin {
    private final Linking linking;
    private final SignInParts parts;
    private final SignInPages pages;

    ProviderLogin(Linking linking, SignInParts parts, SignInPages pages) {
        this.linking = requireNonNull(linking, "linking is null");
        this.parts = requireNonNull(parts, "parts is null");
        this.pages = requireNonNull(pages, "pages is null");
    }

    ExternalSignIn.Step signIn(SignInMethod.ProviderIdentity identity, InetAddress client, String landing)
            throws SignInFailure {
        Optional<ExternalIdentity> found = parts.identities().find(identity.key());
        if (found.isEmpty()) {
            return firstSignIn(identity, client, landing);
        }
        ExternalIdentity linked = found.get();
        Subject subject = parts.subjects().findById(linked.subjectId()).orElseThrow(() -> SignInFailure.of(
                UNKNOWN_ACCOUNT, Linking.describe(identity) + " is linked to an account that does not exist"));
        if (!subject.enabled()) {
            throw SignInFailure.of(DISABLED, subject, "the account is disabled");
        }
        linking.method().admit(identity, subject);
        OpenedSession opened = linking.inTransaction(() -> {
            // Unlinked (or linked elsewhere) while the provider was being asked: not this account any more.
            boolean stillLinked = parts.identities().find(identity.key())
                    .map(current -> current.subjectId().equals(subject.id())).orElse(false);
            Optional<Subject> current = parts.subjects().findById(subject.id()).filter(Subject::enabled);
            if (!stillLinked || current.isEmpty()) {
                throw new Linking.Outcome(stillLinked ? SignInFailure.of(DISABLED, subject, "disabled during the sign-in")
                        : SignInFailure.of(UNKNOWN_ACCOUNT, subject, "unlinked during the sign-in"));
            }
            parts.identities().refresh(subject.id(), identity.key(), identity.display().or(linked::display),
                    identity.email().or(linked::email));
            if (identity.email().isPresent() && linked.email().isPresent()
                    && !identity.email().get().equals(linked.email().get())) {
                // Spec 2 §5 rule 6: the provider changed the address; the account's own stays as it is.
                // Only OIDC identities carry an e-mail (the forge's never does: ForgeSignIn.identify).
                parts.events().event(EventType.OIDC_EMAIL_CHANGED).target(current.get()).via(linking.via())
                        .details(Map.of("from", linked.email().get(), "to", identity.email().get())).record();
            }
            return signedIn(current.get(), identity, client);
        });
        parts.meters().succeeded(linking.via());
        return new ExternalSignIn.Step(pages.page(landing), List.of(pages.sessionCookie(opened)));
    }

    /** An identity linked to no account: linked by e-mail when the method finds one (spec 2 §5 rule 7). */
    private ExternalSignIn.Step firstSignIn(SignInMethod.ProviderIdentity identity, InetAddress client,
            String landing) throws SignInFailure {
        SignInMethod.FirstSignIn first = linking.method().firstSignIn(identity);
        Subject subject = first.subject();
        linking.method().admit(identity, subject);
        OpenedSession opened = linking.inTransaction(() -> {
            Optional<Subject> current = parts.subjects().findById(subject.id()).filter(Subject::enabled);
            if (current.isEmpty()) {
                throw new Linking.Outcome(SignInFailure.of(DISABLED, subject, "disabled during the sign-in"));
            }
            Optional<ExternalIdentity> now = parts.identities().findFor(subject.id(), linking.method().provider());
            if (!now.map(ExternalIdentity::key).equals(first.replaced().map(ExternalIdentity::key))) {
                throw new Linking.Outcome(SignInFailure.of(UNKNOWN_ACCOUNT, subject, "the account was linked meanwhile"));
            }
            linking.link(identity, subject);
            int revoked = parts.links().revokePending(subject.id(), parts.clock().instant());
            Subject named = current.get();
            if (identity.display().isPresent() && (named.displayName().isBlank()
                    || named.displayName().equals(named.login().value()))) {
                // Spec 2 §3: an account without a name takes the provider's.
                named = parts.subjects().update(subject.id(), account -> account.withDisplayName(identity.display().get()));
            }
            Map<String, Object> details = new LinkedHashMap<>(Linking.identityDetails(identity));
            details.put("issuer", identity.key().issuer());
            details.put("claim", identity.key().claim());
            details.put("invites_revoked", revoked);
            first.replaced().ifPresent(old -> {
                if (!old.key().issuer().equals(identity.key().issuer())) {
                    details.put("replaced_issuer", old.key().issuer());
                }
                if (!old.key().claim().equals(identity.key().claim())) {
                    details.put("replaced_claim", old.key().claim());
                }
            });
            // Only OIDC links by e-mail: the forge's firstSignIn links nothing (SignInMethod.firstSignIn).
            parts.events().event(EventType.OIDC_LINK).target(named).via(Via.EMAIL).details(details).from(client)
                    .record();
            return signedIn(named, identity, client);
        });
        parts.meters().succeeded(linking.via());
        return new ExternalSignIn.Step(pages.page(landing), List.of(pages.sessionCookie(opened)));
    }

    /** Inside the sign-in's transaction: the session and {@code login.success} (with {@code amr}, {@code acr}). */
    private OpenedSession signedIn(Subject subject, SignInMethod.ProviderIdentity identity, InetAddress client) {
        OpenedSession session = parts.sessions().open(subject);
        Map<String, Object> details = new LinkedHashMap<>();
        for (String key : List.of("amr", "acr")) {
            if (identity.details().containsKey(key)) {
                details.put(key, identity.details().get(key));
            }
        }
        parts.events().event(EventType.LOGIN_SUCCESS).target(subject).via(linking.via()).details(details)
                .from(client).record();
        return session;
    }
}
