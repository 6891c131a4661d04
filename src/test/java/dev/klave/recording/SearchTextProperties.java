package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.store.JdbiClusterStore;
import dev.klave.store.JdbiRecordingStore;
import dev.klave.store.JdbiSubjectStore;
import dev.klave.testing.TestingDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The recording search's text (issue 51 finding 11), which any signed-in person types: whatever is
 * hidden in it — controls, NUL, zero-width and bidirectional characters, tags, selectors, fillers,
 * lone surrogates, spaces — fewer than 2 visible characters are refused, and an accepted text
 * finds on either database only lines that contain its visible part.
 */
class SearchTextProperties {
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    /** Seen: letters in both cases, digits, the patterns' own characters, accents, CJK, an emoji. */
    private static final List<String> VISIBLE = List.of("a", "B", "z", "7", "%", "_", "!", "é", "É", "ñ", "语",
            "😀", "\uE000");
    private static final List<String> SPACES = List.of(" ", "\u00A0", "\u2003", "\u3000", "\u202F", "\u1680");
    private static final List<String> MARKS = List.of("\u0301", "\u0308", "\u20DD");
    /** Never seen, and dropped wherever they are (lone low surrogates only, which no piece can pair). */
    private static final List<String> INVISIBLE = List.of("\u0000", "\u0001", "\t", "\n", "\r", "\u001B", "\u001F",
            "\u007F", "\u0080", "\u0085", "\u009F", "\u00AD", "\u034F", "\u061C", "\u115F", "\u1160", "\u17B4",
            "\u180E", "\u200B", "\u200C", "\u200D", "\u200E", "\u200F", "\u2028", "\u2029", "\u202A", "\u202E",
            "\u2060", "\u2063", "\u2066", "\u2069", "\u3164", "\uFE0F", "\uFEFF", "\uFFA0", "\uFFF9", "\u2800",
            "\uDC00", "\uDFFF", "\u0378", "\uDB40\uDC01", "\uDB40\uDC41", "\uDB40\uDD00", "\uD834\uDD73");

    private static TestingDatabase sqlite;
    private static TestingDatabase postgres;

    /** One piece of a query, and what it is. */
    record Piece(String text, Kind kind) {}

    enum Kind { VISIBLE, SPACE, MARK, INVISIBLE }

    @BeforeContainer
    static void open() {
        sqlite = TestingDatabase.sqlite();
        postgres = TestingDatabase.postgres();
    }

