// Calls tools and gets a prompt with the real TypeScript client pinned to MCP 2026-07-28, printing
// one JSON line per answer: what an agent built on the SDK sees of Klave's tools and prompts.
// Usage: node tools.mjs <mcp-url> <token> <calls-json: [[tool, arguments], …]> <prompt-json: [name, arguments]>
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const [url, token, callsJson, promptJson] = process.argv.slice(2);
const client = new Client(
  { name: "klave-tools-test", version: "1.0.0" },
  { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } },
);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
await client.connect(transport);
for (const [name, args] of JSON.parse(callsJson)) {
  const result = await client.callTool({ name, arguments: args });
  console.log(JSON.stringify({ tool: name, result }));
}
const prompts = await client.listPrompts();
console.log(JSON.stringify({ prompts: prompts.prompts.map((prompt) => prompt.name) }));
const [promptName, promptArgs] = JSON.parse(promptJson);
const prompt = await client.getPrompt({ name: promptName, arguments: promptArgs });
console.log(JSON.stringify({ prompt }));
await client.close();
process.exit(0);
