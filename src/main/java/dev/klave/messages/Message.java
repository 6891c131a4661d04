package dev.klave.messages;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The catalogue. Each entry is a stable code, the HTTP status the specification gives the text
 * and the text itself; {@code %s} marks the parts filled in at the time of the error.
 *
 * <p>The code names the message to programs (spec 3 §7: a service error is {@code {code, params,
 * error}}). It is the constant's name unless the specification writes the code itself (spec 3's
 * {@code agent.*}), in which case the entry carries the specification's text as its code. A code
 * never changes once released: {@code MessageCodesTest} pins every one.
 */
public enum Message {
    // Proxy errors, returned as Kubernetes Status objects (spec 1 §7 "Proxy errors").
    PATH_INVALID(400, "ruta no válida: segmentos vacíos, '.' o '..' o caracteres escapados no están permitidos"),
    CLUSTER_ID_INVALID(400, "identificador de cluster no válido: %s"),
    IMPERSONATION_REFUSED(400, "Klave no admite cabeceras Impersonate-* (kubectl --as no está soportado)"),
    TOKEN_MISSING(401, "hace falta un token (Authorization: Bearer klt_...)"),
    CREDENTIAL_UNKNOWN(401, "credencial desconocida"),
    CREDENTIAL_REVOKED(401, "credencial revocada"),
    CREDENTIAL_EXPIRED(401, "credencial caducada"),
    ACCOUNT_DISABLED(403, "la cuenta está deshabilitada"),
    CREDENTIAL_OTHER_CLUSTER(403, "esta credencial está restringida al cluster %s"),
    NO_ACTIVE_GRANT_ON_CLUSTER(403, "%s no tiene permisos activos en el cluster %s"),
    CREDENTIAL_NO_LONGER_VALID(403,
            "la credencial ya no es válida: revocada, caducada, cuenta deshabilitada o permisos cambiados"),
    CLUSTER_UNKNOWN(404, "cluster desconocido"),
    UPSTREAM_TIMEOUT(502, "no se pudo hablar con el API server del cluster: tiempo de espera agotado"),
    UPSTREAM_CERTIFICATE(502, "no se pudo hablar con el API server del cluster: "
            + "el certificado del API server no coincide con la CA registrada"),
    UPSTREAM_UNREACHABLE(502, "no se pudo hablar con el API server del cluster: API server inalcanzable"),
    UPSTREAM_CONNECTION(502, "no se pudo hablar con el API server del cluster: error de conexión"),
    CLUSTER_WITHOUT_TOKENS_PROXY(503, "el cluster todavía no tiene tokens configurados"),
    DATABASE_UNAVAILABLE(503, "Klave no puede consultar su base de datos"),
    AUDIT_UNAVAILABLE(503, "Klave no puede registrar la petición"),
    RESTARTING(503, "Klave se está reiniciando"),
    // Not in the specification (spec 1 §8: limits of the proxy are not shown). Each keeps one
    // credential, or one cluster's load, from taking the cluster away from everyone else.
    PROXY_CREDENTIAL_BUSY(429, "demasiadas peticiones simultáneas con esta credencial al cluster %s: "
            + "inténtalo de nuevo en unos segundos"),
    PROXY_TOO_MANY_STREAMS(429, "demasiados watches, logs seguidos o conexiones exec abiertos con esta "
            + "credencial (como mucho %s): cierra alguno"),
    PROXY_CLUSTER_BUSY(503, "demasiadas peticiones en curso al cluster %s: inténtalo de nuevo en unos segundos"),

    // Requests refused at the edge, before any route (RFC 9112, RFC 9113 §3). The specification
    // names none of these; they keep its form "<what>: <why>".
    REQUEST_MALFORMED(400, "petición HTTP no válida"),
    FRAMING_LENGTH_AND_CHUNKED(400, "petición HTTP no válida: Transfer-Encoding y Content-Length a la vez"),
    FRAMING_CHUNKED_NOT_LAST(400, "petición HTTP no válida: chunked debe ser la última codificación de "
            + "Transfer-Encoding, y solo una vez"),
    FRAMING_CHUNKED_IN_HTTP10(400, "petición HTTP no válida: Transfer-Encoding en HTTP/1.0"),
    HEADER_FOLDED(400, "petición HTTP no válida: cabecera partida en varias líneas (obs-fold)"),
    HOST_MISSING(400, "petición HTTP no válida: falta la cabecera Host"),
    HOST_REPEATED(400, "petición HTTP no válida: más de una cabecera Host"),
    BODY_CHUNKS_MALFORMED(400, "petición HTTP no válida: cuerpo chunked mal formado (RFC 9112 §7.1)"),
    URI_TOO_LONG(414, "dirección de la petición demasiado larga"),
    HEADERS_TOO_LARGE(431, "cabeceras de la petición demasiado grandes"),
    TRANSFER_CODING_UNSUPPORTED(501, "codificación de transferencia no admitida: %s"),
    HTTP_VERSION_UNSUPPORTED(505, "versión de HTTP no admitida: %s"),

