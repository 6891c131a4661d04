package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.account.SubjectFilter;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.account.SubjectStore;
import dev.klave.storage.AlreadyExistsException;
import dev.klave.storage.NotFoundException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What every {@link SubjectStore} must do, whatever the database behind it. */
abstract class SubjectStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private SubjectStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiSubjectStore(database);
    }

    private static Subject person(String prefix) {
        return Subject.newPerson(new Login(prefix + "-" + SEQUENCE.incrementAndGet()), "Ana Pérez",
                Optional.of("ana@example.com"), true, false, NOW);
    }

    @Test
    void storedPersonReadsBackIdenticallyByIdAndByLogin() {
        Subject person = person("ana");

        store.create(person);

        assertThat(store.findById(person.id())).contains(person);
        assertThat(store.findByLogin(person.login())).contains(person);
    }

    @Test
    void storedBotReadsBackWithoutEmailOrPassword() {
        Subject bot = new Subject(SubjectId.random(), new Login("deployer-" + SEQUENCE.incrementAndGet()),
                SubjectKind.BOT, "Deployer", Optional.empty(), false, false, Optional.empty(), Optional.empty(),
                NOW, false);

        store.create(bot);

        assertThat(store.findById(bot.id())).contains(bot);
    }

    @Test
    void unknownSubjectIsAbsent() {
        assertThat(store.findById(SubjectId.random())).isEmpty();
        assertThat(store.findByLogin(new Login("nobody-here"))).isEmpty();
    }

    @Test
    void loginOfADisabledSubjectStaysTaken() {
        Subject first = person("taken");
        store.create(first);
        store.update(first.id(), subject -> subject.withDisabledAt(Optional.of(NOW)));
        Subject second = Subject.newPerson(first.login(), "Other", Optional.empty(), false, false, NOW);

        assertThatThrownBy(() -> store.create(second)).isInstanceOf(AlreadyExistsException.class);
        assertThat(store.findById(second.id())).isEmpty();
    }

    @Test
    void listIsOrderedByLogin() {
        Subject zed = Subject.newPerson(new Login("zz-list-" + SEQUENCE.incrementAndGet()), "Z", Optional.empty(),
                false, false, NOW);
        Subject abe = Subject.newPerson(new Login("aa-list-" + SEQUENCE.incrementAndGet()), "A", Optional.empty(),
                false, false, NOW);
        store.create(zed);
        store.create(abe);

        List<String> logins = store.list().stream().map(subject -> subject.login().value()).toList();

        assertThat(logins).isSorted().contains(abe.login().value(), zed.login().value());
    }

    @Test
    void theListingPagesByLoginAndFiltersByTextKindAndState() {
        String prefix = "pg" + SEQUENCE.incrementAndGet() + "x";
        List<Subject> created = new java.util.ArrayList<>();
        for (String name : List.of("e", "b", "d", "a", "c")) {
            Subject person = Subject.newPerson(new Login(prefix + name), "Nombre " + name.toUpperCase(),
                    Optional.of(name + "@" + prefix + ".example"), false, false, NOW);
            store.create(person);
            created.add(person);
        }
        Subject bot = new Subject(SubjectId.random(), new Login(prefix + "f"), SubjectKind.BOT, "Robot 50%",
                Optional.empty(), false, false, Optional.empty(), Optional.empty(), NOW, false);
        store.create(bot);
        store.update(created.get(0).id(), subject -> subject.withDisabledAt(Optional.of(NOW)));
        SubjectFilter mine = new SubjectFilter(Optional.of(prefix), Optional.empty(), Optional.empty());

        List<String> seen = new java.util.ArrayList<>();
        Optional<Login> after = Optional.empty();
        for (List<Subject> page = store.list(mine, after, 2); ; page = store.list(mine, after, 2)) {
            page.forEach(subject -> seen.add(subject.login().value()));
            if (page.size() < 2) {
                break;
            }
            after = Optional.of(page.getLast().login());
        }

        assertThat(seen).containsExactly(prefix + "a", prefix + "b", prefix + "c", prefix + "d", prefix + "e",
                prefix + "f");
        assertThat(logins(new SubjectFilter(Optional.of(prefix), Optional.of(SubjectKind.BOT), Optional.empty())))
                .containsExactly(prefix + "f");
        assertThat(logins(new SubjectFilter(Optional.of(prefix), Optional.empty(), Optional.of(false))))
                .containsExactly(prefix + "e");
        assertThat(logins(new SubjectFilter(Optional.of(prefix), Optional.of(SubjectKind.PERSON), Optional.of(true))))
                .containsExactly(prefix + "a", prefix + "b", prefix + "c", prefix + "d");
        assertThat(logins(new SubjectFilter(Optional.of("C@" + prefix.toUpperCase()), Optional.empty(),
                Optional.empty()))).as("by e-mail, any case").containsExactly(prefix + "c");
        assertThat(logins(new SubjectFilter(Optional.of("nombre d"), Optional.empty(), Optional.empty())))
                .as("by name").contains(prefix + "d").doesNotContain(prefix + "c");
        assertThat(logins(new SubjectFilter(Optional.of("robot 50%"), Optional.empty(), Optional.empty())))
                .contains(prefix + "f");
    }

    private List<String> logins(SubjectFilter filter) {
        return store.list(filter, Optional.empty(), 100).stream().map(subject -> subject.login().value()).toList();
    }

    @Test
    void updateWritesTheChangedSubjectAndReturnsIt() {
        Subject person = person("update");
        store.create(person);

        Subject changed = store.update(person.id(), subject -> subject.withBreakGlass(true));

        assertThat(changed.breakGlass()).isTrue();
        assertThat(store.findById(person.id())).contains(changed);
    }

    /** Spec 3 §4 "Write approval flow": the bot's setting is kept, and cleared again. */
    @Test
    void aBotsWritesNeedApprovalIsStoredAndCleared() {
        Subject bot = new Subject(SubjectId.random(), new Login("approver-" + SEQUENCE.incrementAndGet()),
                SubjectKind.BOT, "Deployer", Optional.empty(), false, false, Optional.empty(), Optional.empty(),
                NOW, true);
        store.create(bot);
        assertThat(store.findById(bot.id())).contains(bot);

        Subject cleared = store.update(bot.id(), subject -> subject.withWritesNeedApproval(false));

        assertThat(cleared.writesNeedApproval()).isFalse();
        assertThat(store.findById(bot.id())).contains(cleared);
        assertThat(store.update(bot.id(), subject -> subject.withWritesNeedApproval(true)).writesNeedApproval())
                .isTrue();
        assertThat(store.findByLogin(bot.login()).orElseThrow().writesNeedApproval()).isTrue();
    }

    @Test
    void updateOfAnUnknownSubjectFails() {
        assertThatThrownBy(() -> store.update(SubjectId.random(), subject -> subject))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void loginCannotBeChangedByAnUpdate() {
        Subject person = person("immutable");
        store.create(person);

        assertThatThrownBy(() -> store.update(person.id(), subject -> new Subject(subject.id(),
                new Login("renamed-" + SEQUENCE.incrementAndGet()), subject.kind(), subject.displayName(),
                subject.email(), subject.admin(), subject.breakGlass(), subject.disabledAt(),
                subject.passwordHash(), subject.createdAt(), subject.writesNeedApproval())))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(store.findById(person.id())).contains(person);
    }

    @Test
    void concurrentUpdatesOfOneSubjectAreNotLost() throws Exception {
        Subject person = Subject.newPerson(new Login("counter-" + SEQUENCE.incrementAndGet()), "", Optional.empty(),
                false, false, NOW);
        store.create(person);
        int writers = 4;
        int updatesEach = 10;

        try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
            List<Future<?>> done = new ArrayList<>();
            for (int writer = 0; writer < writers; writer++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < updatesEach; i++) {
                        store.update(person.id(), subject -> subject.withDisplayName(subject.displayName() + "x"));
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        }

        assertThat(store.findById(person.id()).orElseThrow().displayName()).hasSize(writers * updatesEach);
    }

    @Test
    void failureLaterInATransactionUndoesTheInsert() {
        Subject person = person("rollback");

        assertThatThrownBy(() -> database().inTransaction(() -> {
            store.create(person);
            throw new IllegalStateException("something after the insert failed");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(store.findById(person.id())).isEmpty();
    }

    @Test
    void peopleAreFoundByEMailFoldingOnlyTheLettersAToZ() {
        String local = "Mixed.Case" + SEQUENCE.incrementAndGet();
        Subject upper = Subject.newPerson(new Login("mail-" + SEQUENCE.incrementAndGet()), "U",
                Optional.of("  " + local + "@Example.COM "), false, false, NOW);
        Subject dotless = Subject.newPerson(new Login("mail-" + SEQUENCE.incrementAndGet()), "D",
                Optional.of("\u0130" + local + "@example.com"), false, false, NOW);
        Subject bot = new Subject(SubjectId.random(), new Login("mail-bot-" + SEQUENCE.incrementAndGet()),
                SubjectKind.BOT, "B", Optional.empty(), false, false, Optional.empty(), Optional.empty(), NOW, false);
        store.create(upper);
        store.create(dotless);
        store.create(bot);

        assertThat(store.findPeopleByEmail(local.toLowerCase() + "@example.com")).containsExactly(upper);
        assertThat(store.findPeopleByEmail("i" + local + "@example.com")).as("İ is not i").isEmpty();
        for (String hostile : java.util.List.of(local + "@example.com\u3000", "\u2003" + local + "@example.com\u001f",
                "\t" + local + "@example.com", local + "@example.com\u00a0")) {
            assertThat(store.findPeopleByEmail(hostile)).as("only spaces are trimmed").isEmpty();
        }

        Subject changed = store.update(upper.id(), subject -> subject.withEmail(Optional.of("other-" + local
                + "@example.com")));
        assertThat(store.findPeopleByEmail(local + "@example.com")).isEmpty();
        assertThat(store.findPeopleByEmail("OTHER-" + local + "@EXAMPLE.com")).containsExactly(changed);
    }
}
