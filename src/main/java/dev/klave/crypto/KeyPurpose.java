package dev.klave.crypto;

import java.nio.charset.StandardCharsets;

/** What a derived key is for; the name is the HKDF {@code info} and must never change. */
public enum KeyPurpose {
    /** HMAC of the {@code service_session} cookie (spec 1 §5 "Sessions"). */
    SESSION_COOKIE("session-cookie"),
    /**
     * HMAC of the sign-in state cookie of the forge and OIDC logins (spec 1 §5 "Forge login
     * checks" 1, spec 2 §5). The cookie lives 10 minutes, so renaming this purpose costs at most
     * the sign-ins in flight.
     */
    SIGN_IN_STATE("sign-in-state"),
    /** AES-256-GCM of stored cluster tokens (spec 1 §2 "Cluster"). */
    CLUSTER_TOKENS("cluster-tokens"),
    /**
     * HMAC of the {@code requestState} of an agent's held write (spec 3 §4 "Write approval flow"),
     * binding the request to the credential, the arguments and an expiry.
     */
    AGENT_REQUEST_STATE("agent-request-state"),
    /**
     * AES-256-GCM of a held write's body (spec 3 §4 "Write approval flow"): an apply of a Secret
     * carries its values, which are kept sealed until the approved write runs.
     */
    HELD_WRITES("held-writes"),
    /** HMAC of the consent page's id: a checked authorization request (spec 3 §4 "Agent login"). */
    OAUTH_AUTHORIZATION("oauth-authorization"),
    /** Issue 41: webhook destinations' addresses and signing secrets, sealed at rest. */
    NOTIFY_DESTINATIONS("notify-destinations");

    private final String info;

    KeyPurpose(String info) {
        this.info = info;
    }

    byte[] info() {
        return ("klave " + info).getBytes(StandardCharsets.US_ASCII);
    }
}
