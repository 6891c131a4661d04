package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.account.SubjectId;
import dev.klave.cluster.Cluster;
import dev.klave.cluster.ClusterId;
import dev.klave.recording.ClusterRecording;
import dev.klave.recording.Recording;
import dev.klave.recording.RecordingPolicy;
import dev.klave.recording.RecordingStore;
import dev.klave.recording.Stdin;
import dev.klave.recording.Terminal;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every {@link RecordingStore} must do (issue 42): a recording, its chunks in order, its end once. */
abstract class RecordingStoreConformance extends StoreConformance {
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    private RecordingStore store;
    private JdbiClusterStore clusters;

    @Override
    protected void setUp(Database database) {
        store = new JdbiRecordingStore(database);
        clusters = new JdbiClusterStore(database);
    }

    private Recording stored(SubjectId subject) {
        ClusterId cluster = new ClusterId("c-" + UUID.randomUUID().toString().substring(0, 8));
        clusters.create(new Cluster(cluster, "Cluster", NOW, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        Recording recording = Recording.started(UUID.randomUUID().toString(), new Recording.Owner(subject, "eva"),
                new Recording.Target(cluster, "team-a", "box", Optional.of("app"), "sh -c echo ñ"),
                Terminal.opening(Terminal.Tty.ALLOCATED), Stdin.NOT_RECORDED, NOW);
        store.create(recording);
        return recording;
    }

    @Test
    void aRecordingKeepsItsChunksInOrderAndEndsOnce() {
        SubjectId eva = storedPerson("recorded");
        Recording recording = stored(eva);

        store.append(recording.id(), 0, "[0.1,\"o\",\"uno\"]\n", 19);
        store.append(recording.id(), 1, "[0.2,\"o\",\"dós\"]\n", 19);
        store.end(recording.id(), NOW.plusSeconds(5), Recording.State.COMPLETE, Optional.empty(), Optional.of(3),
                new Terminal.Size(120, 40));
        store.end(recording.id(), NOW.plusSeconds(9), Recording.State.INCOMPLETE, Optional.of("otra vez"),
                Optional.empty(), Terminal.Size.DEFAULT);

        assertThat(store.chunks(recording.id())).containsExactly("[0.1,\"o\",\"uno\"]\n",
                "[0.2,\"o\",\"dós\"]\n");
        Recording read = store.findById(recording.id()).orElseThrow();
        assertThat(read.progress().state()).as("ended once").isEqualTo(Recording.State.COMPLETE);
        assertThat(read.progress().endedAt()).contains(NOW.plusSeconds(5));
        assertThat(read.progress().exitCode()).contains(3);
        assertThat(read.progress().bytes()).isEqualTo(38);
        assertThat(read.terminal()).isEqualTo(new Terminal(Terminal.Tty.ALLOCATED, new Terminal.Size(120, 40)));
        assertThat(read.stdin()).isEqualTo(Stdin.NOT_RECORDED);
        assertThat(read.target()).isEqualTo(recording.target());
        assertThat(read.owner()).isEqualTo(recording.owner());
    }

    @Test
    void chunksOfSeveralRecordingsAreStoredTogetherWithTheirLinesOrNotAtAll() {
        Recording one = stored(storedPerson("recorded"));
        Recording two = stored(storedPerson("recorded"));

        store.appendAll(java.util.List.of(
                new RecordingStore.Chunk(one.id(), 0, "a", 10, java.util.List.of(0.5), java.util.List.of("listo uno")),
                new RecordingStore.Chunk(two.id(), 0, "b", 7, java.util.List.of(), java.util.List.of()),
                new RecordingStore.Chunk(one.id(), 1, "c", 5, java.util.List.of(), java.util.List.of())));

        assertThat(store.chunks(one.id())).containsExactly("a", "c");
        assertThat(store.chunks(two.id())).containsExactly("b");
        assertThat(store.findById(one.id()).orElseThrow().progress().bytes()).isEqualTo(15);
        assertThat(store.findById(two.id()).orElseThrow().progress().bytes()).isEqualTo(7);
        assertThat(store.search(Optional.empty(), text("listo uno"), 10)).extracting(found -> found.recording().id())
                .containsExactly(one.id());

        // A batch with a chunk that cannot be stored (its seq taken) stores none of it.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.appendAll(java.util.List.of(
                new RecordingStore.Chunk(two.id(), 1, "d", 3, java.util.List.of(1.0), java.util.List.of("perdida")),
                new RecordingStore.Chunk(one.id(), 0, "again", 5, java.util.List.of(), java.util.List.of()))))
                .isInstanceOf(RuntimeException.class);
        assertThat(store.chunks(two.id())).containsExactly("b");
        assertThat(store.findById(two.id()).orElseThrow().progress().bytes()).isEqualTo(7);
        assertThat(store.search(Optional.empty(), text("perdida"), 10)).isEmpty();
    }

    @Test
    void linesAreFoundByAnyPartOfThemIgnoringCaseAndTheirPatternCharacters() {
        SubjectId eva = storedPerson("recorded");
        Recording recording = stored(eva);
        Recording others = stored(storedPerson("recorded"));
        store.index(recording.id(), java.util.List.of(1.5, 4.0), java.util.List.of("Permission denied", "100% done_"));
        store.index(others.id(), java.util.List.of(2.0), java.util.List.of("permission DENIED again"));

        assertThat(store.search(Optional.of(eva), text("permission"), 10)).extracting(RecordingStore.Found::at)
                .containsExactly(1.5);
        assertThat(store.search(Optional.empty(), text("PERMISSION denied"), 10)).hasSize(2);
        assertThat(store.search(Optional.of(eva), text("0% d"), 10)).extracting(RecordingStore.Found::line)
                .containsExactly("100% done_");
        assertThat(store.search(Optional.of(eva), text("0%"), 10)).as("a literal %").hasSize(1);
        assertThat(store.search(Optional.of(eva), text("n%"), 10)).as("a literal %, no wildcard").isEmpty();
        assertThat(store.search(Optional.of(eva), text("e_"), 10)).as("a literal _").hasSize(1);
        assertThat(store.search(Optional.of(eva), text("nada"), 10)).isEmpty();
    }

    private static dev.klave.recording.SearchText text(String text) {
        return new dev.klave.recording.SearchText(text);
    }

    @Test
    void eachPersonsUsageCountsTheirRecordingsAndOldOnesAreDeletedWithTheirChunksAndLines() {
        SubjectId eva = storedPerson("recorded");
        Recording old = stored(eva);
        store.append(old.id(), 0, "[0.1,\"o\",\"uno\"]\n", 100);
        store.index(old.id(), java.util.List.of(0.1), java.util.List.of("uno"));
        Recording second = stored(eva);
        store.append(second.id(), 0, "x", 20);
        assertThat(store.usage()).contains(new RecordingStore.Usage(eva, 120, NOW));

        assertThat(store.deleteStartedBefore(NOW.plusSeconds(1), 10_000)).isGreaterThanOrEqualTo(1);

        assertThat(store.findById(old.id())).isEmpty();
        assertThat(store.chunks(old.id())).isEmpty();
        assertThat(store.search(Optional.of(eva), text("uno"), 10)).isEmpty();
        assertThat(store.deleteStartedBefore(NOW.minusSeconds(1), 10_000)).isZero();
    }

    @Test
    void oneRecordingIsDeletedWithItsChunksAndLinesAndTheOthersStay() {
        SubjectId eva = storedPerson("recorded");
        Recording gone = stored(eva);
        Recording kept = stored(eva);
        store.append(gone.id(), 0, "[0.1,\"o\",\"dos\"]\n", 30);
        store.index(gone.id(), java.util.List.of(0.1), java.util.List.of("dos"));
        store.append(kept.id(), 0, "[0.1,\"o\",\"dos\"]\n", 30);

        assertThat(store.delete(gone.id())).isTrue();
        assertThat(store.delete(gone.id())).as("once").isFalse();

        assertThat(store.findById(gone.id())).isEmpty();
        assertThat(store.chunks(gone.id())).isEmpty();
        assertThat(store.chunks(kept.id())).hasSize(1);
        assertThat(store.usage()).contains(new RecordingStore.Usage(eva, 30, NOW));
    }

    @Test
    void beyondTheQuotaASessionGoesOnUnrecordedAndItsRowSaysWhy() throws Exception {
        dev.klave.recording.RecordingPolicies policies = new dev.klave.recording.RecordingPolicies(
                new JdbiRecordingPolicyStore(database()), clusters, new dev.klave.audit.ControlEvents(
                        new JdbiControlEventStore(database()), java.time.Clock.systemUTC()), database(),
                java.time.Clock.systemUTC());
        SubjectId eva = storedPerson("recorded");
        Recording filler = stored(eva);
        store.append(filler.id(), 0, "x", 2048);
        try (dev.klave.recording.Recordings recordings = new dev.klave.recording.Recordings(store, policies,
                new dev.klave.audit.ControlEvents(new JdbiControlEventStore(database()), java.time.Clock.systemUTC()),
                database(), java.time.Clock.systemUTC(), 1024, 1024, 1024, Optional.empty(),
                dev.klave.recording.SpdyReader.NONE)) {
            recordings.startWriting();
            recordings.flushNow();
            dev.klave.testing.Eventually.until("the total read", java.time.Duration.ofSeconds(5),
                    () -> recordings.refusing(eva).isPresent());
            String id = UUID.randomUUID().toString();
            dev.klave.recording.Tap tap = recordings.start(new dev.klave.recording.Recordings.Session(id,
                    eva, "eva", filler.target().cluster(), new dev.klave.recording.SessionRequest.Recorded("exec",
                    "team-a", "box", Optional.empty(), "sh", Terminal.Tty.NONE, Optional.empty())));

            assertThat(tap.end(Optional.empty()).toCompletableFuture().join())
                    .hasValueSatisfying(why -> assertThat(why).contains("cuota"));
            recordings.flushNow();
            Recording read = store.findById(id).orElseThrow();
            assertThat(read.progress().state()).isEqualTo(Recording.State.INCOMPLETE);
            assertThat(read.progress().reason()).hasValueSatisfying(why -> assertThat(why).contains("cuota"));
        }
    }

    @Test
    void aClustersPolicyIsSavedAndReplaced() {
        dev.klave.recording.RecordingPolicyStore policies = new JdbiRecordingPolicyStore(database());
        ClusterId cluster = stored(storedPerson("recorded")).target().cluster();
        assertThat(policies.all()).doesNotContainKey(cluster);

        policies.save(cluster, new ClusterRecording(RecordingPolicy.REQUIRED, Stdin.RECORDED), NOW, "root");
        assertThat(policies.all()).containsEntry(cluster, new ClusterRecording(RecordingPolicy.REQUIRED,
                Stdin.RECORDED));
        policies.save(cluster, new ClusterRecording(RecordingPolicy.OFF, Stdin.NOT_RECORDED), NOW.plusSeconds(1),
                "root");

        assertThat(policies.all()).containsEntry(cluster, new ClusterRecording(RecordingPolicy.OFF,
                Stdin.NOT_RECORDED));
    }

    @Test
    void aPersonsListHoldsTheirOwnNewestFirst() {
        SubjectId eva = storedPerson("recorded");
        Recording first = stored(eva);
        Recording other = stored(storedPerson("recorded"));

        assertThat(store.list(Optional.of(eva), 10)).extracting(Recording::id).containsExactly(first.id());
        assertThat(store.list(Optional.empty(), 1000)).extracting(Recording::id).contains(first.id(), other.id());
        assertThat(store.findById("none")).isEmpty();
    }
}
