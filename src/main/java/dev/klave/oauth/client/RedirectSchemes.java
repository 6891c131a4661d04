package dev.klave.oauth.client;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a redirect URI's scheme is (spec 3 §4 "Redirect URIs", rules 2-5): the web's two, a
 * browser wrapper, a scheme refused, or an application's own.
 *
 * <p>A list of what is refused, because rule 3 accepts any private scheme and those in use share
 * no form a rule could require: {@code cursor}, {@code vscode}, {@code com.example.app} and plain
 * {@code app} are all application schemes, so the reverse-domain names of RFC 8252 §7.1 cannot be
 * the only ones accepted. The list is made hard to step around instead: schemes compare caseless
 * (RFC 3986 §3.1), the callers accept only a URI Java parses — no space, control character or
 * other padding anywhere, in the scheme no character but letters, digits, {@code + - .} — and
 * whole families are refused by their prefix, not by their members known today: every Windows
 * {@code ms-} handler ({@code ms-settings}, {@code ms-msdt}, {@code ms-officecmd}, {@code ms-its}…),
 * every experimental {@code x-} scheme ({@code x-javascript}, {@code x-apple-…}), the handlers a
 * web site registers ({@code web+…}), the browsers' internal and extension schemes, Apple's
 * {@code itms-} installers, Android's {@code android-} ones.
 */
final class RedirectSchemes {
    /** What a scheme is, for a redirect. */
    enum Kind {
        /** {@code http} or {@code https}: rules 1 and 2 apply. */
        WEB,
        /** Rule 5: a browser opening the address it wraps, outside Klave's checks. */
        BROWSER_WRAPPER,
        /** Rule 4 and its kin: runs code, reads local data, or hands the code to no application. */
        REFUSED,
        /** Rule 3: an application's own scheme, matched exactly. */
        APPLICATION
    }

    /** Rule 5, as the specification lists them. */
    private static final Set<String> BROWSER_WRAPPERS = Set.of(
            "googlechrome", "googlechromes", "x-safari-http", "x-safari-https", "microsoft-edge",
            "microsoft-edge-http", "microsoft-edge-https", "firefox", "opera-http", "opera-https", "brave", "intent");
    /** Rule 5's browsers' other wrappers ({@code googlechrome-x-callback}, {@code firefox-focus}, …). */
    private static final List<String> BROWSER_WRAPPER_FAMILIES = List.of(
            "googlechrome", "firefox-", "microsoft-edge", "opera-", "x-safari-");

    /** Rule 4, then the same kinds of scheme by name. */
    private static final Set<String> REFUSED = Set.of(
            // Rule 4: run code, read local files, open another protocol.
            "javascript", "data", "file", "vbscript", "blob", "about", "ftp", "ws", "wss",
            // Script under other names, and browsers' own pages, archives and views.
            "livescript", "mocha", "view-source", "jar", "filesystem", "wyciwyg", "resource", "res", "mhtml",
            "chrome", "devtools", "edge", "opera", "vivaldi", "ipfs", "ipns",
            // Operating systems' handlers: Windows (shell, search, help, compiled help), Android,
            // Apple (installers, settings, automation), Linux package installers.
            "shell", "search", "hcp", "help", "mk", "its", "content", "android.resource", "market", "itms", "itmss",
            "prefs", "app-prefs", "shortcuts", "workflow", "applescript", "apt", "appstream",
            // Names, not places (RFC 8141).
            "urn",
            // Protocols that are no application to hand a code to: mail, calls, shells, shares, directories.
            "mailto", "ssh", "sftp", "ftps", "tftp", "telnet", "rlogin", "tel", "sms", "callto", "sip", "sips",
            "facetime", "facetime-audio", "xmpp", "smb", "cifs", "nfs", "afp", "vnc", "rdp", "ldap", "ldaps",
            "gopher", "news", "nntp", "irc", "ircs", "rtsp", "git", "svn", "dict", "netdoc", "webcal");
    /** Whole families, by prefix: their members are many and more are added by each new release. */
    private static final List<String> REFUSED_FAMILIES = List.of(
            "ms-", "x-", "web+", "search-", "itms-", "android-", "chrome-", "moz-", "edge-", "safari-", "brave-");

    private RedirectSchemes() {}

    /** The kind of {@code scheme}, as written in a URI (any case). */
    static Kind of(String scheme) {
        String name = scheme.toLowerCase(Locale.ROOT);
        if (name.equals("http") || name.equals("https")) {
            return Kind.WEB;
        }
        if (BROWSER_WRAPPERS.contains(name) || startsWithAny(name, BROWSER_WRAPPER_FAMILIES)) {
            return Kind.BROWSER_WRAPPER;
        }
        if (REFUSED.contains(name) || startsWithAny(name, REFUSED_FAMILIES)) {
            return Kind.REFUSED;
        }
        return Kind.APPLICATION;
    }

    private static boolean startsWithAny(String name, List<String> prefixes) {
        return prefixes.stream().anyMatch(name::startsWith);
    }
}
