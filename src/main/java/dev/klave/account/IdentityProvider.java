package dev.klave.account;

import dev.klave.audit.EventType;
import dev.klave.audit.Via;

/** Where an external identity comes from: the forge App (spec 1) or the OIDC provider (spec 2). */
public enum IdentityProvider {
    FORGE("forge", Via.FORGE, EventType.USER_FORGE_UNLINK),
    OIDC("oidc", Via.OIDC, EventType.USER_OIDC_UNLINK);

    private final String code;
    private final Via via;
    private final EventType unlinkEvent;

    IdentityProvider(String code, Via via, EventType unlinkEvent) {
        this.code = code;
        this.via = via;
        this.unlinkEvent = unlinkEvent;
    }

    /** The {@code via} of the events of a sign-in or link through this provider. */
    public Via via() {
        return via;
    }

    /** The event an administrator's unlinking of this provider's identity writes. */
    public EventType unlinkEvent() {
        return unlinkEvent;
    }

    /** The value stored in the database and named in events ({@code via}). */
    public String code() {
        return code;
    }

    public static IdentityProvider ofCode(String code) {
        for (IdentityProvider provider : values()) {
            if (provider.code.equals(code)) {
                return provider;
            }
        }
        throw new IllegalArgumentException("unknown identity provider: " + code);
    }
}
