package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.access.GrantFilter;
import dev.klave.account.Login;
import dev.klave.account.SubjectFilter;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.audit.EventFilter;
import dev.klave.cluster.ClusterId;
import dev.klave.credential.CredentialFilter;
import dev.klave.credential.CredentialStatus;
import dev.klave.storage.Keyset;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shape of the credentials, grants and subjects listings — each filter the API offers, alone
 * and with a keyset — is served by an index that also gives the order: the plan never reads a
 * table whole and never sorts. The table is small here, so each dialect's test forbids the
 * alternatives itself and checks that an index CAN serve the shape ({@code V22}).
 */
abstract class ListingPlansConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final SubjectId SUBJECT = new SubjectId(UUID.randomUUID().toString());
    private static final ClusterId CLUSTER = new ClusterId("prod");
    private static final Optional<Keyset> AFTER = Optional.of(new Keyset(NOW, UUID.randomUUID().toString()));
    private static final int LIMIT = 51;

    @Override
    protected void setUp(Database database) {}

    /** The plan's lines that read a listed table without an index, or sort: none is allowed. */
    protected abstract List<String> offendingSteps(Database database, ListingSql.Statement statement);

    static Stream<Arguments> shapes() {
        List<Arguments> shapes = new ArrayList<>();
        for (Optional<Keyset> after : List.of(Optional.<Keyset>empty(), AFTER)) {
            String page = after.isPresent() ? ", after a keyset" : ", first page";
            for (Map.Entry<String, CredentialFilter> filter : credentialFilters().entrySet()) {
                shapes.add(Arguments.of("credentials " + filter.getKey() + page,
                        JdbiCredentialStore.listing(filter.getValue(), NOW, after, LIMIT)));
            }
            for (Map.Entry<String, GrantFilter> filter : grantFilters().entrySet()) {
                shapes.add(Arguments.of("grants " + filter.getKey() + page,
                        JdbiGrantStore.listing(filter.getValue(), after, LIMIT)));
            }
            Optional<Login> login = after.map(ignored -> new Login("ana"));
            for (Map.Entry<String, SubjectFilter> filter : subjectFilters().entrySet()) {
                shapes.add(Arguments.of("subjects " + filter.getKey() + page,
                        JdbiSubjectStore.listing(filter.getValue(), login, LIMIT)));
            }
        }
        for (Optional<String> afterId : List.of(Optional.<String>empty(), Optional.of("ev-1"))) {
            String page = afterId.isPresent() ? ", after a cursor" : ", first page";
            for (Map.Entry<String, EventFilter> filter : eventFilters().entrySet()) {
                shapes.add(Arguments.of("control events " + filter.getKey() + page,
                        ControlEventListing.of(filter.getValue(), afterId, 0, LIMIT)));
            }
        }
        // Spec 1's page number: an OFFSET, within each arm's walk.
        shapes.add(Arguments.of("control events by type prefix, page 3", ControlEventListing.of(
                eventFilter(Optional.of("user."), Optional.empty()), Optional.empty(), 100, LIMIT)));
        // The whole list, as spec 1 §4 shows it when no limit is asked for.
        shapes.add(Arguments.of("credentials, whole", JdbiCredentialStore.listing(CredentialFilter.ANY, NOW,
                Optional.empty(), Integer.MAX_VALUE)));
        shapes.add(Arguments.of("grants, whole", JdbiGrantStore.listing(new GrantFilter(Optional.empty(),
                Optional.empty(), false), Optional.empty(), Integer.MAX_VALUE)));
        return shapes.stream();
    }

    private static Map<String, CredentialFilter> credentialFilters() {
        Map<String, CredentialFilter> filters = new java.util.LinkedHashMap<>();
        filters.put("unfiltered", CredentialFilter.ANY);
        filters.put("by subject", CredentialFilter.ANY.ofSubject(SUBJECT));
        filters.put("by cluster", new CredentialFilter(Optional.empty(), Optional.of(CLUSTER), Optional.empty(),
                Optional.empty()));
        for (CredentialStatus status : CredentialStatus.values()) {
            filters.put("by status " + status.code(), new CredentialFilter(Optional.empty(), Optional.empty(),
                    Optional.of(status), Optional.empty()));
            filters.put("by subject and status " + status.code(), new CredentialFilter(Optional.of(SUBJECT),
                    Optional.empty(), Optional.of(status), Optional.empty()));
        }
        filters.put("by text", new CredentialFilter(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of("portátil")));
        filters.put("by subject, cluster, status and text", new CredentialFilter(Optional.of(SUBJECT),
                Optional.of(CLUSTER), Optional.of(CredentialStatus.ACTIVE), Optional.of("x")));
        return filters;
    }

    private static Map<String, EventFilter> eventFilters() {
        Map<String, EventFilter> filters = new java.util.LinkedHashMap<>();
        filters.put("unfiltered", EventFilter.ALL);
        filters.put("by type", eventFilter(Optional.of("login.failure"), Optional.empty()));
        filters.put("by type prefix", eventFilter(Optional.of("user."), Optional.empty()));
        filters.put("by person", eventFilter(Optional.empty(), Optional.of(SUBJECT.value())));
        filters.put("by type and person", eventFilter(Optional.of("grant.create"), Optional.of(SUBJECT.value())));
        filters.put("by type prefix and person", eventFilter(Optional.of("agent."), Optional.of(SUBJECT.value())));
        filters.put("by time", new EventFilter(Optional.empty(), Optional.empty(), Optional.of(NOW.minusSeconds(3600)),
                Optional.of(NOW)));
        return filters;
    }

    private static EventFilter eventFilter(Optional<String> type, Optional<String> subject) {
        return new EventFilter(type, subject, Optional.empty(), Optional.empty());
    }

    private static Map<String, GrantFilter> grantFilters() {
        Map<String, GrantFilter> filters = new java.util.LinkedHashMap<>();
        for (boolean revoked : new boolean[] {false, true}) {
            String suffix = revoked ? " with revoked" : "";
            filters.put("unfiltered" + suffix, new GrantFilter(Optional.empty(), Optional.empty(), revoked));
            filters.put("by subject" + suffix, new GrantFilter(Optional.of(SUBJECT), Optional.empty(), revoked));
            filters.put("by cluster" + suffix, new GrantFilter(Optional.empty(), Optional.of(CLUSTER), revoked));
            filters.put("by subject and cluster" + suffix, new GrantFilter(Optional.of(SUBJECT), Optional.of(CLUSTER),
                    revoked));
        }
        return filters;
    }

    private static Map<String, SubjectFilter> subjectFilters() {
        Map<String, SubjectFilter> filters = new java.util.LinkedHashMap<>();
        filters.put("unfiltered", SubjectFilter.ANY);
        filters.put("by text", new SubjectFilter(Optional.of("ana"), Optional.empty(), Optional.empty()));
        filters.put("by kind", new SubjectFilter(Optional.empty(), Optional.of(SubjectKind.BOT), Optional.empty()));
        filters.put("by state", new SubjectFilter(Optional.empty(), Optional.empty(), Optional.of(false)));
        filters.put("administrators", new SubjectFilter(Optional.empty(), Optional.empty(), Optional.empty(), true));
        filters.put("by text, kind, state, administrators", new SubjectFilter(Optional.of("a"),
                Optional.of(SubjectKind.PERSON), Optional.of(true), true));
        return filters;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void anIndexServesTheFilterAndTheOrder(String shape, ListingSql.Statement statement) {
        assertThat(offendingSteps(database(), statement)).as(shape + ": " + statement.sql()).isEmpty();
    }
}
