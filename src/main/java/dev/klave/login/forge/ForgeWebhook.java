package dev.klave.login.forge;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.account.AccountLifecycle;
import dev.klave.account.ExternalIdentity;
import dev.klave.account.ExternalIdentityStore;
import dev.klave.audit.Via;
import dev.klave.config.Secret;
import dev.klave.http.ApiRequest;
import dev.klave.http.Json;
import dev.klave.messages.Message;
import dev.klave.messages.Untrusted;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/forge/webhook} (spec 1 §4 "CI and forge", §7 "Webhook errors"). The HMAC-SHA256
 * signature over the raw bytes is the authentication, compared in constant time; then the content
 * type (415) and the JSON (400). {@code organization}/{@code member_removed} for the configured
 * organisation disables the linked account at once; {@code installation} {@code deleted} or
 * {@code suspend} is logged; anything else is accepted and ignored. Deliveries are not deduplicated:
 * a repeated {@code member_removed} finds the account already disabled.
 */
public final class ForgeWebhook {
    private static final Logger LOG = LoggerFactory.getLogger(ForgeWebhook.class);
    private static final String SIGNATURE_PREFIX = "sha256=";

    private final SecretKeySpec key;
    private final String org;
    private final ExternalIdentityStore identities;
    private final AccountLifecycle lifecycle;
    private final ForgeApi forge;

    public ForgeWebhook(Secret secret, String org, ExternalIdentityStore identities, AccountLifecycle lifecycle,
            ForgeApi forge) {
        this.key = new SecretKeySpec(requireNonNull(secret, "secret is null").reveal().getBytes(StandardCharsets.UTF_8),
                "HmacSHA256");
        this.org = requireNonNull(org, "org is null");
        this.identities = requireNonNull(identities, "identities is null");
        this.lifecycle = requireNonNull(lifecycle, "lifecycle is null");
        this.forge = requireNonNull(forge, "forge is null");
    }

    /** What the delivery did, for the answer and the tests. */
    public record Outcome(String result) {}

    public Outcome receive(ApiRequest request) {
        byte[] body = request.body();
        if (!signatureMatches(request.header("X-Hub-Signature-256"), body)) {
            throw Message.SIGNATURE_INVALID.refusal();
        }
        if (!isJson(request.header("Content-Type"))) {
            throw Message.WEBHOOK_NOT_JSON.refusal();
        }
        JsonNode event = Json.read(body, JsonNode.class);
        if (!event.isObject()) {
            throw Message.INVALID_JSON.refusal();
        }
        String action = event.path("action").asText("");
        String type = eventType(request, event, action);
        return switch (type) {
            case "organization" -> action.equals("member_removed") ? memberRemoved(event) : ignored(type, action);
            case "installation" -> installation(action, event);
            default -> ignored(type, action);
        };
    }

    /**
     * The forge names the event in {@code X-GitHub-Event}; a forge that names it otherwise, or not
     * at all, is read by the payload's shape: a {@code membership} with {@code member_removed} is an
     * {@code organization} event, {@code deleted}/{@code suspend} without one an {@code installation}
     * event.
     */
    private static String eventType(ApiRequest request, JsonNode event, String action) {
        Optional<String> named = request.header("X-GitHub-Event").or(() -> request.header("X-Forge-Event"));
        if (named.isPresent()) {
            return named.get().strip();
        }
        if (action.equals("member_removed") && event.has("membership")) {
            return "organization";
        }
        if ((action.equals("deleted") || action.equals("suspend")) && event.has("installation")
                && !event.has("membership")) {
            return "installation";
        }
        return "";
    }

    private Outcome memberRemoved(JsonNode event) {
        String eventOrg = event.path("organization").path("login").asText("");
        // An App installed on other organisations too hears of their members: only ours count. A
        // payload that names no organisation is about the installation's own, ours.
        if (!eventOrg.isEmpty() && !eventOrg.toLowerCase(Locale.ROOT).equals(org.toLowerCase(Locale.ROOT))) {
            // The App may be installed elsewhere too: only our organisation's members matter.
            LOG.info("forge webhook: member_removed for organisation {}, not {}: ignored", Untrusted.text(eventOrg), org);
            return new Outcome("ignored");
        }
        JsonNode user = event.path("membership").path("user");
        long forgeId = user.path("id").asLong(0);
        String login = user.path("login").asText("");
        if (forgeId <= 0) {
            // Spec 1 §4: 400 is for a body that is not JSON; a member_removed that names nobody
            // is accepted and changes nothing.
            LOG.warn("forge webhook: member_removed without membership.user.id: ignored");
            return new Outcome("ignored");
        }
        Optional<ExternalIdentity> linked = identities.find(ExternalIdentity.Key.forge(forgeId));
        if (linked.isEmpty()) {
            LOG.info("forge webhook: {} ({}) left the organisation; no account is linked to it", forgeId,
                    Untrusted.text(login));
            return new Outcome("not_linked");
        }
        AccountLifecycle.AutomaticDisable result = lifecycle.disableLinked(linked.get(), Via.FORGE_WEBHOOK);
        switch (result) {
            case DISABLED -> LOG.info("forge webhook: disabled account {} ({} left the organisation)",
                    linked.get().subjectId().value(), Untrusted.text(login));
            case LAST_ADMIN -> LOG.error("forge webhook: {} left the organisation, but account {} is the last "
                    + "administrator able to sign in: not disabled", Untrusted.text(login),
                    linked.get().subjectId().value());
            case NOT_LINKED, ALREADY_DISABLED -> {
                // Unlinked meanwhile, or a repeated delivery.
            }
        }
        return new Outcome(result.name().toLowerCase(Locale.ROOT));
    }

    private Outcome installation(String action, JsonNode event) {
        if (action.equals("deleted") || action.equals("suspend")) {
            forge.installationChanged();
            LOG.error("forge webhook: the App installation on {} was {}: every forge sign-in fails until it is "
                    + "installed again", Untrusted.text(event.path("installation").path("account").path("login")
                    .asText("?")), action.equals("deleted") ? "deleted" : "suspended");
            return new Outcome("logged");
        }
        return ignored("installation", action);
    }

    private static Outcome ignored(String type, String action) {
        LOG.debug("forge webhook: {}/{} ignored", Untrusted.text(type), Untrusted.text(action));
        return new Outcome("ignored");
    }

    private boolean signatureMatches(Optional<String> header, byte[] body) {
        if (header.isEmpty() || !header.get().startsWith(SIGNATURE_PREFIX)) {
            return false;
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(header.get().substring(SIGNATURE_PREFIX.length()).strip()
                    .toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return false;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return MessageDigest.isEqual(mac.doFinal(body), given);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** {@code application/json}, with or without parameters (RFC 9110 §8.3.1). */
    private static boolean isJson(Optional<String> contentType) {
        return contentType.map(value -> value.split(";", 2)[0].strip().equalsIgnoreCase("application/json"))
                .orElse(false);
    }
}
