package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import dev.klave.recording.Recording;
import dev.klave.recording.RecordingStore;
import dev.klave.recording.SearchText;
import dev.klave.recording.Stdin;
import dev.klave.recording.Terminal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/** {@link RecordingStore} in SQL. */
public final class JdbiRecordingStore implements RecordingStore {
    private static final String COLUMNS = "id, subject_id, subject_login, cluster_id, namespace, pod, container, "
            + "command, tty, stdin_recorded, started_at, ended_at, state, reason, bytes, width, height, exit_code";

    private final Database database;

    public JdbiRecordingStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public void create(Recording recording) {
        database.write(handle -> handle.createUpdate("INSERT INTO recordings (" + COLUMNS + ") VALUES (:id, "
                        + ":subject_id, :subject_login, :cluster_id, :namespace, :pod, :container, :command, :tty, "
                        + ":stdin_recorded, :started_at, NULL, :state, NULL, 0, :width, :height, NULL)")
                .bind("id", recording.id())
                .bind("subject_id", recording.owner().subject().value())
                .bind("subject_login", recording.owner().login())
                .bind("cluster_id", recording.target().cluster().value())
                .bind("namespace", recording.target().namespace())
                .bind("pod", recording.target().pod())
                .bind("container", recording.target().container().orElse(null))
                .bind("command", recording.target().command())
                .bind("tty", recording.terminal().tty().allocated())
                .bind("stdin_recorded", recording.stdin().recorded())
                .bind("started_at", recording.startedAt().toEpochMilli())
                .bind("state", recording.progress().state().code())
                .bind("width", recording.terminal().size().width())
                .bind("height", recording.terminal().size().height())
                .execute());
    }

    @Override
    public void appendAll(List<Chunk> chunks) {
        if (chunks.isEmpty()) {
            return;
        }
        Map<String, Long> sizes = new LinkedHashMap<>();
        chunks.forEach(chunk -> sizes.merge(chunk.id(), chunk.bytes(), Long::sum));
        database.inTransaction(() -> database.withHandle(handle -> {
            var stored = handle.prepareBatch(
                    "INSERT INTO recording_chunks (recording_id, seq, body) VALUES (:id, :seq, :body)");
            var lines = handle.prepareBatch(
                    "INSERT INTO recording_lines (recording_id, at, line) VALUES (:id, :at, :line)");
            boolean anyLine = false;
            for (Chunk chunk : chunks) {
                stored.bind("id", chunk.id()).bind("seq", chunk.seq()).bind("body", chunk.lines()).add();
                for (int i = 0; i < chunk.lineText().size(); i++) {
                    lines.bind("id", chunk.id()).bind("at", chunk.lineAt().get(i)).bind("line", chunk.lineText().get(i))
                            .add();
                    anyLine = true;
                }
            }
            stored.execute();
            if (anyLine) {
                lines.execute();
            }
            var grown = handle.prepareBatch("UPDATE recordings SET bytes = bytes + :bytes WHERE id = :id");
            sizes.forEach((id, bytes) -> grown.bind("id", id).bind("bytes", bytes).add());
            return grown.execute();
        }));
    }

    @Override
    public void end(String id, Instant at, Recording.State state, Optional<String> reason, Optional<Integer> exitCode,
            Terminal.Size size) {
        database.write(handle -> handle.createUpdate("UPDATE recordings SET ended_at = :at, state = :state, "
                        + "reason = :reason, exit_code = :exit_code, width = :width, height = :height "
                        + "WHERE id = :id AND ended_at IS NULL")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("state", state.code())
                .bind("reason", reason.orElse(null))
                .bind("exit_code", exitCode.orElse(null))
                .bind("width", size.width())
                .bind("height", size.height())
                .execute());
    }

