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
    /** A grant made by approving a person's request (issue 41): the request, its reason. */
    PERSON_REQUEST_GRANT_NOTE("solicitud de acceso %s: %s"),

    // Why a tool refuses an argument that is to be a segment of an API path (agent.argument_invalid's
    // second part): checked by the Kubernetes rules before anything is sent.
    ARGUMENT_NOT_NAMESPACE("no es un namespace: minúsculas, dígitos y '-', hasta 63 caracteres (RFC 1123)"),
    ARGUMENT_NOT_NAME("no es un nombre que quepa en una ruta de Kubernetes: vacío, '.', '..', o con '/', '%' "
            + "o caracteres de control"),
    // Why a tool refuses an argument otherwise (agent.argument_invalid's second part; spec 3 §4 "Arguments").
    ARGUMENT_NOT_OBJECT("debe ser un objeto JSON"),
    ARGUMENT_NOT_ACCEPTED("esta herramienta no lo admite"),
    ARGUMENT_REQUIRED("es obligatorio"),
    ARGUMENT_NOT_TEXT("debe ser un texto"),
    /** %s: the most characters. */
    ARGUMENT_TOO_LONG("tiene más de %s caracteres"),
    ARGUMENT_NOT_INTEGER("debe ser un número entero"),
    /** %s: the least, then the most. */
    ARGUMENT_OUT_OF_RANGE("debe estar entre %s y %s"),
    ARGUMENT_NOT_BOOLEAN("debe ser true o false"),
    /** %s: the kind's plural. */
    ARGUMENT_NAMESPACE_NEEDED("%s viven en un namespace: indícalo"),
    /** %s: the kind's plural. */
    ARGUMENT_NO_SCALE("%s no tiene el subrecurso scale"),
    ARGUMENT_MANIFEST_UNREADABLE("no es YAML ni JSON válido"),
    /** %s: the pod's containers, comma-separated (issue 43: get_logs without container). */
    ARGUMENT_CONTAINER_NEEDED("el pod tiene varios contenedores y ninguno por defecto: elige uno de %s"),
    ARGUMENT_MANIFEST_NOT_ONE("debe ser exactamente un objeto"),
    ARGUMENT_PATCH_TYPE("usa merge o strategic"),
    ARGUMENT_ROLE("usa view, edit o admin"),
    ARGUMENT_SCOPE("un namespace, o * para todo el cluster"),
    /** agent.cluster_unreachable's {@code error} when the cluster answered something else; %s: the audit id. */
    CLUSTER_ANSWER_NOT_JSON_AUDITED("el cluster no respondió JSON (audit id %s)"),

    // Why an OAuth token request is refused (RFC 6749 §5.2 invalid_grant's error_description).
    OAUTH_CODE_UNKNOWN("código desconocido"),
    OAUTH_CODE_USED("el código ya se usó: la sesión ha terminado"),
    OAUTH_CODE_EXPIRED("el código ha caducado"),
    OAUTH_CODE_OTHER_CLIENT("el código es de otro cliente"),
    OAUTH_REDIRECT_NOT_AUTHORIZED("redirect_uri no es el de la autorización"),
    OAUTH_PKCE_MISMATCH("code_verifier no corresponde al code_challenge (PKCE S256)"),
    OAUTH_REFRESH_UNKNOWN("refresh token desconocido"),
    OAUTH_REFRESH_USED("el refresh token ya se usó: la sesión ha terminado"),
    OAUTH_SESSION_ENDED("la sesión ha terminado"),
    OAUTH_REFRESH_OTHER_CLIENT("el refresh token es de otro cliente"),

    // Why an authorization request is refused (oauth.invalid_request's part, spec 3 §4 "Agent login").
    /** %s: the parameter's name. */
    AUTHORIZE_PARAMETER_MISSING("falta %s"),
    /** %s: the parameter's name. */
    AUTHORIZE_PARAMETER_REPEATED("%s repetido"),
    AUTHORIZE_RESPONSE_TYPE("response_type debe ser code"),
    /** %s: the protected resource's URL. */
    AUTHORIZE_RESOURCE("resource debe ser %s"),

    // Why a client's registration is refused (RFC 7591 §3.2.2 invalid_client_metadata's part).
    REGISTRATION_REDIRECT_URIS_REQUIRED("redirect_uris es obligatorio"),
    /** %s: the most redirect URIs. */
    REGISTRATION_REDIRECT_URIS_COUNT("redirect_uris debe tener entre 1 y %s URIs"),
    /** %s: the most characters. */
    REGISTRATION_REDIRECT_URI_TOO_LONG("una redirect_uri supera %s caracteres"),
    REGISTRATION_GRANT_TYPES("grant_types admite authorization_code (obligatorio) y refresh_token"),
    REGISTRATION_RESPONSE_TYPES("response_types solo admite code"),
    /** %s: the most characters. */
    REGISTRATION_CLIENT_NAME("client_name debe tener entre 1 y %s caracteres"),
    REGISTRATION_NOT_OBJECT("el cuerpo debe ser un objeto JSON"),
    /** %s: the field. */
    REGISTRATION_NOT_TEXT("%s debe ser un texto"),
    /** %s: the field. */
    REGISTRATION_NOT_TEXTS("%s debe ser una lista de textos"),
    /** %s: the field. */
    REGISTRATION_NOT_WEB_ADDRESS("%s debe ser una dirección http(s)"),

    // Why a redirect URI is refused (spec 3 §4 "Redirect URIs").
    REDIRECT_NOT_URI("no es una URI"),
    REDIRECT_NOT_ABSOLUTE("debe ser absoluta"),
    REDIRECT_FRAGMENT("no puede llevar fragmento (#)"),
    /** %s: the scheme. */
    REDIRECT_SCHEME_REFUSED("el esquema %s no está permitido"),
    /** %s: the scheme. */
    REDIRECT_SCHEME_WRAPPER("el esquema %s abre otra dirección en un navegador"),
    REDIRECT_NO_HOST("falta el host"),
    REDIRECT_USER_INFO("no puede llevar usuario ni contraseña"),
    REDIRECT_HTTP_NOT_LOOPBACK("http solo se admite para localhost, 127.0.0.1 y [::1]"),

    /** FILTER_INVALID's part for {@code id=}; %s: the most ids. */
    FILTER_IDS("de 1 a %s ids, sin otros filtros ni página"),

    // Why an agent session ended on its own (its end_reason): a replayed code or token, the client's revocation.
    AGENT_SESSION_CODE_REPLAYED("código usado dos veces"),
    AGENT_SESSION_REFRESH_REPLAYED("refresh token usado dos veces"),
    AGENT_SESSION_REVOKED_BY_CLIENT("revocado por el cliente"),
    AGENT_SESSION_PASSWORD_CHANGED("contraseña cambiada"),
    AGENT_SESSION_IDENTITY_UNLINKED("identidad desvinculada"),

    // Why an agent session ended, when a person ended it from the web interface (its end_reason).
    AGENT_SESSION_ENDED_BY_PERSON("terminada por la persona que la autorizó"),
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
    DISCOVERY_UNREADABLE("no se pudo leer el documento de descubrimiento"),

    // Notifications (issue 41): the kinds a destination chooses, and what each notification says.
    /** An access policy's decider named by something that is no id (never echoed). */
    NOT_AN_ID("un id no válido"),
    NOTIFY_KIND_ACCESS_WAITING("una solicitud de acceso espera decisión"),
    NOTIFY_KIND_WRITE_WAITING("una escritura de un agente espera aprobación"),
    NOTIFY_KIND_DECIDED("se decidió una solicitud (a quien la pidió)"),
    NOTIFY_KIND_ACCESS_ENDING("un acceso termina en 10 minutos (a quien lo tiene)"),
    NOTIFY_KIND_NOTICE("un aviso para administradores"),
    NOTIFY_OPEN("Abrir en Klave"),
    /** %s: the link. */
    NOTIFY_MAIL_OPEN("Ábrelo en Klave: %s"),
    NOTIFY_MAIL_FOOTER("Este correo no lleva tokens ni credenciales: entra en Klave para actuar."),
    NOTIFY_TEST_TITLE("Prueba de Klave: este destino recibe avisos"),
    /** %s: who sent it. */
    NOTIFY_TEST_LINE("Enviada por %s."),
    NOTIFY_DESTINATION_GONE("el destino ya no existe"),
    /** Who asks, what, where, for how long. */
    NOTIFY_ACCESS_WAITING("%s pide «%s» sobre %s de %s durante %s"),
    /** Who asks, the action, the object, where. */
    NOTIFY_WRITE_WAITING("%s quiere %s %s (%s)"),
    /** A line's label: the reason the requester wrote follows it, quoted. */
    NOTIFY_REASON("Motivo:"),
    NOTIFY_EXPIRES("Caduca si nadie decide: %s (UTC)"),
    /** A line's label: the decider's comment follows it, quoted. */
    NOTIFY_COMMENT("Comentario:"),
    /** Who decided, what. */
    NOTIFY_APPROVED("%s aprobó tu solicitud: «%s» sobre %s de %s, hasta %s (UTC)"),
    NOTIFY_DENIED("%s denegó tu solicitud: «%s» sobre %s de %s"),
    /** What, where, when. */
    NOTIFY_ENDING("Tu acceso «%s» sobre %s de %s termina a las %s (UTC), en 10 minutos"),
    NOTIFY_ENDING_LINE("Si lo necesitas más tiempo, pide acceso otra vez en Klave."),
    /** The cluster, its error. */
    NOTIFY_CLUSTER_UNREACHABLE("El cluster %s no responde"),
    /** The destination's name. */
    NOTIFY_DESTINATION_FAILING("El destino de avisos «%s» falla desde hace más de 15 minutos"),
    NOTIFY_ASKER_BOT("El bot %s"),
    NOTIFY_ASKER_AGENT("El agente de %s"),
    NOTIFY_WHOLE_CLUSTER("todo el cluster"),
    NOTIFY_NAMESPACE("el namespace %s"),
    NOTIFY_MINUTES("%s minutos"),
    NOTIFY_HOURS("%s horas"),
    NOTIFY_TIER_VIEW("ver"),
    NOTIFY_TIER_EDIT("editar"),
    NOTIFY_TIER_ADMIN("administrar"),
    NOTIFY_TIER_CLUSTER_ADMIN("administrar el cluster"),

    // Issue 51: why Klave withdrew a request that waited.
    REQUEST_WITHDRAWN_DISABLED("retirada: la cuenta de quien la pidió se deshabilitó"),
    REQUEST_WITHDRAWN_ELIGIBLE("retirada: el permiso elegible que activaba se retiró"),
    // Recorded sessions (issue 42): why a recording is incomplete or truncated.
    RECORDING_UNREADABLE("un frame que el grabador no sabe leer"),
    RECORDING_CAP("llegó al tope de la grabación"),
    RECORDING_BEHIND("el grabador se quedó atrás"),
    RECORDING_STORE_FAILED("no se pudo guardar la grabación"),
    RECORDING_QUOTA("las grabaciones llegaron a su cuota (SERVICE_RECORDING_QUOTA_MIB)"),
    RECORDING_SHARE("las grabaciones de esta persona llegaron a su parte de la cuota (SERVICE_RECORDING_SHARE_MIB)"),
    /** Issue 51: a session in a protocol the recorder cannot read, where recording is on. %s: the protocol. */
    RECORDING_PROTOCOL("sin grabar: el grabador no sabe leer el protocolo que eligió el cluster (%s)"),
    /** Issue 51: a protocol offered or chosen that the recorder cannot read. %s: the protocol. */
    RECORDING_PROTOCOL_NAMED("el grabador no sabe leer ese protocolo (%s)"),
    /** Issue 51: an upgrade that is no session Klave records, on a cluster that requires recording. */
    RECORDING_NOT_A_SESSION("no es un exec, un attach ni un port-forward que Klave reconozca"),
    /** Issue 51: a node-proxy exec, attach or run that is no upgrade, so no terminal to record. */
    RECORDING_NOT_UPGRADED("un exec, attach o run por el proxy del nodo sin conexión actualizada no se puede grabar"),
    /** The audit row of a session whose recording is not whole ("on" policy): %s why. */
    RECORDING_NOT_WHOLE("sesión grabada solo en parte: %s"),
    /** What the terminal reads when a required recording fails mid-session. */
    RECORDING_SESSION_ENDED("la grabación de esta sesión falló y este cluster la exige: sesión terminada");

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
