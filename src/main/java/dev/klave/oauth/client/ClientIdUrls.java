package dev.klave.oauth.client;

import dev.klave.outbound.HostNames;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;

/**
 * The rules of a {@code client_id} that names a metadata document
 * (draft-ietf-oauth-client-id-metadata-document §3), checked before any network use: the https
 * scheme, a host, a path, no user info, no fragment, no {@code .} or {@code ..} segment (also
 * percent-encoded); a port and a query are allowed. Stricter than the draft in four ways, each
 * refusing only what no client publishes: the bare root path {@code /} (a host's home page is not
 * a client's document), non-ASCII characters, a host name ending in a dot (TLS server names carry
 * none, RFC 6066 §3), and URLs over 2,048 characters.
 */
final class ClientIdUrls {
    private static final int LONGEST = 2048;
    private static final Pattern PRINTABLE_ASCII = Pattern.compile("[\\x21-\\x7e]+");
    private static final Pattern ENCODED_DOT = Pattern.compile("%2[eE]");

    private ClientIdUrls() {}

    static URI check(String clientId) throws MetadataRefused {
        if (clientId.length() > LONGEST || !PRINTABLE_ASCII.matcher(clientId).matches()) {
            throw new MetadataRefused(MetadataRefused.Reason.BAD_URL);
        }
        try {
            return check(new URI(clientId));
        } catch (URISyntaxException e) {
            throw new MetadataRefused(MetadataRefused.Reason.BAD_URL);
        }
    }

    static URI check(URI url) throws MetadataRefused {
        String text = url.toString();
        // Compared exactly, not case-insensitively: the document's client_id is compared with this
        // string as it is (draft §4.1, RFC 3986 §6.2.1).
        if (!"https".equals(url.getScheme())) {
            throw new MetadataRefused(MetadataRefused.Reason.NOT_HTTPS);
        }
        if (text.length() > LONGEST || !PRINTABLE_ASCII.matcher(text).matches() || url.isOpaque()
                || url.getHost() == null || url.getRawUserInfo() != null || url.getRawFragment() != null
                || url.getHost().endsWith(".") || HostNames.ambiguousIpv4(url.getHost())
                || url.getPort() == 0 || url.getPort() > 65535
                || !hasDocumentPath(url.getRawPath())) {
            throw new MetadataRefused(MetadataRefused.Reason.BAD_URL);
        }
        return url;
    }

    private static boolean hasDocumentPath(String path) {
        if (path == null || path.isEmpty() || path.equals("/")) {
            return false;
        }
        for (String segment : path.split("/", -1)) {
            String decoded = ENCODED_DOT.matcher(segment).replaceAll(".");
            if (decoded.equals(".") || decoded.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
