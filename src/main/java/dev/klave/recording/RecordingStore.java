package dev.klave.recording;

import dev.klave.account.SubjectId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of recordings and their chunks of asciicast lines, in order. */
public interface RecordingStore {
    void create(Recording recording);

    /** Appends one chunk (the next {@code seq}) and adds its size to the recording's. */
    default void append(String id, int seq, String lines, long bytes) {
        appendAll(List.of(new Chunk(id, seq, lines, bytes, List.of(), List.of())));
    }

    /**
     * Appends chunks of any recordings, in one transaction: each chunk, the lines it completed (for
     * search: when each began, in seconds from the recording's start), and its size added to its
     * recording's. The writer stores what waits in one go: a transaction per 16 KiB chunk held a
     * stream printing at network speed to a few MiB a second on SQLite (bench/RESULTS.md).
     */
    void appendAll(List<Chunk> chunks);

    /** A chunk of a recording's asciicast lines, with the output lines it completed. */
    record Chunk(String id, int seq, String lines, long bytes, List<Double> lineAt, List<String> lineText) {
        public Chunk {
            lineAt = List.copyOf(lineAt);
            lineText = List.copyOf(lineText);
            if (lineAt.size() != lineText.size()) {
                throw new IllegalArgumentException("a line without its time");
            }
        }
    }

    /** Ends it: its state, reason, exit code and terminal size as they stood. */
    void end(String id, Instant at, Recording.State state, Optional<String> reason, Optional<Integer> exitCode,
            Terminal.Size size);

    Optional<Recording> findById(String id);

    /** The chunks of a recording, in order. */
    List<String> chunks(String id);

    /** Stores lines of a recording's output with when each began (seconds from its start), for search. */
    void index(String id, List<Double> at, List<String> lines);

    /**
     * Lines containing {@code text} (case-insensitive), newest sessions first, then by time; a
     * person's own sessions when {@code subject} is given. Every character of the text is matched
     * literally: none is a pattern's.
     */
    List<Found> search(Optional<SubjectId> subject, SearchText text, int limit);

    /** A line found: its recording, when it began, the line. */
    record Found(Recording recording, double at, String line) {}

    /**
     * What each person's recordings take, in bytes of asciicast, and when their oldest began
     * (what retention frees next): the quota and the shares are counted from it.
     */
    List<Usage> usage();

    /** A person's recordings together. */
    record Usage(SubjectId subject, long bytes, Instant oldest) {
        public Usage {
            java.util.Objects.requireNonNull(subject, "subject is null");
            java.util.Objects.requireNonNull(oldest, "oldest is null");
        }
    }

    /** Deletes one recording with its chunks and lines; whether there was one. */
    boolean delete(String id);

    /** Deletes up to {@code limit} recordings (with their chunks and lines) started before {@code before}. */
    int deleteStartedBefore(Instant before, int limit);

    /** Newest first; a person's own when {@code subject} is given. */
    default List<Recording> list(Optional<SubjectId> subject, int limit) {
        return list(new Filter(subject, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()), limit);
    }

    /** Newest first, those {@code filter} keeps. */
    List<Recording> list(Filter filter, int limit);

    /** The "Sesiones" view's filters; empty ones keep everything. */
    record Filter(Optional<SubjectId> subject, Optional<String> cluster, Optional<String> namespace,
            Optional<String> pod, Optional<Instant> from, Optional<Instant> to) {
        public Filter {
            java.util.Objects.requireNonNull(subject, "subject is null");
            java.util.Objects.requireNonNull(cluster, "cluster is null");
            java.util.Objects.requireNonNull(namespace, "namespace is null");
            java.util.Objects.requireNonNull(pod, "pod is null");
            java.util.Objects.requireNonNull(from, "from is null");
            java.util.Objects.requireNonNull(to, "to is null");
        }
    }
}
