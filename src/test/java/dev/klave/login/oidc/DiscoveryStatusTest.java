package dev.klave.login.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Administrators read why discovery failed in Spanish, whatever exception the provider caused. */
class DiscoveryStatusTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "discovery document: ConnectException|el proveedor no acepta conexiones (¿está caído, o OIDC_ISSUER apunta a otra dirección?)",
        "discovery document: UnknownHostException: sso.example|no se encuentra el nombre del proveedor en el DNS",
        "discovery document: no complete answer within 5 s|el proveedor no respondió a tiempo",
        "discovery document: SSLHandshakeException: PKIX path building failed|no se confía en el certificado del proveedor (¿falta su CA en SSL_CERT_FILE?)",
        "discovery document: answer larger than 524288 bytes|la respuesta del proveedor es demasiado grande",
        "discovery document names issuer https://other rather than https://sso|el documento de descubrimiento nombra un emisor distinto de OIDC_ISSUER",
        "discovery document: HTTP 503|el proveedor respondió con el estado HTTP 503",
        "signing keys: not a JWK set|el documento de descubrimiento o las claves del proveedor no son válidos",
        "something else entirely|no se pudo leer el documento de descubrimiento"})
    void eachFailureIsExplainedInSpanish(String error, String explained) {
        assertThat(DiscoveryStatus.explain(error)).isEqualTo(explained);
    }
}
