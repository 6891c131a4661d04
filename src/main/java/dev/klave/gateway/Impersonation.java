package dev.klave.gateway;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The headers that make a cluster act as the caller (spec 1 §1.3): Klave's proxy token as the
 * bearer, and {@code Impersonate-User}, {@code Impersonate-Uid} and one {@code Impersonate-Group}
 * per group. Built here only, for every way in, and given out only in the {@link Wire} that the
 * {@link CallChain} builds for a call it has registered with the stream guard; whatever a client
 * sent under these names was refused or removed before (the proxy's header rules), so these are the
 * only ones a cluster sees.
 */
final class Impersonation {
    private Impersonation() {}

    /** Name and value pairs, in order; {@code Impersonate-Group} repeats. */
    static List<Map.Entry<String, String>> headers(Caller caller) {
        List<Map.Entry<String, String>> headers = new ArrayList<>(3 + caller.groups().size());
        headers.add(Map.entry("Authorization", "Bearer " + caller.cluster().proxyToken()));
        headers.add(Map.entry("Impersonate-User", caller.userName()));
        headers.add(Map.entry("Impersonate-Uid", caller.subject().id().value()));
        for (String group : caller.groups()) {
            headers.add(Map.entry("Impersonate-Group", group));
        }
        return headers;
    }
}