    @Override
    public Optional<Recording> findById(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS + " FROM recordings WHERE id = :id")
                .bind("id", id)
                .map(JdbiRecordingStore::map)
                .findOne());
    }

    @Override
    public List<String> chunks(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT body FROM recording_chunks "
                        + "WHERE recording_id = :id ORDER BY seq")
                .bind("id", id)
                .mapTo(String.class)
                .list());
    }

    @Override
    public List<Recording> list(Filter filter, int limit) {
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        filter.subject().ifPresent(ignored -> where.append(" AND subject_id = :subject_id"));
        filter.cluster().ifPresent(ignored -> where.append(" AND cluster_id = :cluster_id"));
        filter.namespace().ifPresent(ignored -> where.append(" AND namespace = :namespace"));
        filter.pod().ifPresent(ignored -> where.append(" AND pod = :pod"));
        filter.from().ifPresent(ignored -> where.append(" AND started_at >= :from"));
        filter.to().ifPresent(ignored -> where.append(" AND started_at < :to"));
        return database.withHandle(handle -> {
            var query = handle.createQuery("SELECT " + COLUMNS + " FROM recordings" + where
                    + " ORDER BY started_at DESC, id LIMIT :limit");
            filter.subject().ifPresent(id -> query.bind("subject_id", id.value()));
            filter.cluster().ifPresent(value -> query.bind("cluster_id", value));
            filter.namespace().ifPresent(value -> query.bind("namespace", value));
            filter.pod().ifPresent(value -> query.bind("pod", value));
            filter.from().ifPresent(at -> query.bind("from", at.toEpochMilli()));
            filter.to().ifPresent(at -> query.bind("to", at.toEpochMilli()));
            return query.bind("limit", limit).map(JdbiRecordingStore::map).list();
        });
    }

    @Override
    public List<Usage> usage() {
        return database.withHandle(handle -> handle.createQuery("SELECT subject_id, SUM(bytes) AS taken, "
                        + "MIN(started_at) AS oldest FROM recordings GROUP BY subject_id")
                .map((row, context) -> new Usage(new SubjectId(row.getString("subject_id")), row.getLong("taken"),
                        Instant.ofEpochMilli(row.getLong("oldest"))))
                .list());
    }

    @Override
    public boolean delete(String id) {
        return database.inTransaction(() -> database.withHandle(handle -> {
            handle.createUpdate("DELETE FROM recording_lines WHERE recording_id = :id").bind("id", id).execute();
            handle.createUpdate("DELETE FROM recording_chunks WHERE recording_id = :id").bind("id", id).execute();
            return handle.createUpdate("DELETE FROM recordings WHERE id = :id").bind("id", id).execute() == 1;
        }));
    }

    @Override
    public int deleteStartedBefore(Instant before, int limit) {
        return database.inTransaction(() -> database.withHandle(handle -> {
            List<String> ids = handle.createQuery("SELECT id FROM recordings WHERE started_at < :before "
                            + "ORDER BY started_at, id LIMIT :limit")
                    .bind("before", before.toEpochMilli()).bind("limit", limit).mapTo(String.class).list();
            if (ids.isEmpty()) {
                return 0;
            }
            handle.createUpdate("DELETE FROM recording_lines WHERE recording_id IN (<ids>)").bindList("ids", ids)
                    .execute();
            handle.createUpdate("DELETE FROM recording_chunks WHERE recording_id IN (<ids>)").bindList("ids", ids)
                    .execute();
            return handle.createUpdate("DELETE FROM recordings WHERE id IN (<ids>)").bindList("ids", ids).execute();
        }));
    }

    @Override
    public void index(String id, List<Double> at, List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        database.write(handle -> {
            var batch = handle.prepareBatch(
                    "INSERT INTO recording_lines (recording_id, at, line) VALUES (:id, :at, :line)");
            for (int i = 0; i < lines.size(); i++) {
                batch.bind("id", id).bind("at", at.get(i)).bind("line", lines.get(i)).add();
            }
            return batch.execute();
        });
    }

    @Override
    public List<Found> search(Optional<SubjectId> subject, SearchText text, int limit) {
        // LIKE with the caller's text as one escaped pattern: %, _ and the escape itself are literal;
        // SearchText holds no NUL, which SQLite would read as the pattern's end.
        String pattern = "%" + text.text().toLowerCase(java.util.Locale.ROOT).replace("!", "!!").replace("%", "!%")
                .replace("_", "!_") + "%";
        String own = subject.isPresent() ? " AND r.subject_id = :subject_id" : "";
        return database.withHandle(handle -> {
            var query = handle.createQuery("SELECT " + qualified() + ", l.at AS line_at, l.line AS line_text "
                    + "FROM recording_lines l JOIN recordings r ON r.id = l.recording_id "
                    + "WHERE LOWER(l.line) LIKE :pattern ESCAPE '!'" + own
                    + " ORDER BY r.started_at DESC, r.id, l.at LIMIT :limit");
            subject.ifPresent(id -> query.bind("subject_id", id.value()));
            return query.bind("pattern", pattern).bind("limit", limit)
                    .map((row, context) -> new Found(map(row, context), row.getDouble("line_at"),
                            row.getString("line_text")))
                    .list();
        });
    }

    private static String qualified() {
        return "r." + COLUMNS.replace(", ", ", r.");
    }

    private static Recording map(ResultSet row, StatementContext context) throws SQLException {
        return new Recording(row.getString("id"),
                new Recording.Owner(new SubjectId(row.getString("subject_id")), row.getString("subject_login")),
                new Recording.Target(new ClusterId(row.getString("cluster_id")), row.getString("namespace"),
                        row.getString("pod"), Optional.ofNullable(row.getString("container")),
                        row.getString("command")),
                new Terminal(Terminal.Tty.of(row.getBoolean("tty")),
                        new Terminal.Size(row.getInt("width"), row.getInt("height"))),
                Stdin.of(row.getBoolean("stdin_recorded")), Times.instant(row, "started_at").orElseThrow(),
                progress(row));
    }

    private static Recording.Progress progress(ResultSet row) throws SQLException {
        int exit = row.getInt("exit_code");
        Optional<Integer> exitCode = row.wasNull() ? Optional.empty() : Optional.of(exit);
        return new Recording.Progress(Recording.State.parse(row.getString("state")),
                Optional.ofNullable(row.getString("reason")), row.getLong("bytes"), Times.instant(row, "ended_at"),
                exitCode);
    }
}
