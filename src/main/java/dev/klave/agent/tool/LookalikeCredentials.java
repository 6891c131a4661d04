package dev.klave.agent.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values that look like credentials, outside Secrets (issue 43 §3): in what the agent reads —
 * objects (ConfigMap data, environment variables of pod specs, annotations that repeat them), log
 * lines and event messages — each is replaced by {@code <posible credencial oculta, N bytes>}.
 * Spec 3 §8 hides Secrets only; this is an installation setting, on by default
 * ({@code SERVICE_MCP_HIDE_CREDENTIALS}). The patterns are narrow on purpose: each is a shape a
 * credential has and ordinary text, base64 or a UUID has not (the tests hold near-misses).
 */
public final class LookalikeCredentials {
    /** Hides what the patterns find. */
    public static final LookalikeCredentials HIDING = new LookalikeCredentials(true);
    /** Hides nothing (the setting off). */
    public static final LookalikeCredentials SHOWING = new LookalikeCredentials(false);

    /**
     * What is hidden, by name (for the README and the tests): each pattern's group {@code secret}
     * is the part replaced; the rest (a URL's user and host) stays.
     */
    static final Map<String, Pattern> PATTERNS = ordered(
            // A PEM private key, whole: RSA, EC, DSA, OpenSSH, PKCS#8 and encrypted PKCS#8 (RFC 7468 §10-11).
            "pem-private-key", Pattern.compile(
                    "(?<secret>-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----[\\s\\S]*?-----END ([A-Z0-9]+ )*PRIVATE KEY-----)"),
            // AWS access key ids (long-term AKIA, temporary ASIA): 20 characters, upper case and digits.
            "aws-access-key-id", Pattern.compile("(?<![A-Z0-9])(?<secret>(AKIA|ASIA)[A-Z0-9]{16})(?![A-Z0-9])"),
            // A JWT (RFC 7519): three base64url parts, the first two JSON objects ("eyJ" is '{"').
            "jwt", Pattern.compile(
                    "(?<![A-Za-z0-9_-])(?<secret>eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{16,})"),
            // Klave's own credentials and refresh tokens: prefix and 43 base64url characters.
            "klave-token", Pattern.compile("(?<![A-Za-z0-9_])(?<secret>kl[tr]_[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])"),
            // GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_) and Slack's (xoxb-, xoxp-, …).
            "forge-token", Pattern.compile("(?<![A-Za-z0-9_])(?<secret>(gh[opusr]_[A-Za-z0-9]{36,}"
                    + "|github_pat_[A-Za-z0-9_]{60,}|xox[abeprs]-[A-Za-z0-9-]{20,}))"),
            // The password of a URL with one (RFC 3986 §3.2.1 userinfo): postgres://app:pw@db/…
            "url-password", Pattern.compile(
                    "\\b[a-zA-Z][a-zA-Z0-9+.-]{1,30}://[^\\s:/@\"']{1,256}:(?<secret>[^\\s@/\"'<][^\\s@/\"']{0,255})"
                            + "@[^\\s/@\"']"),
            // key=value connection strings: Password=…; (ADO.NET, JDBC for SQL Server) and password=… (libpq).
            "password-field", Pattern.compile("(?i)\\b(password|pwd)\\s*=\\s*(?<secret>[^;\\s\"'<][^;\\s\"']{0,255})"));

    private final boolean hiding;

    /** Name, pattern, name, pattern…: applied in this order (a marker is never matched again: none starts with '<'). */
    private static Map<String, Pattern> ordered(Object... pairs) {
        Map<String, Pattern> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], (Pattern) pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(map);
    }

    private LookalikeCredentials(boolean hiding) {
        this.hiding = hiding;
    }

    public static LookalikeCredentials of(boolean hiding) {
        return hiding ? HIDING : SHOWING;
    }

    /** {@code text} with every credential-looking part replaced. */
    String text(String text) {
        if (!hiding || text == null || text.isEmpty()) {
            return text;
        }
        String out = text;
        for (Pattern pattern : PATTERNS.values()) {
            out = replace(pattern, out);
        }
        return out;
    }

    private static String replace(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int copied = 0;
        do {
            out.append(text, copied, matcher.start("secret"));
            out.append(marker(matcher.group("secret")));
            copied = matcher.end("secret");
        } while (matcher.find());
        return out.append(text, copied, text.length()).toString();
    }

    static String marker(String secret) {
        return "<posible credencial oculta, " + secret.getBytes(StandardCharsets.UTF_8).length + " bytes>";
    }

    /** A copy of a JSON answer with every string value's credential-looking parts replaced; names stay. */
    JsonNode json(JsonNode answer) {
        if (!hiding) {
            return answer;
        }
        if (answer instanceof TextNode text) {
            String hidden = text(text.textValue());
            return hidden.equals(text.textValue()) ? text : TextNode.valueOf(hidden);
        }
        if (answer instanceof ArrayNode array) {
            ArrayNode copy = array.arrayNode();
            array.forEach(element -> copy.add(json(element)));
            return copy;
        }
        if (answer instanceof ObjectNode object) {
            ObjectNode copy = object.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                copy.set(field.getKey(), json(field.getValue()));
            }
            return copy;
        }
        return answer;
    }

    /** The patterns' names, in a stable order. */
    static List<String> names() {
        return PATTERNS.keySet().stream().sorted().toList();
    }
}
