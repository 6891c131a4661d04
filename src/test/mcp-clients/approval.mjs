// Drives one held write with the real TypeScript client pinned to MCP 2026-07-28, which fulfils
// input_required rounds itself: it prints the URL elicitation it receives as one JSON line, waits
// for a line on stdin ("accept" or "decline"), answers with it, and prints the final result.
// Usage: node approval.mjs <mcp-url> <token> <tool> <arguments-json>
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createInterface } from "node:readline";

const [url, token, tool, argumentsJson] = process.argv.slice(2);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

const client = new Client(
  { name: "klave-approval-test", version: "1.0.0" },
  { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
);
client.setRequestHandler("elicitation/create", async (request) => {
  console.log(JSON.stringify({ elicitation: request.params }));
  const answer = (await lines.next()).value?.trim() ?? "cancel";
  return { action: answer };
});
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
await client.connect(transport);
const result = await client.callTool({ name: tool, arguments: JSON.parse(argumentsJson) });
console.log(JSON.stringify({ result }));
await client.close();
process.exit(0);
