-- What the reconciler learns of each cluster's API server on every pass: its version (/version's
-- gitVersion) and whether it serves aggregated discovery (apidiscovery.k8s.io v2 or v2beta1),
-- which the agents' tools need. NULL until a pass has asked.
ALTER TABLE clusters ADD COLUMN kubernetes_version TEXT;
ALTER TABLE clusters ADD COLUMN aggregated_discovery INTEGER;
