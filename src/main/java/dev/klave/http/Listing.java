package dev.klave.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.klave.messages.Message;
import dev.klave.messages.Text;
import dev.klave.storage.Keyset;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The query of an API listing read page by page (README "Listings page by page"): which query
 * parameters it takes (any other is refused with 400, not ignored), {@code limit} (1 to 500), and
 * {@code cursor}: opaque to clients, it is the base64url of the last row's sort key, tagged with
 * the listing it belongs to, and anything that does not decode to exactly that shape is refused
 * with 400. Without {@code limit} or {@code cursor} a listing answers whole, as spec 1 §4 shows it.
 */
public final class Listing {
    public static final int MAX_LIMIT = 500;
    public static final int DEFAULT_LIMIT = 50;
    public static final Set<String> PAGING = Set.of("limit", "cursor");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_CURSOR_LENGTH = 1024;

    private Listing() {}

    /** A page: its rows and, when more follow, the cursor of the next page. */
    public record Page<T>(List<T> items, Optional<String> nextCursor) {
        public Page {
            items = List.copyOf(requireNonNull(items, "items is null"));
            requireNonNull(nextCursor, "nextCursor is null");
        }
    }

    /** Refuses the first query parameter (in name order) that is neither in {@code allowed} nor a paging one. */
    public static void onlyParameters(ApiRequest request, Set<String> allowed) {
        Set<String> known = new java.util.HashSet<>(allowed);
        known.addAll(PAGING);
        request.refuseUnknownQuery(known);
    }

    /** The most ids one {@code id} lookup names: a page of the screens that ask (50), with room. */
    public static final int MAX_IDS = 100;

    /**
     * The rows named by {@code id} (repeated, 1 to {@link #MAX_IDS}): what a screen asks for the
     * names behind the ids of one page (the audit table's credentials, a picker's chosen subject),
     * instead of the whole listing. It is a lookup by key, so it takes no other filter and no page.
     */
    public static Optional<List<String>> ids(ApiRequest request) {
        List<String> ids = request.queryParameters("id");
        if (ids.isEmpty()) {
            return Optional.empty();
        }
        if (ids.size() > MAX_IDS || request.queryNames().size() > 1
                || ids.stream().anyMatch(id -> id.isEmpty() || id.length() > 200)) {
            throw Message.FILTER_INVALID.refusal("id", Text.FILTER_IDS.text(MAX_IDS));
        }
        return Optional.of(ids.stream().distinct().toList());
    }

    /** Whether the caller asked for a page ({@code limit} or {@code cursor}) rather than the whole listing. */
    public static boolean paged(ApiRequest request) {
        return request.queryParameter("limit").isPresent() || request.queryParameter("cursor").isPresent();
    }

    /** {@code limit}, 1 to 500; {@link #DEFAULT_LIMIT} when only a cursor was sent. */
    public static int limit(ApiRequest request) {
        Optional<String> text = request.queryParameter("limit");
        if (text.isEmpty()) {
            return DEFAULT_LIMIT;
        }
        if (!text.get().matches("[0-9]{1,3}")) {
            throw Message.FEED_LIMIT_INVALID.refusal(MAX_LIMIT);
        }
        int limit = Integer.parseInt(text.get());
        if (limit < 1 || limit > MAX_LIMIT) {
            throw Message.FEED_LIMIT_INVALID.refusal(MAX_LIMIT);
        }
        return limit;
    }

    /** The fields of the {@code cursor} sent for {@code listing}, if one was; 400 for anything else. */
    public static Optional<List<String>> cursor(ApiRequest request, String listing, int fields) {
        Optional<String> text = request.queryParameter("cursor");
        if (text.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(decode(text.get(), listing, fields));
    }

    /** The keyset of a listing ordered newest first. */
    public static Optional<Keyset> keyset(ApiRequest request, String listing) {
        return cursor(request, listing, 2).map(fields -> {
            if (!fields.get(0).matches("-?[0-9]{1,18}") || !isUuid(fields.get(1))) {
                throw Message.CURSOR_INVALID.refusal();
            }
            return new Keyset(Instant.ofEpochMilli(Long.parseLong(fields.get(0))), fields.get(1));
        });
    }

    private static boolean isUuid(String text) {
        try {
            return java.util.UUID.fromString(text).toString().equals(text);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    public static String keysetCursor(String listing, Keyset key) {
        return encodeCursor(listing, List.of(Long.toString(key.createdAt().toEpochMilli()), key.id()));
    }

    /**
     * The page of {@code rows}, read with one more row than {@code limit} asked for: that extra row
     * only says a next page exists, whose cursor is the sort key of the last row shown.
     */
    public static <R, V> Page<V> page(List<R> rows, int limit, Function<R, V> view, Function<R, String> cursorOf) {
        List<R> shown = rows.size() > limit ? rows.subList(0, limit) : rows;
        Optional<String> next = rows.size() > limit ? Optional.of(cursorOf.apply(shown.getLast())) : Optional.empty();
        return new Page<>(shown.stream().map(view).toList(), next);
    }

    /** The cursor of a listing whose sort key is {@code fields}. */
    public static String encodeCursor(String listing, List<String> fields) {
        return encode(listing, fields);
    }

    static String encode(String listing, List<String> fields) {
        ArrayNode array = JSON.createArrayNode().add(listing);
        fields.forEach(array::add);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(array.toString().getBytes(StandardCharsets.UTF_8));
    }

    static List<String> decode(String cursor, String listing, int fields) {
        if (cursor.isEmpty() || cursor.length() > MAX_CURSOR_LENGTH || !cursor.matches("[A-Za-z0-9_-]+")) {
            throw Message.CURSOR_INVALID.refusal();
        }
        JsonNode array;
        try {
            array = JSON.readTree(Base64.getUrlDecoder().decode(cursor));
        } catch (IllegalArgumentException | IOException e) {
            throw Message.CURSOR_INVALID.refusal();
        }
        if (array == null || !array.isArray() || array.size() != fields + 1
                || !listing.equals(array.get(0).textValue())) {
            throw Message.CURSOR_INVALID.refusal();
        }
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= fields; i++) {
            JsonNode value = array.get(i);
            if (!value.isTextual() || value.textValue().isEmpty()) {
                throw Message.CURSOR_INVALID.refusal();
            }
            values.add(value.textValue());
        }
        // Only the canonical spelling: a cursor is one the server wrote, byte for byte.
        if (!encode(listing, values).equals(cursor)) {
            throw Message.CURSOR_INVALID.refusal();
        }
        return values;
    }
}
