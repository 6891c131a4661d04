-- The listings of credentials and grants read page by page, newest first (created_at DESC, then id),
-- from a keyset rather than an OFFSET. Each filter the API offers has an index that gives both its
-- rows and their order, so no page sorts the table (ListingPlansTest reads the plans):
--   no filter, or a state or text filter: the newest-first index, walked from the keyset;
--   by owner or holder: (subject_id, created_at DESC, id);
--   by cluster: (cluster_id, created_at DESC, id).
-- The single-column indexes of V3 and V4 are prefixes of the new ones, which serve their lookups
-- (revoking a subject's credentials, a cluster's grants), so they go.
CREATE INDEX credentials_newest ON credentials (created_at DESC, id);
CREATE INDEX credentials_by_subject_newest ON credentials (subject_id, created_at DESC, id);
CREATE INDEX credentials_by_cluster_newest ON credentials (cluster_id, created_at DESC, id);
DROP INDEX credentials_by_subject;
DROP INDEX credentials_by_cluster;

CREATE INDEX grants_newest ON grants (created_at DESC, id);
CREATE INDEX grants_by_subject_newest ON grants (subject_id, created_at DESC, id);
CREATE INDEX grants_by_cluster_newest ON grants (cluster_id, created_at DESC, id);
DROP INDEX grants_by_subject;
DROP INDEX grants_by_cluster;

-- Subjects are listed by login: the UNIQUE constraint's index gives the order and the keyset.