    // Texts seen only in audit rows (spec 1 §7 "Statuses seen only in audit rows").
    AUDIT_STREAM_CUT(101, "stream cortado: la credencial ya no es válida"),
    // Not in the specification: a stream whose credential could not be checked is cut too (fail
    // closed), and its row says why.
    AUDIT_STREAM_CUT_DATABASE(101, "stream cortado: Klave no puede consultar su base de datos para comprobar "
            + "la credencial"),
    AUDIT_STREAM_CUT_CHECK_FAILED(101, "stream cortado: error interno al comprobar la credencial"),
    AUDIT_CLIENT_GONE(499, "cliente desconectado"),
    AUDIT_RESTARTING(503, "Klave reiniciando"),
    // Not in the specification's table: spec 3 §8 discards a cluster answer over 8 MiB, and the
    // row of the call says so.
    AUDIT_ANSWER_TOO_LARGE(502, "respuesta del cluster descartada: más de %s"),
    // Not in the specification: a call Klave means as a preview (a held write's dry run, spec 3 §4)
    // whose URI does not carry dryRun=All is never sent; a defect of Klave's, refused fail-closed.
    PREVIEW_NOT_DRY_RUN(500, "Klave no envía la vista previa: la petición no es una simulación (dryRun=All)"),

    // API errors, returned as {"error": text} (spec 1 §7 "API errors").
    INVALID_JSON(400, "cuerpo JSON no válido"),
    // The specification's text, then which field (spec 1 §4: unknown fields are rejected with 400).
    INVALID_JSON_UNKNOWN_FIELD(400, "cuerpo JSON no válido: campo desconocido «%s»"),
    NAMESPACE_PROTECTED(400, "el namespace %s está protegido: es del sistema o de Klave; no se dan permisos sobre él"),
    TTL_INVALID(400, "ttl no válido: usa por ejemplo 7d o 12h"),
    TTL_TOO_LONG(400, "ttl demasiado largo: como mucho %s"),
    LOGIN_INVALID(400, "login no válido: usa de 1 a 63 letras minúsculas, dígitos, '-' o '.', "
            + "empezando y acabando en letra o dígito"),
    BREAK_GLASS_PEOPLE_ONLY(400, "solo una persona puede ser break-glass: los bots no tienen contraseña"),
    PASSWORD_TOO_SHORT(400, "la contraseña debe tener al menos 12 caracteres"),
    PASSWORD_TOO_LONG(400, "la contraseña no puede tener más de 1024 caracteres"),
    PASSWORD_IS_LOGIN(400, "la contraseña no puede ser igual al login"),
    // Not in the specification, like the rest of the password policy: "anaanaanaana" for ana.
    PASSWORD_IS_LOGIN_REPEATED(400, "la contraseña no puede ser el login repetido"),
    PASSWORD_UNCHANGED(400, "la contraseña nueva debe ser distinta de la actual"),
    PASSWORD_REQUIRED(400, "falta la contraseña"),
    EMAIL_INVALID(400, "e-mail no válido"),
    DISPLAY_NAME_INVALID(400, "nombre no válido: de 1 a 200 caracteres"),
    BOT_FIELDS(400, "los bots no tienen e-mail, contraseña ni rol de administrador"),
    // Spec 3 §4 "Write approval flow": the setting is a bot's; a person's agent chooses it in its session.
    WRITES_APPROVAL_BOTS_ONLY(400, "writes_need_approval es solo para bots: el agente de una persona "
            + "lo elige en su sesión"),
    KIND_INVALID(400, "kind no válido: usa bot, o nada para una persona"),
    TIME_INVALID(400, "%s no válido: usa RFC 3339, por ejemplo 2026-11-25T10:00:00Z"),
    PAGE_INVALID(400, "page no válido: usa un número de 1 a 10000"),
    CURSOR_INVALID(400, "cursor no válido: usa el next_cursor de la página anterior"),
    STATUS_FILTER_INVALID(400, "status no válido: usa un código HTTP de 100 a 599"),
    QUERY_PARAMETER_UNKNOWN(400, "parámetro desconocido: %s"),
    FEED_LIMIT_INVALID(400, "limit no válido: usa un número de 1 a %s"),
    // A filter of the credentials, grants or subjects listing (README "Listings page by page"):
    // the parameter, and the values it takes.
    FILTER_INVALID(400, "%s no válido: usa %s"),
    CURRENT_PASSWORD_WRONG(400, "la contraseña actual no es correcta"),
    // The bootstrap JSON (spec 1 §4 POST /api/clusters/{id}/tokens), field by field.
    BOOTSTRAP_PROXY_TOKEN_EMPTY(400, "JSON de bootstrap no válido: proxyToken está vacío"),
    BOOTSTRAP_RECONCILER_TOKEN_EMPTY(400, "JSON de bootstrap no válido: reconcilerToken está vacío"),
    BOOTSTRAP_SERVER_MISSING(400, "JSON de bootstrap no válido: falta server"),
    BOOTSTRAP_SERVER_INVALID(400, "JSON de bootstrap no válido: server debe ser una URL https:// sin query"),
    BOOTSTRAP_CA_MISSING(400, "JSON de bootstrap no válido: falta ca"),
    BOOTSTRAP_CA_INVALID(400, "JSON de bootstrap no válido: ca no es un certificado PEM"),
    /** %s: the field ({@code proxyToken}, {@code reconcilerToken}), then the API server's status. */
    BOOTSTRAP_TOKEN_REJECTED(400, "JSON de bootstrap no válido: el API server rechaza %s (%s)"),
    CLUSTER_ID_FORMAT(400, "identificador de cluster no válido: usa de 1 a 63 minúsculas, dígitos o '-', "
            + "empezando y acabando en letra o dígito"),
    CLUSTER_NAME_INVALID(400, "nombre de cluster no válido: de 1 a 200 caracteres"),
    // A new grant (spec 1 §4 POST /api/grants), field by field.
    TIER_INVALID(400, "tier no válido: usa view, edit, admin o cluster-admin"),
    SCOPE_INVALID(400, "ámbito no válido: usa el nombre de un namespace o *"),
    SCOPE_CLUSTER_ADMIN_WHOLE(400, "ámbito no válido: cluster-admin solo se da sobre *"),
    SCOPE_NAMESPACE_UNKNOWN(400, "ámbito no válido: el namespace %s no existe en el cluster"),
    EXPIRY_INVALID(400, "expires_at no válido: usa RFC 3339, por ejemplo 2026-12-31T23:59:00Z"),
    EXPIRY_PAST(400, "expires_at no válido: debe ser una fecha futura"),
    POD_SECURITY_REQUIRED(400, "el namespace %s no aplica pod-security (psa_enforce=%s): etiqueta el namespace con "
            + "pod-security.kubernetes.io/enforce=baseline o restricted antes de dar un tier de escritura"),
    SUBJECT_REQUIRED(400, "falta subject_id o no existe ese usuario"),
    TRUST_RULE_NAME_INVALID(400, "nombre de trust rule no válido: de 1 a 200 caracteres"),
    TRUST_RULE_BOT_REQUIRED(400, "falta bot_subject_id o no existe ese usuario"),
    TRUST_RULE_NOT_A_BOT(400, "bot_subject_id debe ser un bot: las trust rules solo emiten credenciales de bots"),
    TRUST_RULE_ID_INVALID(400, "%s no válido: usa el id numérico del propietario o del repositorio en Forge, "
            + "no su nombre"),
    TRUST_RULE_TEXT_INVALID(400, "%s no válido: como mucho 255 caracteres"),
    // Not in the specification: Actions' ref claim is always a full ref (refs/heads/…), so a rule
    // with a short one could never match (spec 1 §4 "CI exchange rules" 2). %s: the full form.
    TRUST_RULE_REF_NOT_FULL(400, "ref no válido: usa la forma completa, p. ej. %s"),
    CLUSTER_TAKEN(409, "ese cluster ya existe"),
    SESSION_MISSING(401, "sesión no iniciada"),
    SESSION_INVALID(401, "sesión caducada o no válida"),
    LOGIN_FAILED(401, "usuario o contraseña incorrectos"),
    ADMIN_ONLY(403, "solo para administradores"),
    CROSS_ORIGIN(403, "petición de otro origen rechazada"),
    FORGE_ONLY_ACCOUNT(403, "esta cuenta entra con Forge: no usa contraseña"),
    /** Not in spec 1 §7: the same refusal when only an OIDC provider is on (named as its button is). */
    PROVIDER_ONLY_ACCOUNT(403, "esta cuenta entra con %s: no usa contraseña"),
    OTHERS_CREDENTIALS(403, "solo un administrador puede operar sobre credenciales de otros"),
    OWN_GRANTS_ONLY(403, "solo puedes consultar tus propios permisos"),
    NOT_FOUND(404, "no encontrado"),
    USER_NOT_FOUND(404, "usuario no encontrado"),
    CLUSTER_NOT_FOUND(404, "cluster no encontrado"),
    LINK_INVALID(404, "enlace no válido"),
    FORGE_NOT_CONFIGURED(404, "el acceso con Forge no está configurado"),
    // Not in the specification (spec 2 names no text): the OIDC routes while OIDC is off.
    OIDC_NOT_CONFIGURED(404, "el acceso con OIDC no está configurado"),
    METHOD_NOT_ALLOWED(405, "método no permitido"),
    GRANT_EXISTS(409, "ese permiso ya existe"),
    // Not in the specification: a second rule with the same bot, repository, ref and environment
    // changes nothing (a job matching one matches both, for the same bot). %s: the existing rule's name.
    TRUST_RULE_EXISTS(409, "ya hay una trust rule igual: «%s»"),
    LOGIN_TAKEN(409, "ese login ya existe (los logins no se reutilizan)"),
    ACCOUNT_DISABLED_CONFLICT(409, "la cuenta está deshabilitada"),
    NOT_A_PERSON(409, "los bots no entran en la interfaz: no tienen contraseña ni enlaces"),
    // Spec 1 §4 POST /api/me/forge/link: "409 if already linked"; the text is ours.
    IDENTITY_ALREADY_LINKED(409, "tu cuenta ya está vinculada: pide a un administrador que la desvincule primero"),
    LAST_ADMIN(409, "no se puede quitar ni deshabilitar al último administrador activo"),
    NO_ACTIVE_GRANTS(409, "sin permisos activos: no hay ningún cluster al que dar acceso"),
    RECONCILE_RUNNING(409, "ya hay una reconciliación de este cluster en curso"),
    CLUSTER_WITHOUT_TOKENS(409, "el cluster no tiene tokens todavía: %s"),
    LINK_GONE(410, "el enlace ha caducado o ya se ha usado; pide uno nuevo a un administrador"),
    BODY_TOO_LARGE(413, "cuerpo demasiado grande"),
    // Not in the specification: a form-encoded route (RFC 6749 §4.1.3) sent something else.
    FORM_REQUIRED(415, "el cuerpo debe ser application/x-www-form-urlencoded"),
    FORM_INVALID(400, "cuerpo de formulario no válido"),
    // Not in the specification: GET /api/audit/export?format= takes csv or jsonl.
    EXPORT_FORMAT_INVALID(400, "formato de exportación no válido: usa csv o jsonl"),
    EXPORT_AFTER_INVALID(400, "after no válido: usa el id de la última fila recibida"),
    TOO_MANY_ATTEMPTS(429, "demasiados intentos"),
    INTERNAL_ERROR(500, "error interno"),
    CLUSTER_FAILED(502, "%s"),
    CI_NOT_CONFIGURED(503, "el intercambio de CI no está configurado"),
    RECONCILER_UNAVAILABLE(503, "el reconciliador no está disponible"),
    // Not in the specification: GET /api/audit?channel= takes proxy or tool (spec 3 "Tool rules" 3).
    CHANNEL_INVALID(400, "channel no válido: usa proxy o tool"),

