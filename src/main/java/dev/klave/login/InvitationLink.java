package dev.klave.login;

import static dev.klave.login.SignInError.LINK_GONE;
import static java.util.Objects.requireNonNull;

import dev.klave.account.LinkToken;
import dev.klave.account.OpenedSession;
import dev.klave.account.Subject;
import dev.klave.audit.EventType;
import dev.klave.crypto.SecretToken;
import dev.klave.crypto.TokenKind;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import java.net.InetAddress;
import java.util.List;

/**
 * Completing an invitation or linking link through the provider (spec 1 §3, §5 "Linking"): the
 * link is spent, the identity linked to its account, the account's other sessions closed and a
 * new one opened — in one transaction, so a link used twice at once serves one of them.
 */
final class InvitationLink {
    private final Linking linking;
    private final SignInParts parts;
    private final SignInPages pages;

    InvitationLink(Linking linking, SignInParts parts, SignInPages pages) {
        this.linking = requireNonNull(linking, "linking is null");
        this.parts = requireNonNull(parts, "parts is null");
        this.pages = requireNonNull(pages, "pages is null");
    }

    /**
     * The hash of a link that may be completed now.
     *
     * @throws Refusal 404 {@code enlace no válido} for a token that never existed, 410 when it was
     *     spent, revoked or has expired, or its account is disabled
     */
    String usable(String tokenText) {
        SecretToken token = SecretToken.parse(TokenKind.LINK, tokenText == null ? "" : tokenText)
                .orElseThrow(Message.LINK_INVALID::refusal);
        LinkToken link = parts.links().findByHash(token.hash()).orElseThrow(Message.LINK_INVALID::refusal);
        if (!link.usableAt(parts.clock().instant())
                || parts.subjects().findById(link.subjectId()).filter(Subject::enabled).isEmpty()) {
            throw Message.LINK_GONE.refusal();
        }
        return token.hash();
    }

    ExternalSignIn.Step complete(SignInMethod.ProviderIdentity identity, String linkTokenHash, InetAddress client)
            throws SignInFailure {
        LinkToken link = parts.links().findByHash(linkTokenHash)
                .filter(found -> found.usableAt(parts.clock().instant()))
                .orElseThrow(() -> SignInFailure.of(LINK_GONE, "the link was spent, revoked or has expired"));
        Subject subject = parts.subjects().findById(link.subjectId()).filter(Subject::enabled)
                .orElseThrow(() -> SignInFailure.of(LINK_GONE, "the link's account is disabled"));
        linking.refuseTaken(identity, subject);
        linking.method().admit(identity, subject);
        OpenedSession opened = linking.inTransaction(() -> {
            if (!parts.links().consume(link.id(), parts.clock().instant())) {
                throw new Linking.Outcome(SignInFailure.of(LINK_GONE, subject, "the link was used meanwhile"));
            }
            linking.link(identity, subject);
            // Spec 1 §3: using a linking link closes the person's sessions.
            parts.sessions().closeAll(subject.id());
            OpenedSession session = parts.sessions().open(subject);
            Linking.withEmailMismatch(parts.events().event(EventType.LINK_COMPLETE).target(subject)
                    .via(linking.via()).reason(link.purpose().code()).from(client), identity, subject).record();
            return session;
        });
        return new ExternalSignIn.Step(pages.page("/"), List.of(pages.sessionCookie(opened)));
    }
}
