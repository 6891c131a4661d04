package dev.klave.agent.tool;

import dev.klave.cluster.ClusterId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The kinds each cluster's aggregated discovery documents listed, kept with their ETag (issue 43):
 * the tools still send both discovery requests (spec 3 §4 rule 3, each audited), with
 * {@code If-None-Match}; an API server whose document did not change answers 304 without it
 * (KEP-3352), and the kinds read from the last one serve again — no transfer, no parsing. One
 * entry per cluster and document, replaced when the document changes.
 */
final class DiscoveryCache {
    /**
     * An entity tag as RFC 9110 §8.8.3 writes it, weak or strong, at most 256 characters: the only
     * kind of text from a cluster sent back in a header.
     */
    private static final Pattern ENTITY_TAG = Pattern.compile("(W/)?\"[\\x21\\x23-\\x7E]{0,250}\"");

    record Entry(String etag, List<Kind> kinds) {
        Entry {
            kinds = List.copyOf(kinds);
        }
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    Optional<Entry> get(ClusterId cluster, String root) {
        return Optional.ofNullable(entries.get(key(cluster, root)));
    }

    /** Keeps what a document listed, when it came with a usable entity tag; forgets it otherwise. */
    void put(ClusterId cluster, String root, Optional<String> etag, List<Kind> kinds) {
        if (etag.isPresent() && entityTag(etag.get())) {
            entries.put(key(cluster, root), new Entry(etag.get(), kinds));
        } else {
            entries.remove(key(cluster, root));
        }
    }

    static boolean entityTag(String text) {
        return text != null && ENTITY_TAG.matcher(text).matches();
    }

    private static String key(ClusterId cluster, String root) {
        return cluster.value() + " " + root;
    }
}