    // Deciding an agent's write or access request (POST /api/agents/requests/{id}/approve|deny);
    // not in the specification: a request decided, or run out, is no longer the person's to decide.
    REQUEST_NOT_PENDING(409, "la solicitud ya no está pendiente"),
    REQUEST_EXPIRED(409, "la solicitud ha caducado"),
    // Not in the specification: a delegated agent's access request is approved only while a grant
    // of its person covers it (the session uses that grant's access, never more).
    REQUEST_NOT_HELD(409, "ya no tienes un permiso que cubra esta solicitud: pide uno a un administrador"),
    // Issue 51: a decision holds only what is still allowed.
    WRITE_CANNOT_RUN(409, "la escritura ya no se puede ejecutar: la sesión del agente terminó, su credencial se "
            + "revocó o su cuenta está deshabilitada"),
    REQUEST_REQUESTER_DISABLED(409, "quien pidió el acceso tiene la cuenta deshabilitada: la solicitud ya no se puede "
            + "aprobar"),
    /** %s: the minutes asked, the most allowed now. */
    REQUEST_BEYOND_MAXIMUM(409, "la solicitud pide %s minutos y ahora se permiten como mucho %s: deniégala y que se "
            + "pida de nuevo"),

    // Not in the specification: people's access requests, eligible grants and clusters' access
    // policies (issue 41).
    ACCESS_CLUSTER_ADMIN(400, "cluster-admin no se pide ni se activa: solo se concede como permiso fijo"),
    /** %s: the shortest; %s: the cluster's longest. */
    ACCESS_MINUTES(400, "la duración va de %s a %s minutos en este cluster"),
    /** %s: the longest reason. */
    ACCESS_REASON(400, "di por qué necesitas el acceso (como mucho %s caracteres)"),
    /** %s: the longest comment. */
    ACCESS_COMMENT(400, "un comentario tiene como mucho %s caracteres"),
    ACCESS_ALREADY_HELD(409, "ya tienes un permiso que cubre ese acceso"),
    ACCESS_ALREADY_ASKED(409, "ya tienes una solicitud igual esperando decisión"),
    /** %s: how many may wait. */
    ACCESS_TOO_MANY(409, "ya tienes %s solicitudes esperando decisión: cancela alguna antes de pedir otra"),
    ACCESS_SECOND_APPROVER(409, "esta solicitud necesita dos aprobaciones de personas distintas: ya la aprobaste"),
    ACCESS_NOT_RUNNING(409, "ese acceso ya no está en vigor"),
    ACCESS_NOT_YOURS(403, "solo quien pidió el acceso puede cancelarlo o terminarlo"),
    ELIGIBLE_MAX_MINUTES(400, "el máximo de un permiso elegible va de 15 a 1440 minutos"),
    ELIGIBLE_EXISTS(409, "ese permiso elegible ya existe"),
    ELIGIBLE_REVOKED(409, "ese permiso elegible ya no está en vigor"),
    ELIGIBLE_FOR_PEOPLE(400, "un permiso elegible es de una persona: un bot pide acceso con request_access"),
    POLICY_MAX_MINUTES(400, "el máximo va de 15 a 1440 minutos"),
    /** %s: the login or id named. */
    POLICY_DECIDER(400, "%s no puede decidir: nombra personas con la cuenta habilitada"),
    /** %s: how many. */
    POLICY_TOO_MANY_DECIDERS(400, "como mucho %s personas deciden en un cluster"),

