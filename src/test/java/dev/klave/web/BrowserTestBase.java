package dev.klave.web;

import dev.klave.testing.TestingPeople;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * One Klave on SQLite over HTTPS (with the cluster simulator) and one Chromium per test class,
 * and the administrator {@code root} signed up; each test opens fresh browser contexts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class BrowserTestBase {
    protected WebKlave web;
    protected TestingBrowser browser;
    /** The Cookie header of root's session, for API calls made beside the browser. */
    protected String admin;

    @BeforeAll
    final void startKlaveAndBrowser() {
        browser = TestingBrowser.launch();
        web = WebKlave.start();
        admin = TestingPeople.signUp(web.klave, "root", true);
    }

    @AfterAll
    final void stopKlaveAndBrowser() {
        TestingBrowser.closeAll(browser, web);
    }
}
