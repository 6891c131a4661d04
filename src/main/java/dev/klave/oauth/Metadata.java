package dev.klave.oauth;

import dev.klave.config.BaseUrl;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two discovery documents (spec 3 §4 "Agent login") and where they are served.
 *
 * <p>With a base URL that has a path ({@code https://host/klave}), both sit at the host's root with
 * that path inserted after the well-known name (RFC 8414 §3.1, RFC 9728 §3.1):
 * {@code /.well-known/oauth-protected-resource/klave/mcp} and
 * {@code /.well-known/oauth-authorization-server/klave}. These are outside the base path, so the
 * front end routes {@code /.well-known/} to Klave as it is, unstripped; Klave serves exactly those
 * inserted forms, and nothing at the bare well-known names then (a client that found the
 * protected resource's challenge, or the issuer, builds the inserted form).
 */
public final class Metadata {
    public static final String PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource";
    public static final String AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server";
    public static final String MCP = "/mcp";
    public static final String AUTHORIZE = "/oauth/authorize";
    public static final String TOKEN = "/oauth/token";
    public static final String REGISTER = "/oauth/register";
    public static final String REVOKE = "/oauth/revoke";

    private Metadata() {}

    /** The path the protected resource's document is served at (RFC 9728 §3.1). */
    public static String protectedResourcePath(BaseUrl baseUrl) {
        return PROTECTED_RESOURCE + baseUrl.path() + MCP;
    }

    /** The path the authorization server's document is served at (RFC 8414 §3.1). */
    public static String authorizationServerPath(BaseUrl baseUrl) {
        return AUTHORIZATION_SERVER + baseUrl.path();
    }

    /** RFC 9728 §2: {@code /mcp} is the resource, Klave itself its authorization server. */
    static Map<String, Object> protectedResource(BaseUrl baseUrl) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("resource", baseUrl.resolve(MCP));
        document.put("authorization_servers", List.of(baseUrl.toString()));
        document.put("bearer_methods_supported", List.of("header"));
        return document;
    }

    /**
     * RFC 8414 §2. No {@code scopes_supported}: there are no scopes (spec 3 §2), and an empty list
     * would read as "no scope may be asked for" rather than "scopes are not used".
     */
    static Map<String, Object> authorizationServer(BaseUrl baseUrl) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("issuer", baseUrl.toString());
        document.put("authorization_endpoint", baseUrl.resolve(AUTHORIZE));
        document.put("token_endpoint", baseUrl.resolve(TOKEN));
        document.put("registration_endpoint", baseUrl.resolve(REGISTER));
        document.put("revocation_endpoint", baseUrl.resolve(REVOKE));
        document.put("response_types_supported", List.of("code"));
        document.put("grant_types_supported", List.of("authorization_code", "refresh_token"));
        document.put("code_challenge_methods_supported", List.of("S256"));
        document.put("token_endpoint_auth_methods_supported", List.of("none"));
        document.put("revocation_endpoint_auth_methods_supported", List.of("none"));
        // The OAuth client ID metadata document draft: a client may be named by its document's URL.
        document.put("client_id_metadata_document_supported", true);
        // RFC 9207 §3: every redirect of the authorization endpoint carries iss.
        document.put("authorization_response_iss_parameter_supported", true);
        return document;
    }
}
