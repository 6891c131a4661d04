-- Spec 1 §4 GET /api/forge/status "last_sync": the last member sync pass, whichever replica ran
-- it. One row, replaced by every pass.
CREATE TABLE forge_sync_reports (
    id                  INTEGER PRIMARY KEY CHECK (id = 1),
    started_at          INTEGER NOT NULL,
    finished_at         INTEGER NOT NULL,
    replica             TEXT    NOT NULL,
    members_seen        INTEGER NOT NULL,
    disabled            INTEGER NOT NULL,
    renamed             INTEGER NOT NULL,
    two_factor_required INTEGER,
    error               TEXT
);