    // Not in the specification: notifications' destinations (issue 41).
    /** %s: the longest name. */
    NOTIFY_NAME(400, "un destino tiene un nombre de 1 a %s caracteres"),
    NOTIFY_FORMAT(400, "el formato es slack o json"),
    NOTIFY_URL(400, "la dirección de un destino es una URL https completa, sin usuario ni fragmento"),
    NOTIFY_KINDS(400, "elige qué avisos recibe: access.waiting, write.waiting, request.decided, access.ending o "
            + "installation.notice"),
    /** %s: how many. */
    NOTIFY_TOO_MANY(409, "como mucho %s destinos de avisos"),
    /** %s: the host as given. The rule of every delivery, applied when the destination is added (issue 51). */
    NOTIFY_ADDRESS_REFUSED(400, "%s no es una dirección pública: Klave no envía avisos a loopback, redes privadas, "
            + "enlace local (los metadatos en 169.254.169.254) ni a direcciones IP escritas en octal, hexadecimal o "
            + "abreviadas, ni a un nombre que resuelva a una de ellas; SERVICE_WEBHOOK_ALLOW admite redes privadas "
            + "concretas"),
    /** %s: the host as given. */
    NOTIFY_ADDRESS_UNKNOWN(400, "Klave no encuentra la dirección de %s"),

