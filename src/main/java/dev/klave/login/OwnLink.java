package dev.klave.login;

import static dev.klave.login.SignInError.ALREADY_LINKED;
import static dev.klave.login.SignInError.DISABLED;
import static dev.klave.login.SignInError.STATE;
import static java.util.Objects.requireNonNull;

import dev.klave.account.ExternalIdentity;
import dev.klave.account.Principal;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.audit.EventType;
import dev.klave.http.Caller;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;

/**
 * Linking one's own account from {@code /mi-cuenta} (spec 1 §5 "Linking"): started by a session,
 * completed only when the same session comes back with the provider's answer; nothing else of the
 * account changes, and the browser goes back to the account page.
 */
final class OwnLink {
    /** The {@code reason} of {@code link.complete} when people link their own account from {@code /mi-cuenta}. */
    static final String LINKED_FROM_ACCOUNT_PAGE = "account_page";

    private final Linking linking;
    private final SignInParts parts;
    private final SignInPages pages;

    OwnLink(Linking linking, SignInParts parts, SignInPages pages) {
        this.linking = requireNonNull(linking, "linking is null");
        this.parts = requireNonNull(parts, "parts is null");
        this.pages = requireNonNull(pages, "pages is null");
    }

    /** @throws Refusal 409 when the account already has an identity at this provider */
    void refuseLinked(Principal caller) {
        if (parts.identities().findFor(caller.subjectId(), linking.method().provider()).isPresent()) {
            throw Message.IDENTITY_ALREADY_LINKED.refusal();
        }
    }

    /** The session that started the linking, back with the callback; any other is a state failure. */
    Caller.Session sameSession(List<String> cookieHeaders, SignInState state) throws SignInFailure {
        Caller.Session session;
        try {
            session = parts.sessions().authenticate(cookieHeaders);
        } catch (Refusal refusal) {
            throw SignInFailure.logOnly(STATE, "linking from the account page, but no session came back");
        }
        if (!MessageDigest.isEqual(session.sessionIdHash().getBytes(StandardCharsets.UTF_8),
                state.sessionHash().orElseThrow().getBytes(StandardCharsets.UTF_8))) {
            throw SignInFailure.logOnly(STATE, "linking from the account page, but another session came back");
        }
        return session;
    }

    ExternalSignIn.Step complete(SignInMethod.ProviderIdentity identity, Caller.Session starter, InetAddress client)
            throws SignInFailure {
        Subject subject = parts.subjects().findById(new SubjectId(starter.subjectId()))
                .filter(Subject::enabled)
                .orElseThrow(() -> SignInFailure.logOnly(STATE, "the session's account is gone"));
        Optional<ExternalIdentity> existing = parts.identities().findFor(subject.id(), linking.method().provider());
        if (existing.isPresent() && !existing.get().key().equals(identity.key())) {
            throw SignInFailure.of(ALREADY_LINKED, subject, "the account is linked to another identity already");
        }
        linking.refuseTaken(identity, subject);
        linking.method().admit(identity, subject);
        linking.inTransaction(() -> {
            // Again inside the transaction: a link completed meanwhile is not silently replaced.
            Optional<ExternalIdentity> now = parts.identities().findFor(subject.id(), linking.method().provider());
            if (now.isPresent() && !now.get().key().equals(identity.key())) {
                throw new Linking.Outcome(SignInFailure.of(ALREADY_LINKED, subject,
                        "linked to another identity meanwhile"));
            }
            if (parts.subjects().findById(subject.id()).filter(Subject::enabled).isEmpty()) {
                throw new Linking.Outcome(SignInFailure.of(DISABLED, subject, "disabled during the linking"));
            }
            linking.link(identity, subject);
            Linking.withEmailMismatch(parts.events().event(EventType.LINK_COMPLETE).actor(subject).target(subject)
                    .via(linking.via()).reason(LINKED_FROM_ACCOUNT_PAGE).from(client), identity, subject).record();
            return null;
        });
        return new ExternalSignIn.Step(pages.page("/mi-cuenta?" + linking.method().provider().code() + "=linked"),
                List.of());
    }
}
