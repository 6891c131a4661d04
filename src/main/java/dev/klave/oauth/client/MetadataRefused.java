package dev.klave.oauth.client;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import dev.klave.messages.Refusal;

/**
 * A client's metadata document, or the {@code client_id} URL naming it, refused; {@link #reason()}
 * says why and {@link #getMessage()} says it in the catalogue's words, for the person at the
 * authorization endpoint (spec 3 §4 rule 7: a plain-text 400).
 */
public final class MetadataRefused extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why, each with its text in the catalogue. */
    public enum Reason {
        /** The {@code client_id} is not an https URL (draft §3). */
        NOT_HTTPS(Message.CLIENT_ID_NOT_HTTPS),
        /** No host, no path, user info, a fragment, a dot segment, non-ASCII (draft §3). */
        BAD_URL(Message.CLIENT_ID_URL_INVALID),
        /** The host has an address other than a public one; nothing was sent. */
        PRIVATE_ADDRESS(Message.CLIENT_DOCUMENT_PRIVATE_ADDRESS),
        /** Unknown name, refused or reset connection, or an answer that is not HTTP/1.1. */
        UNREACHABLE(Message.CLIENT_DOCUMENT_UNREACHABLE),
        /** TLS failed: a certificate not trusted, or not for the host's name. */
        TLS(Message.CLIENT_DOCUMENT_TLS),
        /** No whole answer within the deadline. */
        TIMEOUT(Message.CLIENT_DOCUMENT_TIMEOUT),
        /** A 3xx: never followed (spec 3 §4). */
        REDIRECT(Message.CLIENT_DOCUMENT_REDIRECT),
        /** Any other status than 200. */
        HTTP_STATUS(Message.CLIENT_DOCUMENT_STATUS),
        /** A body over the limit, declared or counted. */
        TOO_LARGE(Message.CLIENT_DOCUMENT_TOO_LARGE),
        /** Not served as JSON, or not a JSON object (draft §4.1). */
        NOT_JSON(Message.CLIENT_DOCUMENT_NOT_JSON),
        /** The document's {@code client_id} is not its URL, compared as strings (draft §4.1). */
        CLIENT_ID_MISMATCH(Message.CLIENT_DOCUMENT_ID_MISMATCH),
        /** A secret, or an auth method other than {@code none} (draft §4.1; spec 3 §4). */
        NOT_PUBLIC_CLIENT(Message.CLIENT_DOCUMENT_NOT_PUBLIC),
        /** A field missing or of the wrong type; the message names the field. */
        BAD_DOCUMENT(Message.CLIENT_DOCUMENT_INVALID);

        private final Message message;

        Reason(Message message) {
            this.message = message;
        }

        public Message message() {
            return message;
        }
    }

    private final Reason reason;
    private final String[] arguments;

    MetadataRefused(Reason reason, String... arguments) {
        super(requireNonNull(reason, "reason is null").message.text((Object[]) arguments), null, false, false);
        this.reason = reason;
        this.arguments = arguments.clone();
    }

    public Reason reason() {
        return reason;
    }

    /** The same refusal, for the HTTP layer to answer with its status and text. */
    public Refusal refusal() {
        return reason.message.refusal((Object[]) arguments);
    }
}
