package dev.klave.oauth.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Text;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a client registration request (RFC 7591 §3.1) into {@link ClientMetadata}. Fields Klave
 * does not use — {@code scope} among them, since there are no scopes (spec 3 §2) — are ignored, as
 * RFC 7591 §2 allows; every field it does use is checked, and a wrong one refuses the whole request.
 */
final class RegistrationRequest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> GRANT_TYPES = Set.of("authorization_code", "refresh_token");
    private static final Set<String> RESPONSE_TYPES = Set.of("code");
    private static final int MAX_REDIRECT_URIS = 20;
    private static final int MAX_URI_LENGTH = 2000;
    private static final int MAX_NAME_LENGTH = 200;

    private RegistrationRequest() {}

    static ClientMetadata parse(byte[] body) {
        JsonNode request = object(body);
        String method = optionalText(request, "token_endpoint_auth_method").orElse("none");
        if (!method.equals("none")) {
            // Spec 3 §4: public clients only; a client that wants a secret is not one Klave serves.
            throw Message.OAUTH_PUBLIC_CLIENTS_ONLY.refusal();
        }
        List<String> redirectUris = strings(request, "redirect_uris").orElseThrow(() ->
                invalid(Text.REGISTRATION_REDIRECT_URIS_REQUIRED.text()));
        if (redirectUris.isEmpty() || redirectUris.size() > MAX_REDIRECT_URIS) {
            throw invalid(Text.REGISTRATION_REDIRECT_URIS_COUNT.text(MAX_REDIRECT_URIS));
        }
        for (String uri : redirectUris) {
            if (uri.length() > MAX_URI_LENGTH) {
                throw invalid(Text.REGISTRATION_REDIRECT_URI_TOO_LONG.text(MAX_URI_LENGTH));
            }
            RedirectUris.requireAcceptable(uri);
        }
        // RFC 7591 §2: without them, authorization_code and code.
        List<String> grantTypes = strings(request, "grant_types").orElse(List.of("authorization_code"));
        if (!GRANT_TYPES.containsAll(grantTypes) || !grantTypes.contains("authorization_code")) {
            throw invalid(Text.REGISTRATION_GRANT_TYPES.text());
        }
        List<String> responseTypes = strings(request, "response_types").orElse(List.of("code"));
        if (responseTypes.isEmpty() || !RESPONSE_TYPES.containsAll(responseTypes)) {
            throw invalid(Text.REGISTRATION_RESPONSE_TYPES.text());
        }
        Optional<String> name = optionalText(request, "client_name");
        if (name.filter(value -> value.isBlank() || value.length() > MAX_NAME_LENGTH).isPresent()) {
            throw invalid(Text.REGISTRATION_CLIENT_NAME.text(MAX_NAME_LENGTH));
        }
        return ClientMetadata.declared(List.copyOf(redirectUris), name, webAddress(request, "client_uri"),
                webAddress(request, "logo_uri"), List.copyOf(grantTypes), List.copyOf(responseTypes));
    }

    private static JsonNode object(byte[] body) {
        try {
            JsonNode request = MAPPER.readTree(body);
            if (request == null || !request.isObject()) {
                throw invalid(Text.REGISTRATION_NOT_OBJECT.text());
            }
            return request;
        } catch (IOException e) {
            throw invalid(Text.REGISTRATION_NOT_OBJECT.text());
        }
    }

    private static Optional<String> optionalText(JsonNode request, String field) {
        JsonNode value = request.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw invalid(Text.REGISTRATION_NOT_TEXT.text(field));
        }
        return Optional.of(value.asText());
    }

    private static Optional<List<String>> strings(JsonNode request, String field) {
        JsonNode value = request.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isArray()) {
            throw invalid(Text.REGISTRATION_NOT_TEXTS.text(field));
        }
        List<String> strings = new ArrayList<>();
        for (JsonNode element : value) {
            if (!element.isTextual()) {
                throw invalid(Text.REGISTRATION_NOT_TEXTS.text(field));
            }
            if (!strings.contains(element.asText())) {
                strings.add(element.asText());
            }
        }
        return Optional.of(strings);
    }

    /** The consent page shows these: an http(s) address only, never a script or a local file. */
    private static Optional<String> webAddress(JsonNode request, String field) {
        Optional<String> value = optionalText(request, field);
        if (value.isEmpty()) {
            return value;
        }
        try {
            URI uri = new URI(value.get());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("https") || scheme.equals("http")) && uri.getHost() != null
                    && value.get().length() <= MAX_URI_LENGTH) {
                return value;
            }
        } catch (URISyntaxException e) {
            // Refused below.
        }
        throw invalid(Text.REGISTRATION_NOT_WEB_ADDRESS.text(field));
    }

    private static Refusal invalid(String why) {
        return Message.OAUTH_CLIENT_METADATA.refusal(why);
    }
}
