import { defineConfig } from "vite";

// The build lands in target/web-build/web; Maven adds target/web-build as a resource folder, so
// the jar carries the app under classpath web/ (served by SpaHandler, spec 1 §4 "Web interface").
export default defineConfig({
  base: "/",
  build: {
    outDir: "../target/web-build/web",
    emptyOutDir: true,
    // No inline scripts or styles: the page runs under script-src 'self'; style-src 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: "es2022",
  },
});
