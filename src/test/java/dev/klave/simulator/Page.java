package dev.klave.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * One page of a list ({@code limit} and {@code continue}). The token names the last key served;
 * the next page starts after it, in key order, as the apiserver's etcd continue tokens do.
 */
record Page(List<ObjectNode> items, String continueToken, long remaining) {
    static Page of(List<ObjectNode> all, HttpRequest request, long revision) {
        int start = 0;
        String token = request.queryParameter("continue").orElse("");
        if (!token.isEmpty()) {
            String after = decode(token);
            while (start < all.size() && key(all.get(start)).compareTo(after) <= 0) {
                start++;
            }
        }
        int limit = request.queryParameter("limit").map(Page::parseLimit).orElse(0);
        if (limit <= 0 || start + limit >= all.size()) {
            return new Page(all.subList(start, all.size()), "", 0);
        }
        List<ObjectNode> items = all.subList(start, start + limit);
        String next = encode(revision, key(items.getLast()));
        return new Page(items, next, all.size() - start - limit);
    }

    void describe(ObjectNode metadata) {
        if (!continueToken.isEmpty()) {
            metadata.put("continue", continueToken);
            metadata.put("remainingItemCount", remaining);
        }
    }

    private static int parseLimit(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid limit: " + value);
        }
    }

    private static String key(ObjectNode object) {
        return Json.string(object, "metadata", "namespace").orElse("") + "/" + Json.string(object, "metadata", "name").orElse("");
    }

    private static String encode(long revision, String key) {
        ObjectNode token = Json.object();
        token.put("v", "meta.k8s.io/v1");
        token.put("rv", revision);
        token.put("start", key);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.bytes(token));
    }

    private static String decode(String token) {
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(token);
            return Json.parseObject(new String(bytes, StandardCharsets.UTF_8)).path("start").asText();
        } catch (IllegalArgumentException | ApiException e) {
            throw ApiException.badRequest("continue key is not valid: " + token);
        }
    }
}