    // Not in the specification: recorded sessions (issue 42).
    RECORDING_POLICY_INVALID(400, "la política de grabación es off, on o required"),
    /** %s: the longest text. */
    RECORDING_SEARCH_TEXT(400, "busca un texto de 2 a %s caracteres"),
    RECORDING_REQUIRED_UNAVAILABLE(503, "este cluster exige grabar las sesiones y ahora no se pueden grabar: "
            + "inténtalo en un momento"),
    // Issue 51: what a cluster that requires recording refuses, and why.
    RECORDING_REQUIRED_QUOTA(503, "este cluster exige grabar las sesiones y las grabaciones llegaron a su cuota "
            + "(SERVICE_RECORDING_QUOTA_MIB): se podrá cuando la retención libere espacio o un administrador borre "
            + "alguna"),
    /** %s: the share, in MiB. */
    RECORDING_REQUIRED_SHARE(503, "este cluster exige grabar las sesiones y tus grabaciones llegaron a tu parte de "
            + "la cuota (%s MiB): se podrá cuando la retención libere espacio o un administrador borre alguna"),
    /** %s: what Klave cannot record (the request, or the protocol the cluster chose). */
    RECORDING_REQUIRED_UNRECORDABLE(403, "este cluster exige grabar las sesiones y Klave no sabe grabar esta "
            + "conexión: %s"),
    RECORDING_RUNNING(409, "la sesión sigue en curso: su grabación se puede borrar cuando termine"),

