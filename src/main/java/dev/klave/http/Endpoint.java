package dev.klave.http;

/**
 * One API operation. It runs on its own virtual thread, so it may block on the database or an
 * identity provider; it refuses by throwing {@link dev.klave.messages.Refusal}.
 */
@FunctionalInterface
public interface Endpoint {
    ApiResponse handle(ApiRequest request) throws Exception;
}
