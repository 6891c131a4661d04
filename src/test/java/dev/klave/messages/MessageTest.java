package dev.klave.messages;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The catalogue against the specification's texts (spec 1 §7), written out literally here so
 * that an edit of the catalogue that changes a word fails this test. "el servicio" reads "Klave".
 */
class MessageTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "PATH_INVALID|400|ruta no válida: segmentos vacíos, '.' o '..' o caracteres escapados no están permitidos",
        "IMPERSONATION_REFUSED|400|Klave no admite cabeceras Impersonate-* (kubectl --as no está soportado)",
        "TOKEN_MISSING|401|hace falta un token (Authorization: Bearer klt_...)",
        "CREDENTIAL_UNKNOWN|401|credencial desconocida",
        "CREDENTIAL_REVOKED|401|credencial revocada",
        "CREDENTIAL_EXPIRED|401|credencial caducada",
        "ACCOUNT_DISABLED|403|la cuenta está deshabilitada",
        "CREDENTIAL_NO_LONGER_VALID|403|la credencial ya no es válida: revocada, caducada, cuenta deshabilitada o permisos cambiados",
        "CLUSTER_UNKNOWN|404|cluster desconocido",
        "UPSTREAM_TIMEOUT|502|no se pudo hablar con el API server del cluster: tiempo de espera agotado",
        "UPSTREAM_CERTIFICATE|502|no se pudo hablar con el API server del cluster: el certificado del API server no coincide con la CA registrada",
        "UPSTREAM_UNREACHABLE|502|no se pudo hablar con el API server del cluster: API server inalcanzable",
        "UPSTREAM_CONNECTION|502|no se pudo hablar con el API server del cluster: error de conexión",
        "CLUSTER_WITHOUT_TOKENS_PROXY|503|el cluster todavía no tiene tokens configurados",
        "DATABASE_UNAVAILABLE|503|Klave no puede consultar su base de datos",
        "AUDIT_UNAVAILABLE|503|Klave no puede registrar la petición",
        "RESTARTING|503|Klave se está reiniciando",
        "AUDIT_STREAM_CUT|101|stream cortado: la credencial ya no es válida",
        "AUDIT_CLIENT_GONE|499|cliente desconectado",
        "INVALID_JSON|400|cuerpo JSON no válido",
        "TTL_INVALID|400|ttl no válido: usa por ejemplo 7d o 12h",
        "SESSION_MISSING|401|sesión no iniciada",
        "SESSION_INVALID|401|sesión caducada o no válida",
        "LOGIN_FAILED|401|usuario o contraseña incorrectos",
        "ADMIN_ONLY|403|solo para administradores",
        "CROSS_ORIGIN|403|petición de otro origen rechazada",
        "FORGE_ONLY_ACCOUNT|403|esta cuenta entra con Forge: no usa contraseña",
        "OTHERS_CREDENTIALS|403|solo un administrador puede operar sobre credenciales de otros",
        "OWN_GRANTS_ONLY|403|solo puedes consultar tus propios permisos",
        "NOT_FOUND|404|no encontrado",
        "USER_NOT_FOUND|404|usuario no encontrado",
        "CLUSTER_NOT_FOUND|404|cluster no encontrado",
        "LINK_INVALID|404|enlace no válido",
        "FORGE_NOT_CONFIGURED|404|el acceso con Forge no está configurado",
        "METHOD_NOT_ALLOWED|405|método no permitido",
        "GRANT_EXISTS|409|ese permiso ya existe",
        "LOGIN_TAKEN|409|ese login ya existe (los logins no se reutilizan)",
        "LAST_ADMIN|409|no se puede quitar ni deshabilitar al último administrador activo",
        "NO_ACTIVE_GRANTS|409|sin permisos activos: no hay ningún cluster al que dar acceso",
        "RECONCILE_RUNNING|409|ya hay una reconciliación de este cluster en curso",
        "LINK_GONE|410|el enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador",
        "BODY_TOO_LARGE|413|cuerpo demasiado grande",
        "TOO_MANY_ATTEMPTS|429|demasiados intentos",
        "INTERNAL_ERROR|500|error interno",
        "CI_NOT_CONFIGURED|503|el intercambio de CI no está configurado",
        "RECONCILER_UNAVAILABLE|503|el reconciliador no está disponible",
        "CI_TOKEN_INVALID|401|token no válido",
        "SIGNATURE_INVALID|401|firma no válida",
        "HEALTH_OK|200|ok",
        "DATABASE_NOT_READY|503|database unavailable",
    })
    void fixedTextsAreTheSpecificationsWordForWord(Message message, int status, String text) {
        assertThat(message.text()).isEqualTo(text);
        assertThat(message.status()).isEqualTo(status);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "CLUSTER_ID_INVALID|400|identificador de cluster no válido: Prod_1",
        "CREDENTIAL_OTHER_CLUSTER|403|esta credencial está restringida al cluster prod-1",
        "NO_ACTIVE_GRANT_ON_CLUSTER|403|user:ana no tiene permisos activos en el cluster prod-1",
        "NAMESPACE_PROTECTED|400|el namespace kube-system está protegido: es del sistema o de Klave; no se dan permisos sobre él",
        "CLUSTER_WITHOUT_TOKENS|409|el cluster no tiene tokens todavía: prod-1",
        "CI_BOT_WITHOUT_GRANTS|403|el bot deployer no tiene permisos activos en ningún cluster: prod-1",
    })
    void textsWithPartsFillThemInOrder(Message message, int status, String expected) {
        Object[] parts = switch (message) {
            case CLUSTER_ID_INVALID -> new Object[] {"Prod_1"};
            case NO_ACTIVE_GRANT_ON_CLUSTER -> new Object[] {"user:ana", "prod-1"};
            case NAMESPACE_PROTECTED -> new Object[] {"kube-system"};
            case CI_BOT_WITHOUT_GRANTS -> new Object[] {"deployer", "prod-1"};
            default -> new Object[] {"prod-1"};
        };
        assertThat(message.text(parts)).isEqualTo(expected);
        assertThat(message.refusal(parts)).hasMessage(expected);
        assertThat(message.refusal(parts).status()).isEqualTo(status);
    }

    /** Spec 3 §7 writes the codes of the agent's tools, not their texts: these are Klave's. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "AGENT_APPROVAL_PENDING|agent.approval_pending|la escritura espera la aprobación de una persona",
        "AGENT_APPROVAL_DENIED|agent.approval_denied|una persona ha denegado la escritura",
        "AGENT_APPROVAL_EXPIRED|agent.approval_expired|la aprobación ha caducado: vuelve a llamar sin approval_id",
        "AGENT_APPROVAL_EXECUTED|agent.approval_executed|la escritura ya se ejecutó: lee el objeto",
        "AGENT_APPROVAL_MISMATCH|agent.approval_mismatch|la llamada no coincide con la escritura aprobada",
        "AGENT_TOO_MANY_PENDING|agent.too_many_pending|la cuenta ya tiene 20 solicitudes pendientes",
        "AGENT_ACCESS_BAD_MINUTES|agent.access_bad_minutes|minutes debe estar entre 1 y 480",
        "AGENT_ACCESS_REASON|agent.access_reason|reason es obligatorio y tiene como mucho 500 caracteres",
        "AGENT_ACCESS_BEYOND_CEILING|agent.access_beyond_ceiling|ese rol supera los permisos de la persona en ese cluster",
        "REQUEST_NOT_PENDING|REQUEST_NOT_PENDING|la solicitud ya no está pendiente",
        "REQUEST_EXPIRED|REQUEST_EXPIRED|la solicitud ha caducado",
    })
    void agentTextsCarryTheSpecificationsCodes(Message message, String code, String expected) {
        Object part = switch (message) {
            case AGENT_TOO_MANY_PENDING -> 20;
            case AGENT_ACCESS_BAD_MINUTES -> 480;
            case AGENT_ACCESS_REASON -> 500;
            default -> "";
        };
        assertThat(message.code()).isEqualTo(code);
        assertThat(message.refusal(part)).hasMessage(expected);
    }

    @org.junit.jupiter.api.Test
    void ciTextsNameTheClaimsRuleAndBot() {
        assertThat(Message.CI_NO_MATCHING_RULE.text("1", "2", "refs/heads/main", "", "ninguna regla"))
                .isEqualTo("ninguna trust rule coincide con este workflow (repository_owner_id=1 repository_id=2 "
                        + "ref=refs/heads/main environment=): ninguna regla");
        assertThat(Message.CI_BOT_DISABLED.text("deployer", "producción"))
                .isEqualTo("el bot deployer de la trust rule «producción» está deshabilitado");
    }
}
