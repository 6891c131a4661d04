package dev.klave.store;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.oauth.client.ClientKind;
import dev.klave.oauth.client.ClientMetadata;
import dev.klave.oauth.client.ClientStore;
import dev.klave.oauth.client.OAuthClient;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * {@link ClientStore} in SQL. The redirect URIs have a column of their own (every authorization
 * reads them); the rest of what the client declared is one JSON object.
 */
public final class JdbiClientStore implements ClientStore {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

    private final Database database;

    public JdbiClientStore(Database database) {
        this.database = requireNonNull(database, "database is null");
    }

    @Override
    public boolean createWithin(OAuthClient client, int limit) {
        // One statement, so that the count and the insert see the same rows on SQLite; on
        // PostgreSQL two replicas inserting at once may each see the other's row missing.
        return database.write(handle -> handle.createUpdate("""
                        INSERT INTO oauth_clients (id, kind, redirect_uris, metadata, created_at, last_used_at)
                        SELECT :id, :kind, :redirect_uris, :metadata, :created_at, :last_used_at
                        WHERE (SELECT COUNT(*) FROM oauth_clients WHERE kind = 'registered') < :limit""")
                .bind("id", client.id())
                .bind("kind", client.kind().stored())
                .bind("redirect_uris", write(client.metadata().redirectUris()))
                .bind("metadata", write(metadataObject(client.metadata())))
                .bind("created_at", client.createdAt().toEpochMilli())
                .bind("last_used_at", client.lastUsedAt().toEpochMilli())
                .bind("limit", limit)
                .execute() == 1);
    }

    @Override
    public Optional<OAuthClient> find(String clientId) {
        return database.withHandle(handle -> handle.createQuery("""
                        SELECT id, kind, redirect_uris, metadata, created_at, last_used_at
                        FROM oauth_clients WHERE id = :id""")
                .bind("id", clientId)
                .map(JdbiClientStore::client)
                .findOne());
    }

    @Override
    public void touch(String clientId, Instant at) {
        database.write(handle -> handle.createUpdate(
                        "UPDATE oauth_clients SET last_used_at = :at WHERE id = :id AND last_used_at < :at")
                .bind("id", clientId)
                .bind("at", at.toEpochMilli())
                .execute());
    }

    @Override
    public int deleteUnusedSince(Instant cutoff) {
        return database.write(handle -> handle.createUpdate(
                        "DELETE FROM oauth_clients WHERE kind = 'registered' AND last_used_at < :cutoff")
                .bind("cutoff", cutoff.toEpochMilli())
                .execute());
    }

    @Override
    public int deleteNeverSignedInBefore(Instant cutoff) {
        return database.write(handle -> handle.createUpdate(
                        "DELETE FROM oauth_clients WHERE kind = 'registered' AND created_at < :cutoff "
                                + "AND NOT EXISTS (SELECT 1 FROM agent_sessions s WHERE s.client_id = oauth_clients.id)")
                .bind("cutoff", cutoff.toEpochMilli())
                .execute());
    }

    @Override
    public int countRegistered() {
        return database.withHandle(handle -> handle.createQuery(
                        "SELECT COUNT(*) FROM oauth_clients WHERE kind = 'registered'")
                .mapTo(Integer.class)
                .one());
    }

    private static ObjectNode metadataObject(ClientMetadata metadata) {
        ObjectNode object = MAPPER.createObjectNode();
        metadata.clientName().ifPresent(name -> object.put("client_name", name));
        metadata.clientUri().ifPresent(uri -> object.put("client_uri", uri));
        metadata.logoUri().ifPresent(uri -> object.put("logo_uri", uri));
        object.set("grant_types", MAPPER.valueToTree(metadata.grantTypes()));
        object.set("response_types", MAPPER.valueToTree(metadata.responseTypes()));
        return object;
    }

    private static OAuthClient client(ResultSet row, StatementContext context) throws SQLException {
        try {
            JsonNode metadata = MAPPER.readTree(row.getString("metadata"));
            ClientMetadata declared = new ClientMetadata(
                    MAPPER.readValue(row.getString("redirect_uris"), STRINGS),
                    text(metadata, "client_name"), text(metadata, "client_uri"), text(metadata, "logo_uri"),
                    MAPPER.convertValue(metadata.get("grant_types"), STRINGS),
                    MAPPER.convertValue(metadata.get("response_types"), STRINGS));
            return new OAuthClient(row.getString("id"), ClientKind.ofStored(row.getString("kind")), declared,
                    Instant.ofEpochMilli(row.getLong("created_at")), Instant.ofEpochMilli(row.getLong("last_used_at")));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<String> text(JsonNode object, String field) {
        JsonNode value = object.get(field);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value.asText());
    }

    private static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
