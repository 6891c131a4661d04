package dev.klave.web;

import com.microsoft.playwright.Page;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * axe-core (from npm, pinned in {@code web/package.json}) run inside the page under test: every
 * violation it finds, of any impact (minor to critical), as readable lines.
 */
final class Accessibility {
    /** The Maven build runs {@code npm ci} in {@code web/}, so the script is there for every test run. */
    static final Path AXE = Path.of("web", "node_modules", "axe-core", "axe.min.js");

    private Accessibility() {}

    static List<String> violations(Page page) {
        if (!Files.isReadable(AXE)) {
            throw new IllegalStateException("axe-core is missing at " + AXE.toAbsolutePath()
                    + ": build web/ first (npm ci, which ./mvnw verify runs)");
        }
        // Evaluated through the debugging protocol, which Klave's Content-Security-Policy (script-src 'self')
        // rightly does not let a page script tag do.
        String source;
        try {
            source = Files.readString(AXE);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        page.evaluate("source => { if (!window.axe) { (0, eval)(source); } }", source);
        @SuppressWarnings("unchecked")
        List<String> found = (List<String>) page.evaluate("""
                async () => {
                  const result = await axe.run(document, { resultTypes: ['violations'] });
                  return result.violations
                    .map(v => v.impact + ' ' + v.id + ': ' + v.help + ' — '
                      + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
                }""");
        return found;
    }
}
