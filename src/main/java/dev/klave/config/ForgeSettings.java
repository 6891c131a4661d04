package dev.klave.config;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.security.interfaces.RSAPrivateKey;
import java.util.Optional;

/**
 * The forge App (spec 1 §5 "Forge App configuration"): sign-in through the forge, the hourly
 * member sync and, with a webhook secret, instant offboarding.
 *
 * @param webUrl where people authorise the App ({@code https://github.com}, or {@code FORGE_URL})
 * @param apiUrl the REST API ({@code https://api.github.com}, or {@code FORGE_API_URL})
 */
public record ForgeSettings(long appId, String clientId, Secret clientSecret, RSAPrivateKey privateKey, String org,
        Optional<Secret> webhookSecret, boolean requireOrgTwoFactor, URI webUrl, URI apiUrl) {
    public static final String PUBLIC_WEB_URL = "https://github.com";
    public static final String PUBLIC_API_URL = "https://api.github.com";

    public ForgeSettings {
        if (appId <= 0) {
            throw new IllegalArgumentException("appId must be positive");
        }
        requireNonNull(clientId, "clientId is null");
        requireNonNull(clientSecret, "clientSecret is null");
        requireNonNull(privateKey, "privateKey is null");
        requireNonNull(org, "org is null");
        requireNonNull(webhookSecret, "webhookSecret is null");
        requireNonNull(webUrl, "webUrl is null");
        requireNonNull(apiUrl, "apiUrl is null");
    }

    /** The private key stays out of logs and exceptions, whatever prints this record. */
    @Override
    public String toString() {
        return "ForgeSettings[appId=" + appId + ", clientId=" + clientId + ", org=" + org + ", webhook="
                + webhookSecret.isPresent() + ", requireOrgTwoFactor=" + requireOrgTwoFactor + ", webUrl=" + webUrl
                + ", apiUrl=" + apiUrl + "]";
    }

    /**
     * A forge organisation login: letters, digits and single hyphens, not at either end, at most
     * 39 characters (the forge's own rule).
     */
    public static String parseOrg(String text) {
        String org = text.strip();
        if (!org.matches("[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}")) {
            throw new IllegalArgumentException("must be an organisation login: letters, digits and hyphens, "
                    + "up to 39 characters");
        }
        return org;
    }

    public static long parseAppId(String text) {
        try {
            long id = Long.parseLong(text.strip());
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("must be the App's numeric id");
    }

    /**
     * An http(s) URL without query or fragment, with no trailing slash kept. Plain http (a forge on
     * a private network, or a test's) is accepted and warned about at start ({@link #plainHttp()}).
     */
    public static URI parseUrl(String text) {
        URI uri = CiExchangeSettings.parseIssuer(text);
        String value = uri.toString();
        while (value.endsWith("/")) {
            value = value.substring(0, value.length() - 1);
        }
        return URI.create(value);
    }

    /** Whether the forge is reached over plain http (codes and tokens then cross unencrypted). */
    public boolean plainHttp() {
        return webUrl.getScheme().equals("http") || apiUrl.getScheme().equals("http");
    }
}
