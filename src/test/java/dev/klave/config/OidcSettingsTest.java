package dev.klave.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Spec 2 §2 "Settings" and its three rules, each refusal at start listed with the others. */
class OidcSettingsTest {
    private static final String TENANT = "https://login.microsoftonline.com/7c3f2f6e-2b1a-4d5e-9f00-1a2b3c4d5e6f/v2.0";

    private static Map<String, String> complete() {
        Map<String, String> environment = new HashMap<>();
        environment.put("OIDC_ISSUER", "https://idp.example.com/realms/acme");
        environment.put("OIDC_CLIENT_ID", "klave");
        environment.put("OIDC_CLIENT_SECRET", "oidc-client-secret-value");
        environment.put("OIDC_ALLOWED_DOMAINS", "example.com, Example.org");
        return environment;
    }

    private static List<String> problemsOf(Map<String, String> environment) {
        return SettingsProblems.of(environment);
    }

    private static OidcSettings load(Map<String, String> environment) throws Exception {
        return SettingsLoader.load(environment).oidc().orElseThrow();
    }

    @Test
    void withoutTheFourVariablesOidcIsOffAndTheOtherFiveAloneDoNothing() throws Exception {
        assertThat(SettingsLoader.load(Map.of()).oidc()).isEmpty();
        assertThat(SettingsLoader.load(Map.of("OIDC_DISPLAY_NAME", "Acme", "OIDC_SCOPES", "openid email",
                "OIDC_SUBJECT_CLAIM", "sub", "OIDC_EMAIL_VERIFIED_CLAIM", "email_verified", "OIDC_AUTOLINK", "off"))
                .oidc()).isEmpty();
    }

    @Test
    void theFourGiveTheDocumentedDefaults() throws Exception {
        OidcSettings oidc = load(complete());

        assertThat(oidc.issuer()).hasToString("https://idp.example.com/realms/acme");
        assertThat(oidc.clientId()).isEqualTo("klave");
        assertThat(oidc.publicClient()).isFalse();
        assertThat(oidc.allowedDomains()).containsExactly("example.com", "example.org");
        assertThat(oidc.displayName()).isEqualTo("SSO");
        assertThat(oidc.scopes()).containsExactly("openid", "email", "profile");
        assertThat(oidc.subjectClaim()).isEqualTo("sub");
        assertThat(oidc.verifiedClaim()).isEqualTo("email_verified");
        assertThat(oidc.autolink()).isEqualTo(OidcSettings.Autolink.ALL);
        assertThat(oidc.toString()).doesNotContain("oidc-client-secret-value");
    }

    @Test
    void withoutASecretTheClientIsPublic() throws Exception {
        Map<String, String> environment = complete();
        environment.remove("OIDC_CLIENT_SECRET");

        assertThat(load(environment).publicClient()).isTrue();
    }

    @Test
    void aSecretAloneAsksForTheIssuerTheClientIdAndTheDomainsAndIsNeverEchoed() {
        List<String> problems = problemsOf(Map.of("OIDC_CLIENT_SECRET", "lonely-secret"));

        assertThat(problems).hasSize(3);
        assertThat(String.join("\n", problems)).contains("OIDC_ISSUER: required").contains("OIDC_CLIENT_ID: required")
                .contains("OIDC_ALLOWED_DOMAINS: required").doesNotContain("lonely-secret");
    }

    @Test
    void theIssuerIsKeptCharacterForCharacterTrailingSlashIncluded() throws Exception {
        Map<String, String> environment = complete();
        environment.put("OIDC_ISSUER", "https://accounts.example.com/");

        assertThat(load(environment).issuer()).hasToString("https://accounts.example.com/");
    }

    @Test
    void scopesMustHoldOpenidAndEmail() {
        Map<String, String> environment = complete();
        environment.put("OIDC_SCOPES", "openid profile");

        assertThat(problemsOf(environment)).containsExactly(
                "OIDC_SCOPES: must include openid and email (got 'openid profile')");
    }

    @Test
    void theDisplayNameIsAtMostFortyCharacters() throws Exception {
        Map<String, String> environment = complete();
        environment.put("OIDC_DISPLAY_NAME", "x".repeat(40));
        assertThat(load(environment).displayName()).hasSize(40);

        environment.put("OIDC_DISPLAY_NAME", "x".repeat(41));
        assertThat(problemsOf(environment)).singleElement().asString().startsWith("OIDC_DISPLAY_NAME: must be 1 to 40");
    }

