// Module hooks: an import of "undici" from anywhere but our wrapper gets the wrapper.
const wrapper = new URL("./bearer-undici.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === "undici" && context.parentURL !== wrapper) {
    return { url: wrapper, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
