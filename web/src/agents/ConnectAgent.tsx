// "Conectar un agente" on the account page (issue 40 item 12): this installation's /mcp address and
// the lines for the clients people use, ready to copy. With the agents' login (OAuth) no token goes in
// a client's configuration: the client finds the login from /mcp's 401 and opens the browser. A bot's
// configuration carries its credential instead (README "Agents").
import { SecretValue } from "../ui/secret";

export function mcpUrl(): string {
  return `${window.location.origin}/mcp`;
}

export function ConnectAgent() {
  const url = mcpUrl();
  return (
    <section class="card" aria-labelledby="connect-agent" data-testid="connect-agent">
      <h2 id="connect-agent">Conectar un agente</h2>
      <p>La dirección de Klave para los agentes es <code class="wrap" data-testid="mcp-url">{url}</code>. Cada cliente
        abre el navegador la primera vez para que entres y elijas qué puede hacer; no hace falta ningún token.</p>
      <SecretValue label="Claude Code" value={`claude mcp add --transport http klave ${url}`}
        testId="connect-claude" />
      <SecretValue label="VS Code (.vscode/mcp.json)" multiline rows={3}
        value={`{ "servers": { "klave": { "type": "http", "url": "${url}" } } }`} testId="connect-vscode" />
      <SecretValue label="Cursor (~/.cursor/mcp.json)" multiline rows={3}
        value={`{ "mcpServers": { "klave": { "url": "${url}" } } }`} testId="connect-cursor" />
      <SecretValue label="MCP Inspector" value="npx @modelcontextprotocol/inspector@2.12.0"
        testId="connect-inspector" />
      <p class="muted small">En el Inspector: transporte «Streamable HTTP», URL {url}, y «Connect». Un bot no entra así:
        su configuración lleva su credencial (<code>Authorization: Bearer klt_…</code>), que emite un administrador.</p>
    </section>
  );
}
