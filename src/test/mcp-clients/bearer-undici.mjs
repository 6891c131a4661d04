// undici, with request() adding the bearer token for the server under test (see bearer.mjs).
import * as undici from "undici";

export * from "undici";

const token = process.env.MCP_BEARER;
const target = process.env.MCP_TARGET;

export function request(url, options = {}) {
  const href = typeof url === "string" ? url : url.href ?? String(url);
  if (token && target && href.startsWith(target)) {
    const headers = { ...(options.headers ?? {}) };
    const named = Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
    if (!named) {
      headers.authorization = `Bearer ${token}`;
    }
    options = { ...options, headers };
  }
  return undici.request(url, options);
}
