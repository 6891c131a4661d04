package dev.klave.oauth;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.crypto.Hmac;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * The id of the consent page {@code /agents/authorize/<id>}: the checked authorization request
 * itself, signed (HMAC, a key from {@code SERVICE_ENCRYPTION_KEY}) with its expiry, so that any
 * replica can show the page and none keeps a row for requests nobody finishes. Nothing in it is
 * secret; the signature makes it unforgeable, and the code it ends in is single use. The payload
 * and the signature are joined by {@code *}, never a dot: the web interface serves a last path
 * segment with a dot as a missing file (404), so the page would not open. {@code *} is outside
 * base64url and, like it, left as it is by every URL encoder (Java's, the browser's
 * {@code encodeURIComponent}), so the id reads the same in the page's address and in its API's.
 * Each id carries a random nonce: two authorization requests alike are two requests, each answered
 * once ({@link Consent}).
 */
public final class PendingAuthorizations {
    /** As long as the code it leads to lives (spec 3 §8: 10 minutes). */
    public static final Duration LIFETIME = Duration.ofMinutes(10);
    /** Outside base64url, bare in a path segment whoever encodes it, and not a dot (see above). */
    private static final char SEPARATOR = '*';
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Hmac hmac;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public PendingAuthorizations(Hmac hmac, Clock clock) {
        this.hmac = requireNonNull(hmac, "hmac is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public String issue(String clientId, String redirectUri, String codeChallenge, Optional<String> state) {
        ObjectNode fields = JSON.createObjectNode();
        byte[] nonce = new byte[12];
        random.nextBytes(nonce);
        fields.put("n", Base64.getUrlEncoder().withoutPadding().encodeToString(nonce));
        fields.put("c", clientId).put("r", redirectUri).put("p", codeChallenge)
                .put("e", clock.instant().plus(LIFETIME).getEpochSecond());
        state.ifPresent(value -> fields.put("s", value));
        String payload = Base64.getUrlEncoder().withoutPadding().encodeToString(fields.toString()
                .getBytes(StandardCharsets.UTF_8));
        return payload + SEPARATOR + hmac.sign(payload);
    }

    /** The request behind {@code id}, when it is ours and not expired. */
    public Optional<PendingAuthorization> open(String id) {
        int separator = id.indexOf(SEPARATOR);
        if (separator < 1 || separator != id.lastIndexOf(SEPARATOR)
                || !hmac.verify(id.substring(0, separator), id.substring(separator + 1))) {
            return Optional.empty();
        }
        try {
            JsonNode fields = JSON.readTree(Base64.getUrlDecoder().decode(id.substring(0, separator)));
            Instant expires = Instant.ofEpochSecond(fields.path("e").asLong());
            if (!clock.instant().isBefore(expires)) {
                return Optional.empty();
            }
            return Optional.of(new PendingAuthorization(fields.path("c").asText(), fields.path("r").asText(),
                    fields.path("p").asText(), Optional.ofNullable(fields.get("s")).map(JsonNode::asText), expires));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
