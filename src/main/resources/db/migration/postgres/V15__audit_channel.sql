-- Spec 3 "Tool rules" 3: each cluster request an agent's tool makes is an audit row carrying its
-- tool and the agent session. channel says how a request came: 'proxy' (every row written before
-- this migration, refused ones included) or 'tool'; tool names the MCP tool; session the delegated
-- agent's session (none for a bot's credential). Proxy rows have neither.
--
-- A column with a constant default is added without rewriting the table. The check is NOT VALID:
-- validating it would read every existing row under the ALTER's lock, and they all hold the default.
ALTER TABLE audit ADD COLUMN channel TEXT NOT NULL DEFAULT 'proxy';
ALTER TABLE audit ADD CONSTRAINT audit_channel_known CHECK (channel IN ('proxy', 'tool')) NOT VALID;
ALTER TABLE audit ADD COLUMN tool TEXT;
ALTER TABLE audit ADD COLUMN session TEXT;
-- Partial: proxy rows, nearly all of them, add no index entry, so the proxy's write path is as it
-- was. The listing's channel filter names 'tool' literally, as the index does, so it can use it.
CREATE INDEX audit_tool_rows ON audit (at) WHERE channel = 'tool';
CREATE INDEX audit_by_tool ON audit (tool, at) WHERE tool IS NOT NULL;
CREATE INDEX audit_by_session ON audit (session, at) WHERE session IS NOT NULL;