    // Errors of the agent's tools (spec 3 §7 "Tool results"): the specification writes the codes,
    // not the texts. A tool result carries no HTTP status; the status only classes the refusal.
    AGENT_APPROVAL_PENDING("agent.approval_pending", 202, "la escritura espera la aprobación de una persona"),
    AGENT_APPROVAL_DENIED("agent.approval_denied", 403, "una persona ha denegado la escritura"),
    AGENT_APPROVAL_EXPIRED("agent.approval_expired", 410, "la aprobación ha caducado: vuelve a llamar sin approval_id"),
    AGENT_APPROVAL_EXECUTED("agent.approval_executed", 409, "la escritura ya se ejecutó: lee el objeto"),
    AGENT_APPROVAL_MISMATCH("agent.approval_mismatch", 409, "la llamada no coincide con la escritura aprobada"),
    /** %s: the limit, 20 (spec 3 §8). */
    AGENT_TOO_MANY_PENDING("agent.too_many_pending", 429, "la cuenta ya tiene %s solicitudes pendientes"),
    /** %s: the longest a request may ask for, 480 (spec 3 §8). */
    AGENT_ACCESS_BAD_MINUTES("agent.access_bad_minutes", 400, "minutes debe estar entre 1 y %s"),
    /** %s: the longest reason, 500 characters (spec 3 §8). */
    AGENT_ACCESS_REASON("agent.access_reason", 400, "reason es obligatorio y tiene como mucho %s caracteres"),
    AGENT_ACCESS_BEYOND_CEILING("agent.access_beyond_ceiling", 403,
            "ese rol supera los permisos de la persona en ese cluster"),

    // The agent endpoint's transport (spec 3 §7 "Transport-level"); the texts are ours.
    MCP_CREDENTIAL_NOT_ACCEPTED(401,
            "en /mcp solo valen la credencial vigente de un bot habilitado y el token de una sesión de agente abierta"),
    MCP_RATE_LIMITED(429, "demasiadas llamadas a /mcp con esta credencial: espera un minuto"),
    // The agent's tools: the service's own refusals (spec 3 §7 "Tool results": <code>: <message>).
    AGENT_ARGUMENT_INVALID("agent.argument_invalid", 400, "argumento %s no válido: %s"),
    AGENT_CLUSTER_UNKNOWN("agent.cluster_unknown", 404,
            "no tienes permisos en ningún cluster llamado %s: usa list_clusters"),
    AGENT_KIND_UNKNOWN("agent.kind_unknown", 404,
            "el cluster %s no sirve ningún tipo llamado %s: usa list_api_resources"),
    AGENT_KIND_AMBIGUOUS("agent.kind_ambiguous", 400, "%s nombra varios tipos (%s): indica api_version"),
    AGENT_NOT_ROLLABLE("agent.not_rollable", 400,
            "rollout_restart solo reinicia deployments, statefulsets y daemonsets; %s no lo es"),
    AGENT_PREVIEW_TOO_LARGE("agent.preview_too_large", 413, "la vista previa de la escritura supera %s"),
    AGENT_CLUSTER_UNREACHABLE("agent.cluster_unreachable", 502, "%s"),
    /** %s: the cluster. Not in the specification: the tools resolve kinds by aggregated discovery (spec 3 §4). */
    /** %s: the cluster. Issue 43's top: the resource metrics API is metrics-server's, not every cluster has it. */
    AGENT_METRICS_UNAVAILABLE("agent.metrics_unavailable", 501, "el cluster %s no sirve la API de métricas "
            + "(metrics.k8s.io): hace falta metrics-server"),
    AGENT_DISCOVERY_UNSUPPORTED("agent.discovery_unsupported", 501, "el cluster %s no sirve el descubrimiento "
            + "agregado que necesitan las herramientas de los agentes: hace falta Kubernetes 1.27 o posterior "
            + "(apidiscovery.k8s.io v2beta1; v2 desde 1.30), o 1.26 con la feature gate AggregatedDiscoveryEndpoint"),

