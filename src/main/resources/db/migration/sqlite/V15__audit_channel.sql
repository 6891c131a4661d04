-- Spec 3 "Tool rules" 3: each cluster request an agent's tool makes is an audit row carrying its
-- tool and the agent session. channel says how a request came: 'proxy' (every row written before
-- this migration, refused ones included) or 'tool'; tool names the MCP tool; session the delegated
-- agent's session (none for a bot's credential). Proxy rows have neither.
ALTER TABLE audit ADD COLUMN channel TEXT NOT NULL DEFAULT 'proxy' CHECK (channel IN ('proxy', 'tool'));
ALTER TABLE audit ADD COLUMN tool TEXT;
ALTER TABLE audit ADD COLUMN session TEXT;
-- Partial: proxy rows, nearly all of them, add no index entry, so the proxy's write path is as it
-- was. The listing's channel filter names 'tool' literally, as the index does, so it can use it.
CREATE INDEX audit_tool_rows ON audit (at) WHERE channel = 'tool';
CREATE INDEX audit_by_tool ON audit (tool, at) WHERE tool IS NOT NULL;
CREATE INDEX audit_by_session ON audit (session, at) WHERE session IS NOT NULL;
