/**
 * The agent endpoint (spec 3): MCP over Streamable HTTP at {@code /mcp}, stateless, on the
 * revisions 2025-11-25 ({@code initialize}) and 2026-07-28 ({@code server/discover}, {@code _meta}
 * on every request, {@code input_required}). Its tools live in {@code agent.tool}; every cluster
 * request a tool makes goes through the cluster gateway, as the proxy's do.
 */
package dev.klave.agent;
