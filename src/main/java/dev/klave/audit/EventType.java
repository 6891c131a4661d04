package dev.klave.audit;

import static java.util.Objects.requireNonNull;

/**
 * The types of control events (spec 1 §6, spec 2 §6), each with the text stored in the database
 * and shown by {@code GET /api/control-events}. The specification names the sign-in, link,
 * disable, CI and OIDC events; the administrators' actions are Klave's own.
 */
public enum EventType {
    // Spec 1 §6.
    LOGIN_SUCCESS("login.success"),
    LOGIN_FAILURE("login.failure"),
    LINK_COMPLETE("link.complete"),
    USER_DISABLE("user.disable"),
    CI_EXCHANGE_FAILURE("ci.exchange.failure"),
    // Spec 2 §6.
    OIDC_LINK("oidc.link"),
    OIDC_EMAIL_CHANGED("oidc.email_changed"),
    // Not in the specification ("fields of events other than those named: not shown"): what
    // administrators, people and the CLI change.
    USER_CREATE("user.create"),
    USER_UPDATE("user.update"),
    USER_RESET_LINK("user.reset_link"),
    USER_BREAK_GLASS("user.break_glass"),
    USER_BREAK_GLASS_REMOVED("user.break_glass_removed"),
    USER_ENABLE("user.enable"),
    USER_LOGOUT("user.logout"),
    USER_PASSWORD_CHANGE("user.password_change"),
    USER_FORGE_UNLINK("user.forge_unlink"),
    USER_OIDC_UNLINK("user.oidc_unlink"),
    BOT_CREATE("bot.create"),
    GRANT_CREATE("grant.create"),
    GRANT_REVOKE("grant.revoke"),
    CREDENTIAL_ISSUE("credential.issue"),
    CREDENTIAL_REVOKE("credential.revoke"),
    CLUSTER_CREATE("cluster.create"),
    CLUSTER_TOKENS("cluster.tokens"),
    CLUSTER_DELETE("cluster.delete"),
    CI_TRUST_RULE_CREATE("ci.trust_rule.create"),
    CI_TRUST_RULE_DELETE("ci.trust_rule.delete"),
    // Spec 3 §6 names no event: a person's decision on an agent's write or access request.
    AGENT_WRITE_APPROVED("agent.write_approved"),
    AGENT_WRITE_DENIED("agent.write_denied"),
    AGENT_ACCESS_APPROVED("agent.access_approved"),
    AGENT_ACCESS_DENIED("agent.access_denied"),
    // A person ending their agent's session, or an administrator anyone's (issue 31 item 6).
    AGENT_SESSION_END("agent.session_end"),
    /** A person authorized an agent on the consent page: the session opens (client, permissions, writes). */
    AGENT_SESSION_START("agent.session_start"),
    /** A person denied an agent on the consent page. */
    AGENT_SESSION_DENIED("agent.session_denied"),
    OAUTH_CLIENTS_PURGE("oauth.clients_purge"),
    AUDIT_RETENTION("audit.retention"),
    // Not in the specification (issue 41): access when it is needed. Each transition of a request
    // (an agent's included, past its decision), eligible grants and clusters' access policies.
    ACCESS_REQUEST_CREATE("access_request.create"),
    ACCESS_REQUEST_FIRST_APPROVAL("access_request.first_approval"),
    ACCESS_REQUEST_APPROVE("access_request.approve"),
    ACCESS_REQUEST_DENY("access_request.deny"),
    ACCESS_REQUEST_CANCEL("access_request.cancel"),
    ACCESS_REQUEST_EXPIRE("access_request.expire"),
    ACCESS_REQUEST_END("access_request.end"),
    ELIGIBLE_GRANT_CREATE("eligible_grant.create"),
    ELIGIBLE_GRANT_REVOKE("eligible_grant.revoke"),
    ACCESS_POLICY_UPDATE("access_policy.update"),
    NOTIFY_DESTINATION_CREATE("notify.destination_create"),
    NOTIFY_DESTINATION_DELETE("notify.destination_delete"),
    // Issue 42: watching (downloading) a recorded session.
    RECORDING_VIEW("recording.view"),
    RECORDING_POLICY_UPDATE("recording.policy_update"),
    RECORDING_DELETE("recording.delete");

    private final String code;

    EventType(String code) {
        this.code = requireNonNull(code, "code is null");
    }

    /** The value stored in the database and sent as {@code type}. */
    public String code() {
        return code;
    }

    /** The type whose stored value is {@code code}; anything else is refused. */
    public static EventType parse(String code) {
        for (EventType type : values()) {
            if (type.code.equals(code)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown control-event type: " + code);
    }
}