    static Stream<String> refusedClaims() {
        return OidcSettings.REFUSED_SUBJECT_CLAIMS.stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("refusedClaims")
    void aSubjectClaimThatCannotNameOnePersonForEverIsRefused(String claim) {
        Map<String, String> environment = complete();
        environment.put("OIDC_SUBJECT_CLAIM", claim);

        assertThat(problemsOf(environment)).singleElement().asString()
                .startsWith("OIDC_SUBJECT_CLAIM: '" + claim + "' cannot identify one person permanently");
    }

    @Test
    void theDenyListNamesTheSpecificationsExamples() {
        assertThat(OidcSettings.REFUSED_SUBJECT_CLAIMS).contains("email", "upn", "preferred_username", "unique_name",
                "name", "phone_number", "tid", "hd", "iss", "aud", "idp", "locale", "groups", "nonce", "sid", "jti");
    }

    @Test
    void theVerifiedClaimCannotBeTheSubjectClaim() {
        Map<String, String> environment = complete();
        environment.put("OIDC_EMAIL_VERIFIED_CLAIM", "person_verified");
        environment.put("OIDC_SUBJECT_CLAIM", "person_verified");

        assertThat(problemsOf(environment)).singleElement().asString()
                .startsWith("OIDC_SUBJECT_CLAIM: 'person_verified' is the verified-e-mail claim");
    }

    @Test
    void aTenantIssuerWithItsGuidTakesOidAndXmsEdov() throws Exception {
        Map<String, String> environment = complete();
        environment.put("OIDC_ISSUER", TENANT);

        OidcSettings oidc = load(environment);
        assertThat(oidc.tenantIssuer()).isTrue();
        assertThat(oidc.subjectClaim()).isEqualTo("oid");
        assertThat(oidc.verifiedClaim()).isEqualTo("xms_edov");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "https://login.microsoftonline.com/common/v2.0",
        "https://login.microsoftonline.com/organizations/v2.0",
        "https://login.microsoftonline.com/consumers/v2.0",
        "https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0",
        "https://login.microsoftonline.com/7c3f2f6e-2b1a-4d5e-9f00-1a2b3c4d5e6f",
        "https://login.microsoftonline.us/7c3f2f6e-2b1a-4d5e-9f00-1a2b3c4d5e6f/v2.0",
        "https://login.chinacloudapi.cn/7c3f2f6e-2b1a-4d5e-9f00-1a2b3c4d5e6f/v2.0",
        "https://sts.windows.net/7c3f2f6e-2b1a-4d5e-9f00-1a2b3c4d5e6f/",
        "http://login.microsoftonline.com/7c3f2f6e-2b1a-4d5e-9f00-1a2b3c4d5e6f/v2.0",
        "ftp://idp.example.com/realms/acme",
        "https://idp.example.com/realms/acme?tenant=1",
        "idp.example.com"})
    void issuersWithoutATenantGuidOrOfAnotherCloudOrNotAnHttpUrlAreRefused(String issuer) {
        Map<String, String> environment = complete();
        environment.put("OIDC_ISSUER", issuer);

        assertThat(problemsOf(environment)).singleElement().asString().startsWith("OIDC_ISSUER: ");
    }

    @Test
    void domainsAreExactAndTheAutolinkPolicyIsOneOfThree() throws Exception {
        Map<String, String> environment = complete();
        environment.put("OIDC_ALLOWED_DOMAINS", "*.example.com");
        environment.put("OIDC_AUTOLINK", "sometimes");

        List<String> problems = problemsOf(environment);
        assertThat(problems).hasSize(2);
        assertThat(String.join("\n", problems)).contains("OIDC_ALLOWED_DOMAINS: '*.example.com' is not a domain")
                .contains("OIDC_AUTOLINK: must be all, invited or off");

        environment.put("OIDC_ALLOWED_DOMAINS", "example.com");
        environment.put("OIDC_AUTOLINK", "invited");
        assertThat(load(environment).autolink()).isEqualTo(OidcSettings.Autolink.INVITED);
    }

    @Test
    void aCaFileMustHoldCertificatesAndAContactLineIsOneShortLine(@TempDir Path directory) throws Exception {
        Path garbage = Files.writeString(directory.resolve("ca.pem"), "not a certificate");
        Map<String, String> environment = new HashMap<>();
        environment.put("SSL_CERT_FILE", garbage.toString());
        environment.put("SERVICE_ACCESS_CONTACT", "x".repeat(201));

        List<String> problems = problemsOf(environment);
        assertThat(problems).hasSize(2);
        assertThat(String.join("\n", problems)).contains("SSL_CERT_FILE: ").contains("SERVICE_ACCESS_CONTACT: ");

        Settings settings = SettingsLoader.load(Map.of("SERVICE_ACCESS_CONTACT", "Escribe a it@example.com"));
        assertThat(settings.accessContact()).contains("Escribe a it@example.com");
        assertThat(settings.extraCertificates()).isEmpty();
    }
}
