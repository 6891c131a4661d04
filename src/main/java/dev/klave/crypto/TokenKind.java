package dev.klave.crypto;

/** The kinds of bearer token Klave issues, each recognisable by its prefix. */
public enum TokenKind {
    /** A credential for the proxy (spec 1 §2 "Credential"). */
    CREDENTIAL("klt_"),
    /** An invitation, reset or linking link (spec 1 §2 "Link token"). */
    LINK("kli_"),
    /** An OAuth refresh token for agents (spec 3). */
    REFRESH("klr_");

    private final String prefix;

    TokenKind(String prefix) {
        this.prefix = prefix;
    }

    public String prefix() {
        return prefix;
    }
}
