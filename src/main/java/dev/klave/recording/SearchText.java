package dev.klave.recording;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What the recorded lines are searched for ({@code GET /api/recordings/search?q=…}): the visible
 * part of what was typed, 2 to 200 characters. The query comes from anyone signed in, so it is
 * read as untrusted text: control characters (C0, C1, NUL among them), invisible formatting
 * (zero-width characters, bidirectional controls, the byte order mark, tags, variation selectors
 * — Unicode's Default_Ignorable_Code_Point), line separators, lone surrogates and unassigned code
 * points are dropped, and spaces at either end. Spaces and combining marks inside are kept but
 * count as nothing: the two characters at least must be ones a person sees. A NUL reached the
 * database as the end of the pattern (SQLite reads it as a C string), so {@code %00%00} searched
 * for nothing and found every line.
 *
 * <p>A store takes only this type, so no other text reaches its pattern.
 */
public record SearchText(String text) {
    /** The fewest visible characters searched for. */
    public static final int MIN_VISIBLE = 2;
    /** The longest text searched for, in characters (code points), spaces and marks included. */
    public static final int MAX = 200;

    public SearchText {
        requireNonNull(text, "text is null");
        if (!clean(text).equals(text) || !fits(text)) {
            throw new IllegalArgumentException("a search text is 2 to 200 visible characters, nothing invisible");
        }
    }

    /** The visible part of {@code query}, or empty when it has fewer than 2 visible characters or over 200. */
    public static Optional<SearchText> parse(String query) {
        String cleaned = clean(query == null ? "" : query);
        return fits(cleaned) ? Optional.of(new SearchText(cleaned)) : Optional.empty();
    }

    private static boolean fits(String cleaned) {
        return visible(cleaned) >= MIN_VISIBLE && cleaned.codePointCount(0, cleaned.length()) <= MAX;
    }

    /** {@code query} without what no one sees, and without spaces at either end. */
    static String clean(String query) {
        int[] kept = query.codePoints().filter(c -> !invisible(c)).toArray();
        int from = 0;
        int to = kept.length;
        while (from < to && space(kept[from])) {
            from++;
        }
        while (to > from && space(kept[to - 1])) {
            to--;
        }
        return new String(kept, from, to - from);
    }

    /** How many characters of {@code text} a person sees: not spaces, not marks alone. */
    static int visible(String text) {
        return (int) text.codePoints().filter(c -> !space(c) && !mark(c)).count();
    }

    /** Dropped wherever it is: no one sees it, and some of it means something to a database. */
    static boolean invisible(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.UNASSIGNED,
                    Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> true;
            default -> defaultIgnorable(c) || c == 0x2800; // U+2800: the braille pattern with no dots
        };
    }

    private static boolean space(int c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }

    private static boolean mark(int c) {
        int type = Character.getType(c);
        return type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK;
    }

    /**
     * Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) beyond the format
     * characters: fillers and selectors a font draws as nothing.
     */
    private static boolean defaultIgnorable(int c) {
        return c == 0x00AD || c == 0x034F || c == 0x061C || c == 0x115F || c == 0x1160 || c == 0x17B4
                || c == 0x17B5 || c >= 0x180B && c <= 0x180F || c >= 0x200B && c <= 0x200F
                || c >= 0x202A && c <= 0x202E || c >= 0x2060 && c <= 0x206F || c == 0x3164
                || c >= 0xFE00 && c <= 0xFE0F || c == 0xFEFF || c == 0xFFA0 || c >= 0xFFF0 && c <= 0xFFF8
                || c >= 0x1BCA0 && c <= 0x1BCA3 || c >= 0x1D173 && c <= 0x1D17A || c >= 0xE0000 && c <= 0xE0FFF;
    }
}
