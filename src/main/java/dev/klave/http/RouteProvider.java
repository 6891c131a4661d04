package dev.klave.http;

/** A domain package's API routes; each package registers its own. */
@FunctionalInterface
public interface RouteProvider {
    void register(ApiRoutes routes);
}
