-- Spec 3 §2 "OAuth client", §4 "Clients": the public clients of the agent login. A registered
-- client (RFC 7591) has a random id; a client with a metadata document is named by the https URL
-- of its document. redirect_uris is a JSON array of strings, each accepted by the redirect URI
-- rules when stored; metadata is a JSON object with what else the client declared (client_name,
-- client_uri, logo_uri, grant_types, response_types). last_used_at starts at created_at and moves
-- when the client asks for authorization or tokens: a registered client unused for 30 days is
-- deleted (spec 3 §8).
CREATE TABLE oauth_clients (
    id            TEXT    PRIMARY KEY,
    kind          TEXT    NOT NULL CHECK (kind IN ('registered', 'metadata_document')),
    redirect_uris TEXT    NOT NULL,
    metadata      TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    last_used_at  BIGINT  NOT NULL
);
-- The sweep of unused registered clients, and their count (at most 10 000, spec 3 §8).
CREATE INDEX oauth_clients_by_use ON oauth_clients (kind, last_used_at);