    @AfterContainer
    static void close() {
        if (sqlite != null) {
            sqlite.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    private static Arbitrary<Piece> pieces(List<String> visible, int visibleWeight) {
        return Arbitraries.frequencyOf(
                Tuple.of(visibleWeight, Arbitraries.of(visible).map(text -> new Piece(text, Kind.VISIBLE))),
                Tuple.of(10, hidden()));
    }

    /** Spaces, marks and invisible characters: nothing a person sees on its own. */
    private static Arbitrary<Piece> hidden() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(SPACES).map(text -> new Piece(text, Kind.SPACE))),
                Tuple.of(1, Arbitraries.of(MARKS).map(text -> new Piece(text, Kind.MARK))),
                Tuple.of(6, Arbitraries.of(INVISIBLE).map(text -> new Piece(text, Kind.INVISIBLE))));
    }

    /** Pieces of every kind, with at most one visible character among them. */
    @Provide
    Arbitrary<List<Piece>> nearlyInvisible() {
        Arbitrary<List<Piece>> hidden = hidden().list().ofMaxSize(30);
        Arbitrary<Optional<Piece>> one = Arbitraries.of(VISIBLE).map(text -> new Piece(text, Kind.VISIBLE))
                .optional();
        return Combinators.combine(hidden, one, Arbitraries.integers().between(0, 30)).as((list, visible, at) -> {
            List<Piece> all = new ArrayList<>(list);
            visible.ifPresent(piece -> all.add(Math.min(at, all.size()), piece));
            return all;
        });
    }

    /** Pieces of every kind, visible ones as often as the rest. */
    @Provide
    Arbitrary<List<Piece>> mixed() {
        return pieces(VISIBLE, 10).list().ofMaxSize(40);
    }

    /** Queries over a small alphabet, so that they often are part of the lines. */
    @Provide
    Arbitrary<List<Piece>> small() {
        return pieces(List.of("a", "A", "b", "%", "_", "!", "é"), 12).list().ofMinSize(2).ofMaxSize(8);
    }

    @Provide
    Arbitrary<List<String>> lines() {
        return Arbitraries.strings().withChars("aAbB%_! é\u200B").ofMinLength(1).ofMaxLength(12)
                .filter(line -> !line.isBlank()).list().ofMinSize(1).ofMaxSize(6);
    }

    private static String joined(List<Piece> pieces) {
        StringBuilder text = new StringBuilder();
        pieces.forEach(piece -> text.append(piece.text()));
        return text.toString();
    }

    /** What is left of {@code pieces} to search for: nothing invisible, no space at either end. */
    private static String expected(List<Piece> pieces) {
        List<Piece> kept = pieces.stream().filter(piece -> piece.kind() != Kind.INVISIBLE).toList();
        int from = 0;
        int to = kept.size();
        while (from < to && kept.get(from).kind() == Kind.SPACE) {
            from++;
        }
        while (to > from && kept.get(to - 1).kind() == Kind.SPACE) {
            to--;
        }
        return joined(kept.subList(from, to));
    }

    @Property(tries = 2000)
    void fewerThanTwoVisibleCharactersAreRefused(@ForAll("nearlyInvisible") List<Piece> pieces) {
        assertThat(SearchText.parse(joined(pieces))).isEmpty();
    }

    @Property(tries = 2000)
    void theTextSearchedForIsExactlyTheVisiblePart(@ForAll("mixed") List<Piece> pieces) {
        long visible = pieces.stream().filter(piece -> piece.kind() == Kind.VISIBLE).count();
        String expected = expected(pieces);

        Optional<String> parsed = SearchText.parse(joined(pieces)).map(SearchText::text);

        if (visible < 2 || expected.codePointCount(0, expected.length()) > SearchText.MAX) {
            assertThat(parsed).isEmpty();
        } else {
            assertThat(parsed).contains(expected);
        }
    }

    /** Any text at all: never an exception, and what is accepted has two characters one sees. */
    @Property(tries = 3000)
    void anyTextIsRefusedOrHasTwoVisibleCharactersAndNothingHidden(@ForAll String query) {
        Optional<SearchText> parsed = SearchText.parse(query);

        parsed.ifPresent(text -> {
            assertThat(text.text().codePoints().filter(SearchTextProperties::seen).count()).isGreaterThanOrEqualTo(2);
            assertThat(text.text().codePoints().filter(c -> switch (Character.getType(c)) {
                case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.UNASSIGNED -> true;
                default -> false;
            })).as("nothing hidden").isEmpty();
            assertThat(text.text()).isEqualTo(text.text().strip());
        });
    }

    private static boolean seen(int c) {
        return switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER, Character.OTHER_NUMBER, Character.CONNECTOR_PUNCTUATION,
                    Character.DASH_PUNCTUATION, Character.START_PUNCTUATION, Character.END_PUNCTUATION,
                    Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
                    Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL, Character.PRIVATE_USE,
                    Character.COMBINING_SPACING_MARK -> true;
            default -> false;
        };
    }

    @Property(tries = 150)
    void anAcceptedQueryFindsOnlyLinesWithItsVisibleTextOnSqlite(@ForAll("small") List<Piece> query,
            @ForAll("lines") List<String> lines) {
        onlyLinesWithTheVisibleText(sqlite, query, lines);
    }

    @Property(tries = 150)
    void anAcceptedQueryFindsOnlyLinesWithItsVisibleTextOnPostgres(@ForAll("small") List<Piece> query,
            @ForAll("lines") List<String> lines) {
        onlyLinesWithTheVisibleText(postgres, query, lines);
    }

    private static void onlyLinesWithTheVisibleText(TestingDatabase database, List<Piece> query, List<String> lines) {
        String typed = joined(query);
        Optional<SearchText> text = SearchText.parse(typed);
        if (text.isEmpty()) {
            assertThat(query.stream().filter(piece -> piece.kind() == Kind.VISIBLE).count()).isLessThan(2);
            return;
        }
        RecordingStore store = new JdbiRecordingStore(database.database());
        Subject owner = Subject.newPerson(new Login("p-" + UUID.randomUUID().toString().substring(0, 12)), "P",
                Optional.empty(), false, false, NOW);
        new JdbiSubjectStore(database.database()).create(owner);
        ClusterId cluster = new ClusterId("c-" + UUID.randomUUID().toString().substring(0, 8));
        new JdbiClusterStore(database.database()).create(new Cluster(cluster, "Cluster", NOW, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty()));
        String id = UUID.randomUUID().toString();
        store.create(Recording.started(id, new Recording.Owner(owner.id(), "p"),
                new Recording.Target(cluster, "team-a", "box", Optional.empty(), "sh"),
                Terminal.opening(Terminal.Tty.ALLOCATED), Stdin.NOT_RECORDED, NOW));
        store.index(id, IntStream.range(0, lines.size()).mapToObj(i -> (double) i).toList(), lines);

        List<String> found = store.search(Optional.of(owner.id()), text.get(), 100).stream()
                .map(RecordingStore.Found::line).toList();

        String wanted = text.get().text().toLowerCase(Locale.ROOT);
        assertThat(found).as("searching %s for %s", lines, typed)
                .allSatisfy(line -> assertThat(line.toLowerCase(Locale.ROOT)).contains(wanted));
        // Found as well: every line holding the visible text as typed, where both are ASCII (SQLite's
        // LOWER folds ASCII letters only).
        if (text.get().text().chars().allMatch(c -> c < 0x80)) {
            List<String> holding = lines.stream().filter(line -> line.chars().allMatch(c -> c < 0x80))
                    .filter(line -> line.toLowerCase(Locale.ROOT).contains(wanted)).toList();
            assertThat(found).as("searching %s for %s", lines, typed).containsAll(holding);
        }
    }
}
