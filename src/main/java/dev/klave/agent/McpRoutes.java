package dev.klave.agent;

import static java.util.Objects.requireNonNull;

import dev.klave.config.BaseUrl;
import dev.klave.http.Access;
import dev.klave.http.ApiRoutes;
import dev.klave.http.ErrorFormat;
import dev.klave.http.OriginRule;
import dev.klave.http.RoutePolicy;
import dev.klave.http.RouteProvider;
import java.util.Optional;

/**
 * Mounts {@code /mcp}, {@code /oauth} and {@code /.well-known} always, so that nothing under them
 * falls through to the web interface: with {@code SERVICE_MCP_ENABLED=false} every path there is
 * 404 (spec 3 §4 "Switch"); otherwise {@code POST /mcp} is served (any other method 405) and the
 * login endpoints are {@code oauth.OAuthRoutes}'.
 */
public final class McpRoutes implements RouteProvider {
    public static final String MCP = "/mcp";
    public static final String METADATA = "/.well-known/oauth-protected-resource/mcp";

    private final Optional<McpEndpoint> endpoint;
    private final BaseUrl baseUrl;

    public McpRoutes(Optional<McpEndpoint> endpoint, BaseUrl baseUrl) {
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
    }

    /**
     * Spec 3 §4 "Agent login": every 401 of {@code /mcp} names the protected resource's metadata
     * (RFC 9728 §5.1). Spec 3 §7: 1 MiB bodies; another origin than the base URL's is 403; a client
     * that leaves stops its call.
     */
    public static RoutePolicy policy(BaseUrl baseUrl) {
        return RoutePolicy.API.withBody(dev.klave.http.BodyType.JSON, RoutePolicy.LARGE_BODY_LIMIT)
                .withOrigin(OriginRule.SAME_ORIGIN_ALWAYS)
                .withChallenge("Bearer resource_metadata=\"" + metadataUrl(baseUrl) + "\"")
                .endingWithClient();
    }

    /** RFC 9728 §3.1: with a base URL that has a path, the document sits at the host root, the path after it. */
    static String metadataUrl(BaseUrl baseUrl) {
        return baseUrl.origin() + METADATA.replace("/mcp", baseUrl.path() + "/mcp");
    }

    @Override
    public void register(ApiRoutes routes) {
        RoutePolicy policy = policy(baseUrl);
        routes.mount(MCP, policy);
        // Refusals under /oauth are in the OAuth shape (RFC 6749 §5.2), the 404 of the switch too.
        routes.mount("/oauth", RoutePolicy.MACHINE.withErrors(ErrorFormat.OAUTH));
        routes.mount("/.well-known", RoutePolicy.MACHINE);
        endpoint.ifPresent(mcp -> routes.add("POST", MCP, Access.ANONYMOUS, policy, mcp::handle));
    }
}
