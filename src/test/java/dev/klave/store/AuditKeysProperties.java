package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.audit.AuditIds;
import java.util.Arrays;
import java.util.UUID;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The Audit-ID's text, which reaches Klave from outside (GET /api/audit/{id}, a cursor), and its
 * 16 stored bytes (V37): only canonical UUID text passes, it comes back unchanged from either
 * database's form, and the bytes order as the text does — the listing's order on both.
 */
class AuditKeysProperties {
    private static final Pattern CANONICAL =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    @Property
    void onlyCanonicalUuidTextIsAnAuditId(@ForAll("nearlyIds") String text) {
        assertThat(AuditIds.wellFormed(text)).isEqualTo(CANONICAL.matcher(text).matches());
    }

    @Property
    void anIdComesBackAsItWentInOnEitherDatabase(@ForAll("ids") String id) {
        assertThat(AuditKeys.text(AuditKeys.bound(Dialect.SQLITE, id))).isEqualTo(id);
        assertThat(AuditKeys.text(AuditKeys.bound(Dialect.POSTGRES, id))).isEqualTo(id);
    }

    @Property
    void theStoredBytesOrderAsTheText(@ForAll("ids") String one, @ForAll("ids") String other) {
        byte[] a = (byte[]) AuditKeys.bound(Dialect.SQLITE, one);
        byte[] b = (byte[]) AuditKeys.bound(Dialect.SQLITE, other);
        // SQLite compares BLOBs with memcmp, PostgreSQL uuids byte by byte unsigned: Arrays.compareUnsigned.
        assertThat(Integer.signum(Arrays.compareUnsigned(a, b))).isEqualTo(Integer.signum(one.compareTo(other)));
    }

    @Provide
    Arbitrary<String> ids() {
        return Arbitraries.longs().tuple2().map(pair -> new UUID(pair.get1(), pair.get2()).toString());
    }

    /** Canonical ids, and the same with one character changed, dropped, doubled or upper-cased. */
    @Provide
    Arbitrary<String> nearlyIds() {
        Arbitrary<Integer> position = Arbitraries.integers().between(0, 35);
        Arbitrary<Character> any = Arbitraries.oneOf(Arbitraries.chars().with("0123456789abcdefABCDEF-g :/%"),
                Arbitraries.chars());
        return Arbitraries.oneOf(ids(),
                ids().flatMap(id -> position.flatMap(at -> any.map(c -> id.substring(0, at) + c + id.substring(at + 1)))),
                ids().flatMap(id -> position.map(at -> id.substring(0, at) + id.substring(at + 1))),
                ids().flatMap(id -> position.map(at -> id.substring(0, at) + id.charAt(at) + id.substring(at))),
                ids().map(id -> id.toUpperCase(java.util.Locale.ROOT)),
                Arbitraries.strings().ofMaxLength(40));
    }
}
