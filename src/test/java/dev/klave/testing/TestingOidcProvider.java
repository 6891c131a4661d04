package dev.klave.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.http.NettyWrapper;
import no.nav.security.mock.oauth2.http.Ssl;
import no.nav.security.mock.oauth2.http.SslKeystore;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.OAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/**
 * A real OpenID Connect provider in the test JVM (mock-oauth2-server), over HTTPS with a private
 * CA that Klave trusts through {@code SSL_CERT_FILE}. Each sign-in answers for the person the test
 * queued ({@link #nextSignIn}); token callbacks of the test's own play the unusual providers.
 */
public final class TestingOidcProvider implements AutoCloseable {
    public static final String ISSUER_ID = "acme";
    public static final String CLIENT_ID = "klave-test";
    public static final String CLIENT_SECRET = "oidc-client-secret-for-tests";

    private final MockOAuth2Server server;
    private final Path caFile;

    private TestingOidcProvider(MockOAuth2Server server, Path caFile) {
        this.server = server;
        this.caFile = caFile;
    }

    public static TestingOidcProvider start() {
        return start(false);
    }

    /**
     * @param interactiveLogin whether the authorization endpoint shows the provider's own login page
     *     (a user name and the claims as JSON) instead of answering for a queued person
     */
    public static TestingOidcProvider start(boolean interactiveLogin) {
        try {
            KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
            rsa.initialize(2048);
            KeyPair keys = rsa.generateKeyPair();
            X509Certificate certificate = TestingTls.selfSigned("oidc-provider", keys, "SHA256withRSA");
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("oidc", keys.getPrivate(), "changeit".toCharArray(), new X509Certificate[] {certificate});
            Path caFile = Files.createTempDirectory("klave-oidc-").resolve("ca.pem");
            StringWriter pem = new StringWriter();
            try (JcaPEMWriter writer = new JcaPEMWriter(pem)) {
                writer.writeObject(certificate);
            }
            Files.writeString(caFile, pem.toString());
            MockOAuth2Server server = new MockOAuth2Server(new OAuth2Config(interactiveLogin, null, null, false,
                    new OAuth2TokenProvider(), Set.of(), new NettyWrapper(new Ssl(new SslKeystore("changeit", store)))));
            server.start();
            return new TestingOidcProvider(server, caFile);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot start the OIDC provider", e);
        }
    }

    /** The same provider over plain http (no CA file): what a test or a private network may run. */
    public static TestingOidcProvider startOverPlainHttp() {
        MockOAuth2Server server = new MockOAuth2Server(new OAuth2Config(false, null, null, false,
                new OAuth2TokenProvider(), Set.of(), new NettyWrapper(null)));
        server.start();
        return new TestingOidcProvider(server, null);
    }

    /** The issuer, exactly as the discovery document names it. */
    public String issuer() {
        return server.issuerUrl(ISSUER_ID).toString();
    }

    /** The settings of a Klave that signs people in here, as a confidential client. */
    public Map<String, String> settings(String... domains) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("OIDC_ISSUER", issuer());
        settings.put("OIDC_CLIENT_ID", CLIENT_ID);
        settings.put("OIDC_CLIENT_SECRET", CLIENT_SECRET);
        settings.put("OIDC_ALLOWED_DOMAINS", String.join(",", domains.length == 0 ? new String[] {"example.com"} : domains));
        settings.put("OIDC_DISPLAY_NAME", "Acme SSO");
        if (caFile != null) {
            settings.put("SSL_CERT_FILE", caFile.toString());
        }
        return settings;
    }

    public Path caFile() {
        return caFile;
    }

    /** The next sign-in answers as {@code subject} with these claims (and {@code sub}, {@code aud}, {@code nonce}). */
    public void nextSignIn(String subject, Map<String, Object> claims) {
        server.enqueueCallback(new DefaultOAuth2TokenCallback(ISSUER_ID, subject, "JWT", List.of(CLIENT_ID), claims,
                3600));
    }

    /** A person with a verified address. */
    public void nextSignIn(String subject, String email) {
        nextSignIn(subject, Map.of("email", email, "email_verified", true, "name", "Persona " + subject));
    }

    /** A token callback of the test's own, for the next sign-in. */
    public void nextSignIn(OAuth2TokenCallback callback) {
        server.enqueueCallback(callback);
    }

    public MockOAuth2Server server() {
        return server;
    }

    @Override
    public void close() {
        server.shutdown();
    }
}
