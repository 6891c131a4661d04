package dev.klave.store;

import static java.util.Objects.requireNonNull;

import dev.klave.crypto.Sealer;
import dev.klave.notify.Destination;
import dev.klave.notify.DestinationStore;
import dev.klave.notify.Kind;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@link DestinationStore} in SQL. The address and the signing secret are sealed with the
 * destination's id as associated data: a sealed value moved to another row does not open.
 */
public final class JdbiDestinationStore implements DestinationStore {
    private static final String COLUMNS = "id, name, format, url_sealed, url_shown, secret_sealed, kinds, created_at, "
            + "created_by, last_attempt_at, last_status, last_error, last_delivered_at, failing_since";

    private final Database database;
    private final Sealer sealer;

    public JdbiDestinationStore(Database database, Sealer sealer) {
        this.database = requireNonNull(database, "database is null");
        this.sealer = requireNonNull(sealer, "sealer is null");
    }

    @Override
    public void create(Destination destination) {
        byte[] aad = destination.id().getBytes(StandardCharsets.UTF_8);
        database.write(handle -> handle.createUpdate("INSERT INTO notify_destinations (" + COLUMNS + ") VALUES "
                        + "(:id, :name, :format, :url_sealed, :url_shown, :secret_sealed, :kinds, :created_at, "
                        + ":created_by, NULL, NULL, NULL, NULL, NULL)")
                .bind("id", destination.id())
                .bind("name", destination.name())
                .bind("format", destination.format().code())
                .bind("url_sealed", sealer.seal(destination.url().toString().getBytes(StandardCharsets.UTF_8), aad))
                .bind("url_shown", destination.urlShown())
                .bind("secret_sealed", destination.secret()
                        .map(secret -> sealer.seal(secret.getBytes(StandardCharsets.UTF_8), aad)).orElse(null))
                .bind("kinds", destination.kinds().stream().map(Kind::code).sorted().collect(Collectors.joining(",")))
                .bind("created_at", destination.createdAt().toEpochMilli())
                .bind("created_by", destination.createdBy().orElse(null))
                .execute());
    }

    @Override
    public Optional<Destination> findById(String id) {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS
                        + " FROM notify_destinations WHERE id = :id")
                .bind("id", id)
                .map(this::map)
                .findOne());
    }

    @Override
    public List<Destination> all() {
        return database.withHandle(handle -> handle.createQuery("SELECT " + COLUMNS
                        + " FROM notify_destinations ORDER BY created_at, id")
                .map(this::map)
                .list());
    }

    @Override
    public boolean delete(String id) {
        return database.write(handle -> handle.createUpdate("DELETE FROM notify_destinations WHERE id = :id")
                .bind("id", id)
                .execute()) == 1;
    }

    @Override
    public void attempted(String id, Instant at, Optional<Integer> status, Optional<String> error, boolean delivered) {
        String sql = delivered
                ? "UPDATE notify_destinations SET last_attempt_at = :at, last_status = :status, last_error = NULL, "
                        + "last_delivered_at = :at, failing_since = NULL WHERE id = :id"
                : "UPDATE notify_destinations SET last_attempt_at = :at, last_status = :status, last_error = :error, "
                        + "failing_since = COALESCE(failing_since, :at) WHERE id = :id";
        database.write(handle -> handle.createUpdate(sql)
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("status", status.orElse(null))
                .bind("error", error.map(text -> text.length() > 500 ? text.substring(0, 500) : text).orElse(null))
                .execute());
    }

    private Destination map(ResultSet row, org.jdbi.v3.core.statement.StatementContext context) throws SQLException {
        String id = row.getString("id");
        byte[] aad = id.getBytes(StandardCharsets.UTF_8);
        URI url = URI.create(new String(sealer.open(row.getString("url_sealed"), aad), StandardCharsets.UTF_8));
        Optional<String> secret = Optional.ofNullable(row.getString("secret_sealed"))
                .map(sealed -> new String(sealer.open(sealed, aad), StandardCharsets.UTF_8));
        int status = row.getInt("last_status");
        Optional<Integer> lastStatus = row.wasNull() ? Optional.empty() : Optional.of(status);
        return new Destination(id, row.getString("name"), Destination.Format.parse(row.getString("format")), url,
                row.getString("url_shown"), secret, Arrays.stream(row.getString("kinds").split(","))
                        .map(Kind::parse).collect(Collectors.toSet()),
                Times.instant(row, "created_at").orElseThrow(), Optional.ofNullable(row.getString("created_by")),
                new Destination.Delivery(Times.instant(row, "last_attempt_at"), lastStatus,
                        Optional.ofNullable(row.getString("last_error")), Times.instant(row, "last_delivered_at")),
                Times.instant(row, "failing_since"));
    }
}
