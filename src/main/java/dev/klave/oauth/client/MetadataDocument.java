package dev.klave.oauth.client;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.klave.oauth.client.MetadataRefused.Reason;
import dev.klave.outbound.Answer;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a fetched metadata document (draft-ietf-oauth-client-id-metadata-document §4.1): a JSON
 * object served as {@code application/json} (or {@code application/…+json}) whose
 * {@code client_id} is the URL it was fetched from, compared as strings. Unknown fields are
 * ignored, as RFC 7591 §2 asks of client metadata; a repeated field is refused (two
 * {@code client_id}s could be read two ways).
 */
final class MetadataDocument {
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final Pattern JSON_TYPE = Pattern.compile("application/(?:json|[a-z0-9.!#$&^_-]+\\+json)");

    private MetadataDocument() {}

    static PublishedClient read(URI clientId, Answer answer) throws MetadataRefused {
        String type = answer.headers().firstValue("Content-Type").orElse("");
        String media = type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!JSON_TYPE.matcher(media).matches()) {
            throw new MetadataRefused(Reason.NOT_JSON);
        }
        JsonNode document;
        try {
            document = JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new MetadataRefused(Reason.NOT_JSON);
        }
        if (document == null || !document.isObject()) {
            throw new MetadataRefused(Reason.NOT_JSON);
        }
        JsonNode named = document.path("client_id");
        if (!named.isTextual() || !named.textValue().equals(clientId.toString())) {
            throw new MetadataRefused(Reason.CLIENT_ID_MISMATCH);
        }
        // No shared secret can exist with a document anyone may read (draft §4.1), and spec 3 §4
        // admits public clients only. An absent method is none here, not RFC 7591's
        // client_secret_basic, since no secret was ever issued.
        JsonNode method = document.path("token_endpoint_auth_method");
        if (document.has("client_secret") || document.has("client_secret_expires_at")
                || !(method.isMissingNode() || method.isNull() || "none".equals(method.textValue()))) {
            throw new MetadataRefused(Reason.NOT_PUBLIC_CLIENT);
        }
        List<String> redirectUris = strings(document, "redirect_uris", List.of());
        if (redirectUris.isEmpty()) {
            throw new MetadataRefused(Reason.BAD_DOCUMENT, "redirect_uris");
        }
        ClientMetadata declared;
        try {
            declared = ClientMetadata.declared(redirectUris, text(document, "client_name"), text(document, "client_uri"),
                    text(document, "logo_uri"), strings(document, "grant_types", List.of("authorization_code")),
                    strings(document, "response_types", List.of("code")));
        } catch (IllegalArgumentException refusedUri) {
            // A redirect URI the rules of spec 3 §4 refuse (a browser wrapper scheme among them:
            // such a client stops authorizing, rule 5).
            throw new MetadataRefused(Reason.BAD_DOCUMENT, "redirect_uris");
        }
        return new PublishedClient(clientId, declared);
    }

    private static Optional<String> text(JsonNode document, String field) throws MetadataRefused {
        JsonNode value = document.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new MetadataRefused(Reason.BAD_DOCUMENT, field);
        }
        return Optional.of(value.textValue());
    }

    /** An array of non-blank strings, or {@code absent} when the field is missing (RFC 7591 §2 defaults). */
    private static List<String> strings(JsonNode document, String field, List<String> absent) throws MetadataRefused {
        JsonNode value = document.path(field);
        if (value.isMissingNode()) {
            return absent;
        }
        if (!value.isArray()) {
            throw new MetadataRefused(Reason.BAD_DOCUMENT, field);
        }
        List<String> strings = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual() || item.textValue().isBlank()) {
                throw new MetadataRefused(Reason.BAD_DOCUMENT, field);
            }
            strings.add(item.textValue());
        }
        return strings;
    }
}
