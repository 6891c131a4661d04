package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import dev.klave.access.Authority;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.ExternalIdentity;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.account.Principal;
import dev.klave.account.SubjectId;
import dev.klave.audit.ControlEvents;
import dev.klave.audit.EventType;
import dev.klave.cluster.ClusterId;
import dev.klave.crypto.SecretToken;
import dev.klave.messages.Message;
import dev.klave.oauth.session.AgentTokens;
import dev.klave.access.Permission;
import dev.klave.storage.UsedStateStore;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The consent page's decisions (spec 3 §4 "Agent login" 3): the person signed in chooses, among
 * their own permissions in force, what their agent may do (never {@code cluster-admin}, never
 * beyond their own: spec 3 §5 4) and whether its writes wait for them; approving opens the session
 * and answers with the redirect carrying {@code code}, {@code state} and {@code iss} (RFC 9207),
 * denying with {@code error=access_denied}.
 */
final class Consent {
    private final PendingAuthorizations pending;
    private final AgentTokens tokens;
    private final Authority authority;
    private final ExternalIdentityStore identities;
    private final UsedStateStore answered;
    private final ControlEvents events;
    private final String issuer;
    private final Clock clock;

    Consent(PendingAuthorizations pending, AgentTokens tokens, Authority authority, ExternalIdentityStore identities,
            UsedStateStore answered, ControlEvents events, String issuer, Clock clock) {
        this.events = requireNonNull(events, "events is null");
        this.pending = requireNonNull(pending, "pending is null");
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.authority = requireNonNull(authority, "authority is null");
        this.identities = requireNonNull(identities, "identities is null");
        this.answered = requireNonNull(answered, "answered is null");
        this.issuer = requireNonNull(issuer, "issuer is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Until when a session approved now gives access, unless it is ended first (spec 3 §2: 30 days). */
    Instant accessUntil() {
        return clock.instant().plus(AgentTokens.SESSION_LIFETIME);
    }

    /** @throws dev.klave.messages.Refusal 409 {@code CONSENT_ANSWERED} once it was answered, on any replica */
    PendingAuthorization open(String id) {
        PendingAuthorization request = pending.open(id).orElseThrow(Message.NOT_FOUND::refusal);
        if (answered.used(key(id), clock.instant())) {
            throw Message.CONSENT_ANSWERED.refusal();
        }
        return request;
    }

    /**
     * Marks the request answered: one answer each, whichever replica takes it (a second approval
     * would open a second session from one authorization request; a later denial would contradict it).
     */
    private void answer(String id, PendingAuthorization request) {
        if (!answered.use(key(id), clock.instant(), request.expiresAt())) {
            throw Message.CONSENT_ANSWERED.refusal();
        }
    }

    /** What is kept of an answered request: the hash of its id, apart from sign-in states. */
    private static String key(String id) {
        return SecretToken.sha256("agent consent " + id);
    }

    /**
     * What the person may give: the role and scope of each of their grants in force, one each;
     * never cluster-admin (spec 3 §5 4), nor anything their grants do not carry (see {@link Permission}).
     */
    List<Permission> choosable(SubjectId person) {
        return authority.choosable(person);
    }

    /**
     * Approves: the redirect that ends the authorization request with a code; the session and its
     * {@code agent.session_start} (client, permissions, whether writes wait) are one commit.
     */
    String approve(String id, Principal caller, List<Permission> chosen, boolean writesNeedApproval,
            Optional<String> clientName) {
        SubjectId person = caller.subjectId();
        PendingAuthorization request = open(id);
        if (chosen.isEmpty()) {
            throw Message.CONSENT_NO_PERMISSION.refusal();
        }
        Optional<Permission> beyond = authority.beyond(person, chosen);
        if (beyond.isPresent()) {
            throw Message.CONSENT_BEYOND_OWN.refusal(beyond.get().cluster().value() + "/"
                    + beyond.get().role().code() + "/" + beyond.get().scope().value());
        }
        answer(id, request);
        AgentTokens.Consented consented = tokens.consent(person, request.clientId(), chosen, writesNeedApproval,
                via(person), request.redirectUri(), request.codeChallenge(), session -> {
                    Map<String, Object> details = client(request, clientName);
                    details.put("session", session.id());
                    details.put("permissions", chosen.stream().map(permission -> permission.cluster().value() + "/"
                            + permission.role().code() + "/" + permission.scope().value()).toList());
                    details.put("writes_need_approval", writesNeedApproval);
                    events.event(EventType.AGENT_SESSION_START).actor(caller).target(caller).details(details).record();
                });
        return redirect(request, "code=" + encode(consented.code()));
    }

    /** Denies: RFC 6749 §4.1.2.1 {@code access_denied}, with the state and the issuer; {@code agent.session_denied}. */
    String deny(String id, Principal caller, Optional<String> clientName) {
        PendingAuthorization request = open(id);
        answer(id, request);
        events.event(EventType.AGENT_SESSION_DENIED).actor(caller).target(caller)
                .details(client(request, clientName)).record();
        return redirect(request, "error=access_denied");
    }

    /** The client as an event names it: its id, and the name it declared when it declared one. */
    private static Map<String, Object> client(PendingAuthorization request, Optional<String> name) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("client", request.clientId());
        name.ifPresent(value -> details.put("client_name", value));
        return details;
    }

    private String redirect(PendingAuthorization request, String result) {
        String target = request.redirectUri();
        StringBuilder url = new StringBuilder(target).append(target.contains("?") ? '&' : '?').append(result);
        request.state().ifPresent(state -> url.append("&state=").append(encode(state)));
        // RFC 9207 §2: every answer names the issuer, so a client talking to several can tell.
        return url.append("&iss=").append(encode(issuer)).toString();
    }

    /**
     * The sign-in the consent came through, whose unlink ends the session: the person's external
     * identity when they have one, else their password. The web session does not record its
     * method yet, so a person with both is taken to have used the identity.
     */
    private String via(SubjectId person) {
        return identities.listFor(person).stream().findFirst().map(ExternalIdentity::key)
                .map(key -> key.provider().code()).orElse("password");
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    static Permission permission(String cluster, String role, String scope) {
        Tier tier = Tier.fromCode(role).orElseThrow(() -> Message.TIER_INVALID.refusal());
        if (!Authority.delegable(tier)) {
            throw Message.CONSENT_BEYOND_OWN.refusal(cluster + "/" + role + "/" + scope);
        }
        return new Permission(new ClusterId(cluster), tier, new Scope(scope));
    }
}
