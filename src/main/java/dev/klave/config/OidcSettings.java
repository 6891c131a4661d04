package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Sign-in through an OpenID Connect provider (spec 2 §2 "Settings").
 *
 * @param issuer exactly as the discovery document's {@code issuer}, trailing slash included
 * @param clientSecret empty for a public client (it sends only its id and the PKCE verifier)
 * @param allowedDomains exact e-mail domains, lower case
 * @param scopes always holding {@code openid} and {@code email}
 * @param subjectClaim the claim that names one person for ever ({@code sub}; {@code oid} for a
 *     tenant issuer)
 * @param verifiedClaim the claim that must be true for the e-mail to count
 */
public record OidcSettings(URI issuer, String clientId, Optional<Secret> clientSecret, List<String> allowedDomains,
        String displayName, List<String> scopes, String subjectClaim, String verifiedClaim, Autolink autolink) {
    /** Spec 2 §8: the button's name is at most 40 characters. */
    public static final int DISPLAY_NAME_LIMIT = 40;
    public static final String DEFAULT_DISPLAY_NAME = "SSO";
    public static final String DEFAULT_SCOPES = "openid email profile";
    public static final String DEFAULT_SUBJECT_CLAIM = "sub";
    public static final String DEFAULT_VERIFIED_CLAIM = "email_verified";
    /** A tenant issuer's permanent per-person id and its verified-address claim (spec 2 §2 rule 3). */
    public static final String TENANT_SUBJECT_CLAIM = "oid";
    public static final String TENANT_VERIFIED_CLAIM = "xms_edov";

    /**
     * Claims that cannot name one person for ever (spec 2 §2 rule 2): addresses and names (they
     * change and are reassigned), claims shared by many people, and token or session claims. The
     * verified-e-mail claim is refused as well, whatever it is called.
     */
    public static final Set<String> REFUSED_SUBJECT_CLAIMS = Set.of(
            // addresses and names
            "email", "emails", "mail", "upn", "preferred_username", "unique_name", "username", "login", "name",
            "given_name", "family_name", "middle_name", "nickname", "phone_number", "address", "login_hint",
            "verified_primary_email", "verified_secondary_email",
            // shared by many people
            "tid", "hd", "iss", "aud", "azp", "idp", "locale", "zoneinfo", "groups", "roles", "wids", "scp", "scope",
            "website", "picture", "profile", "gender", "birthdate", "email_verified", "phone_number_verified",
            "xms_edov", "ctry", "tenant_ctry", "tenant_region_scope", "ipaddr",
            // token and session claims
            "nonce", "sid", "jti", "iat", "exp", "nbf", "auth_time", "at_hash", "c_hash", "s_hash", "acr", "amr",
            "session_state", "uti", "rh", "ver", "typ", "aio");

    /** Which accounts a first sign-in may link by e-mail (spec 2 §5 "Link policy"). */
    public enum Autolink {
        ALL,
        INVITED,
        OFF;

        public static Autolink parse(String text) {
            return switch (text.strip()) {
                case "all" -> ALL;
                case "invited" -> INVITED;
                case "off" -> OFF;
                default -> throw new IllegalArgumentException("must be all, invited or off");
            };
        }

        public String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Pattern TENANT_GUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** The public cloud's sign-in host: tenant issuers are accepted there only. */
    private static final String TENANT_HOST = "login.microsoftonline.com";
    private static final Set<String> OTHER_TENANT_HOSTS = Set.of("login.microsoftonline.us",
            "login.partner.microsoftonline.cn", "login.chinacloudapi.cn", "login.microsoftonline.de",
            "login.windows.net", "sts.windows.net", "login.microsoft.com");
    private static final Pattern DOMAIN = Pattern.compile(
            "(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+");

    public OidcSettings {
        requireNonNull(issuer, "issuer is null");
        requireNonNull(clientId, "clientId is null");
        requireNonNull(clientSecret, "clientSecret is null");
        allowedDomains = List.copyOf(allowedDomains);
        requireNonNull(displayName, "displayName is null");
        scopes = List.copyOf(scopes);
        requireNonNull(subjectClaim, "subjectClaim is null");
        requireNonNull(verifiedClaim, "verifiedClaim is null");
        requireNonNull(autolink, "autolink is null");
    }

    public boolean publicClient() {
        return clientSecret.isEmpty();
    }

    /** Whether the issuer is a tenant issuer (spec 2 §2 rule 3). */
    public boolean tenantIssuer() {
        return isTenantIssuer(issuer);
    }

    @Override
    public String toString() {
        return "OidcSettings[issuer=" + issuer + ", clientId=" + clientId + ", public=" + publicClient()
                + ", domains=" + allowedDomains + ", subjectClaim=" + subjectClaim + ", autolink=" + autolink + "]";
    }

    /**
     * An absolute http(s) issuer, kept character for character (a trailing slash matters). Spec 2
     * §2 asks only that it equal the discovery document's; plain http (a provider on a private
     * network, or a test's) is accepted and warned about at start ({@link #plainHttp()}).
     */
    public static URI parseIssuer(String text) {
        String value = text.strip();
        URI uri;
        try {
            uri = new URI(value);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("must be the provider's issuer URL");
        }
        if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) || uri.getHost() == null
                || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("must be an https URL without query or fragment, as the provider's "
                    + "discovery document names it");
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (uri.getScheme().equals("http") && (host.equals(TENANT_HOST) || OTHER_TENANT_HOSTS.contains(host))) {
            throw new IllegalArgumentException("must be an https URL: https://" + TENANT_HOST + "/<tenant id>/v2.0");
        }
        if (OTHER_TENANT_HOSTS.contains(host)) {
            throw new IllegalArgumentException("use the tenant issuer https://" + TENANT_HOST + "/<tenant id>/v2.0; "
                    + "issuers of " + host + " are not accepted");
        }
        if (host.equals(TENANT_HOST)) {
            String[] segments = uri.getPath().split("/");
            boolean shaped = segments.length == 3 && segments[0].isEmpty() && segments[2].equals("v2.0")
                    && !uri.getPath().endsWith("/");
            if (!shaped || !TENANT_GUID.matcher(segments[1]).matches()) {
                throw new IllegalArgumentException("a tenant issuer must carry the tenant id (a GUID): https://"
                        + TENANT_HOST + "/<tenant id>/v2.0; common, organizations, consumers and domain names are "
                        + "not accepted");
            }
        }
        return uri;
    }

    /** Whether the provider is reached over plain http (codes and tokens then cross unencrypted). */
    public boolean plainHttp() {
        return issuer.getScheme().equals("http");
    }

    static boolean isTenantIssuer(URI issuer) {
        return TENANT_HOST.equalsIgnoreCase(issuer.getHost());
    }

    /** Comma-separated exact domains: no wildcards, lower-cased, at least one. */
    public static List<String> parseDomains(String text) {
        List<String> domains = new java.util.ArrayList<>();
        for (String part : text.split(",")) {
            String domain = part.strip().toLowerCase(Locale.ROOT);
            if (domain.isEmpty()) {
                continue;
            }
            if (!DOMAIN.matcher(domain).matches()) {
                throw new IllegalArgumentException("'" + domain + "' is not a domain (exact domains only, no "
                        + "wildcards, no @)");
            }
            if (!domains.contains(domain)) {
                domains.add(domain);
            }
        }
        if (domains.isEmpty()) {
            throw new IllegalArgumentException("name at least one e-mail domain");
        }
        return List.copyOf(domains);
    }

    public static String parseDisplayName(String text) {
        String name = text.strip();
        if (name.isEmpty() || name.codePointCount(0, name.length()) > DISPLAY_NAME_LIMIT
                || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("must be 1 to " + DISPLAY_NAME_LIMIT + " characters");
        }
        return name;
    }

    /** Space-separated scopes; {@code openid} and {@code email} must be among them. */
    public static List<String> parseScopes(String text) {
        List<String> scopes = new java.util.ArrayList<>();
        for (String scope : text.strip().split("\\s+")) {
            if (!scope.isEmpty() && !scopes.contains(scope)) {
                scopes.add(scope);
            }
        }
        if (!scopes.contains("openid") || !scopes.contains("email")) {
            throw new IllegalArgumentException("must include openid and email");
        }
        return List.copyOf(scopes);
    }

    /** A claim name that can name one person for ever (see {@link #REFUSED_SUBJECT_CLAIMS}). */
    public static String parseSubjectClaim(String text, String verifiedClaim) {
        String claim = text.strip();
        if (claim.isEmpty() || !claim.matches("[A-Za-z0-9_:.\\-/]{1,100}")) {
            throw new IllegalArgumentException("must be a claim name");
        }
        if (REFUSED_SUBJECT_CLAIMS.contains(claim.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("'" + claim + "' cannot identify one person permanently (an address "
                    + "or name, a claim shared by many people, or a token or session claim); use sub");
        }
        if (claim.equals(verifiedClaim)) {
            throw new IllegalArgumentException("'" + claim + "' is the verified-e-mail claim");
        }
        return claim;
    }

    public static String parseClaimName(String text) {
        String claim = text.strip();
        if (!claim.matches("[A-Za-z0-9_:.\\-/]{1,100}")) {
            throw new IllegalArgumentException("must be a claim name");
        }
        return claim;
    }
}
