package dev.klave.http;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Message;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Optional;

/**
 * The web interface route rule (spec 1 §4 "Web interface"): GET and HEAD only; a file that exists
 * is served; a missing file under {@code /assets/} (or any missing path that names a file, or
 * {@code /metrics}, which has a listener of its own) is 404;
 * every other path is an interface route and gets {@code index.html}, whose own router draws it.
 */
final class SpaHandler {
    /** No inline script or style; nothing framed; only our own origin. */
    // 'wasm-unsafe-eval' lets the session player (issue 42: asciinema-player's terminal emulator is
    // WebAssembly) compile its module; it allows no JavaScript eval, and no script but our own.
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
            + "style-src 'self'; "
            + "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'";

    private final WebAssets assets;

    SpaHandler(WebAssets assets) {
        this.assets = requireNonNull(assets, "assets is null");
    }

    void handle(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        boolean head = request.method() == HttpMethod.HEAD;
        if (!head && request.method() != HttpMethod.GET) {
            response.putHeader("Allow", HealthHandler.ALLOWED);
            Responses.text(response, 405, Message.METHOD_NOT_ALLOWED.text(), false);
            return;
        }
        String path = request.path();
        Optional<WebAssets.Asset> file = path.equals("/") ? Optional.of(assets.index()) : assets.find(path);
        if (file.isPresent()) {
            serve(response, file.get(), path.startsWith("/assets/"), head);
            return;
        }
        // /metrics is served on its own listener only (SERVICE_METRICS_LISTEN): a scraper pointed
        // at the public port gets a plain 404, not the interface's page with a 200.
        if (path.startsWith("/assets/") || namesFile(path) || path.equals("/metrics")) {
            Responses.text(response, 404, Message.NOT_FOUND.text(), head);
            return;
        }
        serve(response, assets.index(), false, head);
    }

    private static boolean namesFile(String path) {
        String last = path.substring(path.lastIndexOf('/') + 1);
        return last.contains(".");
    }

    private static void serve(HttpServerResponse response, WebAssets.Asset asset, boolean fingerprinted,
            boolean head) {
        response.setStatusCode(200);
        response.putHeader("Content-Type", asset.contentType());
        response.putHeader("X-Content-Type-Options", "nosniff");
        // Files under /assets/ carry a content hash in their names (Vite): cache them for ever.
        response.putHeader("Cache-Control", fingerprinted ? "public, max-age=31536000, immutable" : "no-cache");
        if (asset.html()) {
            response.putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            response.putHeader("X-Frame-Options", "DENY");
            // The invitation token rides in the fragment; no referrer leaves the page at all.
            response.putHeader("Referrer-Policy", "no-referrer");
        }
        response.putHeader("Content-Length", String.valueOf(asset.content().length));
        if (head) {
            response.end();
        } else {
            response.end(Buffer.buffer(asset.content()));
        }
    }
}
