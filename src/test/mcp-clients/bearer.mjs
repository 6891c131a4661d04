// The conformance suite has no option for a bearer token. This preload (node --import) adds
// Authorization: Bearer $MCP_BEARER to every request the suite sends to $MCP_TARGET: through fetch,
// through undici's request() (bearer-hooks.mjs swaps in bearer-undici.mjs), and through node:http.
import http from "node:http";
import { register, syncBuiltinESMExports } from "node:module";

const token = process.env.MCP_BEARER;
const target = process.env.MCP_TARGET;

if (token && target) {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(target)) {
      const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
      if (!headers.has("authorization")) {
        headers.set("authorization", `Bearer ${token}`);
      }
      init = { ...init, headers };
    }
    return original(input, init);
  };
  register("./bearer-hooks.mjs", import.meta.url);

  // Some scenarios send raw requests through node:http: the same header there.
  const where = new URL(target);
  const plain = http.request;
  http.request = function (options, ...rest) {
    if (options && typeof options === "object" && !(options instanceof URL)
        && (options.hostname ?? options.host) === where.hostname && String(options.port) === where.port) {
      const headers = { ...(options.headers ?? {}) };
      if (!Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) {
        headers.authorization = `Bearer ${token}`;
      }
      options = { ...options, headers };
    }
    return plain.call(this, options, ...rest);
  };
  syncBuiltinESMExports();
}