    // An OAuth client's metadata document (spec 3 §4 "Agent login", §8), refused; /oauth/authorize
    // shows these as plain-text 400s (§4 rule 7). Not in the specification: the texts are ours.
    CLIENT_ID_NOT_HTTPS(400, "client_id no válido: debe ser una URL https"),
    CLIENT_ID_URL_INVALID(400, "client_id no válido: debe ser una URL https con host y ruta, sin usuario, "
            + "fragmento ni segmentos '.' o '..'"),
    CLIENT_DOCUMENT_PRIVATE_ADDRESS(400, "el documento del cliente no está en una dirección pública"),
    CLIENT_DOCUMENT_UNREACHABLE(400, "no se pudo descargar el documento del cliente: nombre desconocido, "
            + "conexión rechazada o respuesta HTTP no válida"),
    CLIENT_DOCUMENT_TLS(400, "no se pudo descargar el documento del cliente: su certificado no es de confianza "
            + "o no es de ese nombre"),
    /** %s: the deadline, 5 s (spec 3 §8). */
    CLIENT_DOCUMENT_TIMEOUT(400, "el documento del cliente no llegó en %s"),
    CLIENT_DOCUMENT_REDIRECT(400, "el documento del cliente responde con una redirección, y Klave no las sigue"),
    /** %s: the HTTP status the document's server answered. */
    CLIENT_DOCUMENT_STATUS(400, "el servidor del documento del cliente respondió con el estado HTTP %s"),
    /** %s: the limit, 64 KiB (spec 3 §8). */
    CLIENT_DOCUMENT_TOO_LARGE(400, "el documento del cliente supera %s"),
    CLIENT_DOCUMENT_NOT_JSON(400, "el documento del cliente no es un objeto JSON servido como application/json"),
    CLIENT_DOCUMENT_ID_MISMATCH(400, "el client_id del documento no es la URL del documento"),
    CLIENT_DOCUMENT_NOT_PUBLIC(400, "el documento del cliente declara un secreto o un método de autenticación "
            + "distinto de none: solo se admiten clientes públicos"),
    /** %s: the field of the document, such as redirect_uris. */
    CLIENT_DOCUMENT_INVALID(400, "documento del cliente no válido: campo %s"),
    // Refusals of the OAuth endpoints (spec 3 §4 "Agent login"; spec 3 §7: their bodies are not
    // shown). The code is "oauth." and the RFC's error code (RFC 6749 §5.2, RFC 7591 §3.2.2), then,
    // where one RFC code has several texts, a suffix naming which: the edge writes the RFC's code as
    // "error" and the text as "error_description".
    OAUTH_INVALID_REDIRECT_URI("oauth.invalid_redirect_uri", 400, "redirect_uri no válida (%s): %s"),
    OAUTH_CLIENT_METADATA("oauth.invalid_client_metadata", 400, "metadatos del cliente no válidos: %s"),
    OAUTH_PUBLIC_CLIENTS_ONLY("oauth.invalid_client_metadata.auth_method", 400,
            "token_endpoint_auth_method debe ser none: Klave solo registra clientes públicos"),
    OAUTH_TOO_MANY_REGISTRATIONS("oauth.temporarily_unavailable.rate_limited", 429,
            "demasiados registros de clientes desde esta dirección: espera un minuto"),
    /** %s: the limit, 10 000 (spec 3 §8). */
    /** %s: why the grant is refused (the code or refresh token, its client, verifier or redirect_uri). */
    OAUTH_INVALID_GRANT("oauth.invalid_grant", 400, "%s"),
    /** %s: the parameter missing or not valid. */
    OAUTH_INVALID_REQUEST("oauth.invalid_request", 400, "petición no válida: %s"),
    OAUTH_UNSUPPORTED_GRANT("oauth.unsupported_grant_type", 400,
            "grant_type no admitido: usa authorization_code o refresh_token"),
    /** %s: the one resource Klave's tokens are for, {base_url}/mcp (RFC 8707). */
    OAUTH_INVALID_TARGET("oauth.invalid_target", 400, "resource debe ser %s"),
    OAUTH_TOO_MANY_TOKEN_REQUESTS("oauth.temporarily_unavailable.token_rate", 429,
            "demasiadas peticiones de tokens desde esta dirección: espera un minuto"),
    // GET /oauth/authorize (spec 3 §4 rule 7): every error a plain-text 400, never a redirect.
    /** %s: the parameter, and what is wrong with it. */
    AUTHORIZE_INVALID(400, "petición de autorización no válida: %s"),
    AUTHORIZE_UNKNOWN_CLIENT(400, "cliente desconocido: regístralo (POST /oauth/register) o publica su documento"),
    AUTHORIZE_REDIRECT_NOT_REGISTERED(400, "redirect_uri no es una de las que el cliente declaró"),
    AUTHORIZE_WRAPPER_CLIENT(400,
            "este cliente declaró una redirect_uri de un esquema que abre el navegador: ya no puede autorizar"),
    AUTHORIZE_PKCE(400, "hace falta PKCE con code_challenge_method=S256 (plain no se admite)"),
    /** %s: the permission, as cluster/role/scope. Spec 3 §5 4: never beyond the person's own. */
    CONSENT_BEYOND_OWN(403, "no puedes dar a un agente un permiso que no tienes: %s"),
    CONSENT_NO_PERMISSION(400, "elige al menos un permiso para el agente"),
    /** A consent request answered already, on any replica: one answer each. */
    CONSENT_ANSWERED(409, "Esta solicitud ya se respondió"),
    AUTHORIZE_TOO_MANY(429, "demasiadas autorizaciones desde esta dirección: espera un minuto"),
    OAUTH_CLIENTS_FULL("oauth.temporarily_unavailable.clients_full", 503,
            "Klave ya tiene %s clientes registrados: inténtalo más tarde"),

