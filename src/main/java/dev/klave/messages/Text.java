package dev.klave.messages;

import static java.util.Objects.requireNonNull;

/**
 * The catalogue's texts that are not an answer's error: descriptions, notices, health checks, the
 * reasons Klave writes into stored rows and the parts a {@link Message} is filled in with. Like a
 * {@link Message}, each has a stable code (its constant's name) and {@code %s} marks its parts.
 */
public enum Text {
    // The tiers' descriptions (GET /api/tiers; spec 1 §4: "fields of the tiers catalog: not shown").
    TIER_VIEW("leer casi todo en el ámbito (no los Secrets), sin cambiar nada"),
    TIER_EDIT("crear, cambiar y borrar cargas de trabajo, ConfigMaps y Secrets; sin tocar permisos"),
    TIER_ADMIN("todo lo de editar más Roles y RoleBindings del namespace"),
    TIER_CLUSTER_ADMIN("control total del cluster; solo sobre *"),
    /** The {@code psa_enforce} a namespace without the label is named with in {@code POD_SECURITY_REQUIRED}. */
    POD_SECURITY_NONE("ninguno"),

    // What a CI job is told to do next (spec 1 §7 "CI exchange errors": the parts after ": …").
    CI_HINT_NO_RULE("pide a un administrador una trust rule para este repositorio, ref y environment"),
    CI_HINT_NO_GRANT("pide a un administrador que le conceda un permiso"),

    // Why Klave revoked credentials itself (the revocation's reason, shown in the credentials list).
    REVOKED_ACCOUNT_DISABLED("cuenta deshabilitada"),
    REVOKED_CLUSTER_DELETED("cluster borrado"),

    // The note of a grant made by approving an agent's access request (spec 3 "request_access"):
    // the request's id, then its reason.
    ACCESS_REQUEST_GRANT_NOTE("solicitud de acceso de un agente %s: %s"),

    // Why a tool refuses an argument that is to be a segment of an API path (agent.argument_invalid's
    // second part): checked by the Kubernetes rules before anything is sent.
    ARGUMENT_NOT_NAMESPACE("no es un namespace: minúsculas, dígitos y '-', hasta 63 caracteres (RFC 1123)"),
    ARGUMENT_NOT_NAME("no es un nombre que quepa en una ruta de Kubernetes: vacío, '.', '..', o con '/', '%' "
            + "o caracteres de control"),

    // Why an agent session ended, when a person ended it from the web interface (its end_reason).
    AGENT_SESSION_ENDED_BY_PERSON("terminada por su persona"),
    /** %s: the administrator's login. */
    AGENT_SESSION_ENDED_BY_ADMIN("terminada por el administrador %s"),

    // The reconciler (the rbac_cleanup error, a cluster's last error).
    CLEANUP_WITHOUT_TOKENS("el cluster no tenía tokens"),
    IMPERSONATION_ROLE_MISSING("falta el ClusterRole %s: vuelve a aplicar bootstrap.yaml"),

    // A cluster's answers as administrators and audit rows read them.
    CLUSTER_ANSWERED("el API server del cluster respondió %s: %s"),
    CLUSTER_ANSWER_NOT_JSON("respuesta que no es JSON"),
    CLUSTER_BOOTSTRAP_HINT("descarga bootstrap.yaml, aplícalo y pega el JSON que imprime"),
    ANSWER_INTERRUPTED("respuesta interrumpida: %s"),

    // Administrators' notices (GET /api/notices; spec 2 §5 "Discovery", "Accounts and password").
    NOTICE_OIDC_DISCOVERY_FAILING("Klave no puede leer el documento de descubrimiento de %s: %s. "
            + "Nadie puede entrar con %s hasta que se pueda."),
    NOTICE_UNKNOWN_ERROR("error desconocido"),
    NOTICE_LINKED_BY_EMAIL_ONE("%s persona entró por primera vez esta semana y se vinculó por correo."),
    NOTICE_LINKED_BY_EMAIL_MANY("%s personas entraron por primera vez esta semana y se vincularon por correo."),
    NOTICE_FORGE_2FA_UNREADABLE("La App de Forge no puede comprobar si la organización exige doble factor: "
            + "dale el permiso Administration (lectura)."),

    // The installation's health checks (GET /api/installation/health).
    CHECK_DATABASE_DOWN("la base de datos no responde en 2 s"),
    CHECK_NO_ADMIN_CAN_SIGN_IN("ningún administrador puede entrar: vincula uno o márcalo como cuenta de "
            + "emergencia (klave user set-break-glass)"),
    CHECK_DISCOVERY_NOT_FETCHED("todavía no se ha leído el documento de descubrimiento"),
    CHECK_FORGE_NEVER_SYNCED("ninguna sincronización todavía"),
    /** %s: registered OAuth clients, then the cap (spec 3 §8). */
    CHECK_OAUTH_CLIENTS("%s de %s clientes OAuth registrados"),
    CHECK_OAUTH_CLIENTS_NEAR_CAP("%s de %s clientes OAuth registrados: cerca del límite, los nuevos registros fallarán; "
            + "purga los que nunca iniciaron sesión"),

    // Why the OIDC discovery failed, for administrators (spec 2 §5 "Discovery").
    DISCOVERY_REFUSED("el proveedor no acepta conexiones (¿está caído, o OIDC_ISSUER apunta a otra dirección?)"),
    DISCOVERY_UNKNOWN_HOST("no se encuentra el nombre del proveedor en el DNS"),
    DISCOVERY_TIMEOUT("el proveedor no respondió a tiempo"),
    DISCOVERY_UNTRUSTED("no se confía en el certificado del proveedor (¿falta su CA en SSL_CERT_FILE?)"),
    DISCOVERY_TOO_LARGE("la respuesta del proveedor es demasiado grande"),
    DISCOVERY_OTHER_ISSUER("el documento de descubrimiento nombra un emisor distinto de OIDC_ISSUER"),
    DISCOVERY_HTTP_STATUS("el proveedor respondió con el estado HTTP %s"),
    DISCOVERY_INVALID("el documento de descubrimiento o las claves del proveedor no son válidos"),
    DISCOVERY_UNREADABLE("no se pudo leer el documento de descubrimiento");

    private final String template;

    Text(String template) {
        this.template = requireNonNull(template, "template is null");
    }

    /** The stable code of this text: the constant's name. */
    public String code() {
        return name();
    }

    /** The text with its {@code %s} parts filled in, in order. */
    public String text(Object... arguments) {
        if (arguments.length == 0) {
            return template;
        }
        return template.formatted(arguments);
    }
}
