package dev.klave.web;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Debian's headless Chromium driven by Playwright for Java: one browser
 * per test class, a fresh context (cookies, storage) per {@link #open}. Playwright must never
 * download a browser of its own, so the system one is required and its absence fails the test.
 */
final class TestingBrowser implements AutoCloseable {
    static final Path CHROMIUM = Path.of(System.getProperty("klave.chromium", "/usr/bin/chromium"));
    static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final AtomicInteger ADDRESSES = new AtomicInteger();

    private final Playwright playwright;
    private final Browser browser;
    private final List<BrowserContext> contexts = new ArrayList<>();

    private TestingBrowser(Playwright playwright, Browser browser) {
        this.playwright = playwright;
        this.browser = browser;
    }

    static TestingBrowser launch() {
        if (!Files.isExecutable(CHROMIUM)) {
            throw new IllegalStateException("the browser tests need Chromium at " + CHROMIUM
                    + " (Debian: apt-get install -y chromium; .ci/run installs it)");
        }
        Playwright playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        Browser browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(CHROMIUM)
                .setHeadless(true)
                // As root, with no network beyond loopback: no sandbox, no background traffic.
                .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync")));
        return new TestingBrowser(playwright, browser);
    }

    /** A new context on {@code baseUrl} at laptop size, from an address of its own (login limits). */
    Page open(String baseUrl) {
        return open(baseUrl, 1280, 900);
    }

    Page open(String baseUrl, int width, int height) {
        return open(baseUrl, width, height, com.microsoft.playwright.options.ColorScheme.LIGHT);
    }

    /** As {@link #open(String, int, int)}, with the system's colour scheme (dark mode follows it). */
    Page open(String baseUrl, int width, int height, com.microsoft.playwright.options.ColorScheme scheme) {
        int n = ADDRESSES.incrementAndGet();
        BrowserContext context = browser.newContext(new Browser.NewContextOptions()
                .setColorScheme(scheme)
                .setBaseURL(baseUrl)
                .setIgnoreHTTPSErrors(true)
                .setLocale("es-ES")
                .setTimezoneId("Europe/Madrid")
                .setViewportSize(width, height)
                .setAcceptDownloads(true)
                .setExtraHTTPHeaders(Map.of("X-Forwarded-For", "203.0." + (n / 250 % 250) + "." + (n % 250 + 1))));
        context.setDefaultTimeout(15_000);
        contexts.add(context);
        return context.newPage();
    }

    /**
     * Closes what a browser test started, in the order given, skipping what never started (a
     * failed start leaves later parts null); the first failure is thrown once all are closed.
     */
    static void closeAll(AutoCloseable... parts) {
        RuntimeException first = null;
        for (AutoCloseable part : parts) {
            if (part == null) {
                continue;
            }
            try {
                part.close();
            } catch (Exception e) {
                if (first == null) {
                    first = new IllegalStateException("closing " + part.getClass().getSimpleName(), e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Saves a full-page screenshot as target/screenshots/{@code name}.png for reviewers. */
    static void screenshot(Page page, String name) {
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve(name + ".png")).setFullPage(true));
    }

    @Override
    public void close() {
        contexts.forEach(BrowserContext::close);
        browser.close();
        playwright.close();
    }
}