    // CI exchange errors (spec 1 §7 "CI exchange errors").
    CI_TOKEN_INVALID(401, "token no válido"),
    CI_NO_MATCHING_RULE(403, "ninguna trust rule coincide con este workflow "
            + "(repository_owner_id=%s repository_id=%s ref=%s environment=%s): %s"),
    CI_BOT_DISABLED(403, "el bot %s de la trust rule «%s» está deshabilitado"),
    CI_BOT_WITHOUT_GRANTS(403, "el bot %s no tiene permisos activos en ningún cluster: %s"),

    // Forge webhook (spec 1 §7 "Webhook errors").
    SIGNATURE_INVALID(401, "firma no válida"),
    // The specification names the status only (415); the text is ours.
    WEBHOOK_NOT_JSON(415, "el webhook debe llegar como application/json"),

    // Health (spec 1 §4 "Health"); English in the specification.
    HEALTH_OK(200, "ok"),
    DATABASE_NOT_READY(503, "database unavailable");

    private static final String OAUTH_PREFIX = "oauth.";

    private final String code;
    private final int status;
    private final String template;

    /** An entry whose code is its constant's name. */
    Message(int status, String template) {
        this.code = name();
        this.status = status;
        this.template = requireNonNull(template, "template is null");
    }

    /** An entry whose code the specification writes ({@code agent.approval_pending}). */
    Message(String code, int status, String template) {
        this.code = requireNonNull(code, "code is null");
        this.status = status;
        this.template = requireNonNull(template, "template is null");
    }

    /** The stable code of this message. */
    public String code() {
        return code;
    }

    /**
     * The OAuth error code of an {@code oauth.*} message (RFC 6749 §5.2, RFC 7591 §3.2.2): the part
     * after {@code oauth.} up to the next dot; empty for every other message.
     */
    public Optional<String> oauthError() {
        if (!code.startsWith(OAUTH_PREFIX)) {
            return Optional.empty();
        }
        String rest = code.substring(OAUTH_PREFIX.length());
        int dot = rest.indexOf('.');
        return Optional.of(dot < 0 ? rest : rest.substring(0, dot));
    }

    /** The message whose code is {@code code}; anything else is refused. */
    public static Message parse(String code) {
        for (Message message : values()) {
            if (message.code.equals(code)) {
                return message;
            }
        }
        throw new IllegalArgumentException("unknown message code: " + code);
    }

    public int status() {
        return status;
    }

    /** The text with its {@code %s} parts filled in, in order. */
    public String text(Object... arguments) {
        if (arguments.length == 0) {
            return template;
        }
        return template.formatted(arguments);
    }

    /** A refusal carrying this message, ready to be thrown by domain code. */
    public Refusal refusal(Object... arguments) {
        return new Refusal(this, text(arguments));
    }
}
