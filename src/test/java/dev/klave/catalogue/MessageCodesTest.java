package dev.klave.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.messages.Message;
import dev.klave.messages.Text;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The catalogue's codes are a contract (spec 3 §7: a service error is {@code {code, params,
 * error}}): unique, of one form, and never changed once released. The golden lists below are every
 * code in catalogue order; adding a message adds its code here, on purpose.
 */
class MessageCodesTest {
    /**
     * The constant's name in upper snake case, a code the specification writes ({@code agent.*}), or
     * an OAuth error code (RFC 6749 §5.2, RFC 7591 §3.2.2) with an optional suffix naming the case.
     */
    private static final Pattern FORM = Pattern.compile("[A-Z][A-Z0-9]*(_[A-Z0-9]+)*|agent\\.[a-z]+(_[a-z]+)*"
            + "|oauth\\.[a-z]+(_[a-z]+)*(\\.[a-z]+(_[a-z]+)*)?");

    private static final String MESSAGE_CODES = """
            PATH_INVALID CLUSTER_ID_INVALID IMPERSONATION_REFUSED TOKEN_MISSING CREDENTIAL_UNKNOWN
            CREDENTIAL_REVOKED CREDENTIAL_EXPIRED ACCOUNT_DISABLED CREDENTIAL_OTHER_CLUSTER
            NO_ACTIVE_GRANT_ON_CLUSTER CREDENTIAL_NO_LONGER_VALID CLUSTER_UNKNOWN UPSTREAM_TIMEOUT
            UPSTREAM_CERTIFICATE UPSTREAM_UNREACHABLE UPSTREAM_CONNECTION CLUSTER_WITHOUT_TOKENS_PROXY
            DATABASE_UNAVAILABLE AUDIT_UNAVAILABLE RESTARTING PROXY_CREDENTIAL_BUSY PROXY_TOO_MANY_STREAMS
            PROXY_CLUSTER_BUSY REQUEST_MALFORMED FRAMING_LENGTH_AND_CHUNKED FRAMING_CHUNKED_NOT_LAST
            FRAMING_CHUNKED_IN_HTTP10 HEADER_FOLDED HOST_MISSING HOST_REPEATED BODY_CHUNKS_MALFORMED
            URI_TOO_LONG HEADERS_TOO_LARGE TRANSFER_CODING_UNSUPPORTED HTTP_VERSION_UNSUPPORTED
            AUDIT_STREAM_CUT AUDIT_STREAM_CUT_DATABASE AUDIT_STREAM_CUT_CHECK_FAILED AUDIT_CLIENT_GONE
            AUDIT_RESTARTING AUDIT_ANSWER_TOO_LARGE PREVIEW_NOT_DRY_RUN INVALID_JSON INVALID_JSON_UNKNOWN_FIELD NAMESPACE_PROTECTED
            TTL_INVALID TTL_TOO_LONG LOGIN_INVALID BREAK_GLASS_PEOPLE_ONLY PASSWORD_TOO_SHORT PASSWORD_TOO_LONG
            PASSWORD_IS_LOGIN PASSWORD_IS_LOGIN_REPEATED PASSWORD_UNCHANGED PASSWORD_REQUIRED EMAIL_INVALID
            DISPLAY_NAME_INVALID BOT_FIELDS WRITES_APPROVAL_BOTS_ONLY KIND_INVALID TIME_INVALID PAGE_INVALID CURSOR_INVALID STATUS_FILTER_INVALID QUERY_PARAMETER_UNKNOWN FEED_LIMIT_INVALID
            FILTER_INVALID CURRENT_PASSWORD_WRONG
            BOOTSTRAP_PROXY_TOKEN_EMPTY BOOTSTRAP_RECONCILER_TOKEN_EMPTY BOOTSTRAP_SERVER_MISSING
            BOOTSTRAP_SERVER_INVALID BOOTSTRAP_CA_MISSING BOOTSTRAP_CA_INVALID BOOTSTRAP_TOKEN_REJECTED
            CLUSTER_ID_FORMAT CLUSTER_NAME_INVALID TIER_INVALID SCOPE_INVALID SCOPE_CLUSTER_ADMIN_WHOLE
            SCOPE_NAMESPACE_UNKNOWN EXPIRY_INVALID EXPIRY_PAST POD_SECURITY_REQUIRED SUBJECT_REQUIRED
            TRUST_RULE_NAME_INVALID TRUST_RULE_BOT_REQUIRED TRUST_RULE_NOT_A_BOT TRUST_RULE_ID_INVALID
            TRUST_RULE_TEXT_INVALID TRUST_RULE_REF_NOT_FULL CLUSTER_TAKEN SESSION_MISSING SESSION_INVALID
            LOGIN_FAILED ADMIN_ONLY CROSS_ORIGIN FORGE_ONLY_ACCOUNT PROVIDER_ONLY_ACCOUNT OTHERS_CREDENTIALS
            OWN_GRANTS_ONLY NOT_FOUND USER_NOT_FOUND CLUSTER_NOT_FOUND LINK_INVALID FORGE_NOT_CONFIGURED
            OIDC_NOT_CONFIGURED METHOD_NOT_ALLOWED GRANT_EXISTS TRUST_RULE_EXISTS LOGIN_TAKEN
            ACCOUNT_DISABLED_CONFLICT NOT_A_PERSON IDENTITY_ALREADY_LINKED LAST_ADMIN NO_ACTIVE_GRANTS
            RECONCILE_RUNNING CLUSTER_WITHOUT_TOKENS LINK_GONE BODY_TOO_LARGE FORM_REQUIRED FORM_INVALID
            EXPORT_FORMAT_INVALID EXPORT_AFTER_INVALID TOO_MANY_ATTEMPTS INTERNAL_ERROR CLUSTER_FAILED CI_NOT_CONFIGURED
            RECONCILER_UNAVAILABLE CHANNEL_INVALID REQUEST_NOT_PENDING REQUEST_EXPIRED REQUEST_NOT_HELD agent.approval_pending
            agent.approval_denied agent.approval_expired agent.approval_executed agent.approval_mismatch
            agent.too_many_pending agent.access_bad_minutes agent.access_reason agent.access_beyond_ceiling
            MCP_CREDENTIAL_NOT_ACCEPTED MCP_RATE_LIMITED agent.argument_invalid agent.cluster_unknown
            agent.kind_unknown agent.kind_ambiguous agent.not_rollable agent.preview_too_large
            agent.cluster_unreachable agent.discovery_unsupported
            CLIENT_ID_NOT_HTTPS CLIENT_ID_URL_INVALID CLIENT_DOCUMENT_PRIVATE_ADDRESS CLIENT_DOCUMENT_UNREACHABLE
            CLIENT_DOCUMENT_TLS CLIENT_DOCUMENT_TIMEOUT CLIENT_DOCUMENT_REDIRECT CLIENT_DOCUMENT_STATUS
            CLIENT_DOCUMENT_TOO_LARGE CLIENT_DOCUMENT_NOT_JSON CLIENT_DOCUMENT_ID_MISMATCH CLIENT_DOCUMENT_NOT_PUBLIC
            CLIENT_DOCUMENT_INVALID
            oauth.invalid_redirect_uri oauth.invalid_client_metadata oauth.invalid_client_metadata.auth_method
            oauth.temporarily_unavailable.rate_limited oauth.invalid_grant oauth.invalid_request
            oauth.unsupported_grant_type oauth.invalid_target oauth.temporarily_unavailable.token_rate
            AUTHORIZE_INVALID AUTHORIZE_UNKNOWN_CLIENT AUTHORIZE_REDIRECT_NOT_REGISTERED AUTHORIZE_WRAPPER_CLIENT
            AUTHORIZE_PKCE CONSENT_BEYOND_OWN CONSENT_NO_PERMISSION CONSENT_ANSWERED AUTHORIZE_TOO_MANY
            oauth.temporarily_unavailable.clients_full
            CI_TOKEN_INVALID CI_NO_MATCHING_RULE CI_BOT_DISABLED CI_BOT_WITHOUT_GRANTS
            SIGNATURE_INVALID WEBHOOK_NOT_JSON HEALTH_OK DATABASE_NOT_READY
            """;

    private static final String TEXT_CODES = """
            TIER_VIEW TIER_EDIT TIER_ADMIN TIER_CLUSTER_ADMIN POD_SECURITY_NONE CI_HINT_NO_RULE
            CI_HINT_NO_GRANT REVOKED_ACCOUNT_DISABLED REVOKED_CLUSTER_DELETED ACCESS_REQUEST_GRANT_NOTE
            ARGUMENT_NOT_NAMESPACE ARGUMENT_NOT_NAME ARGUMENT_NOT_OBJECT ARGUMENT_NOT_ACCEPTED ARGUMENT_REQUIRED
            ARGUMENT_NOT_TEXT ARGUMENT_TOO_LONG ARGUMENT_NOT_INTEGER ARGUMENT_OUT_OF_RANGE ARGUMENT_NOT_BOOLEAN
            ARGUMENT_NAMESPACE_NEEDED ARGUMENT_NO_SCALE ARGUMENT_MANIFEST_UNREADABLE ARGUMENT_MANIFEST_NOT_ONE
            ARGUMENT_ROLE ARGUMENT_SCOPE CLUSTER_ANSWER_NOT_JSON_AUDITED
            OAUTH_CODE_UNKNOWN OAUTH_CODE_USED OAUTH_CODE_EXPIRED OAUTH_CODE_OTHER_CLIENT OAUTH_REDIRECT_NOT_AUTHORIZED
            OAUTH_PKCE_MISMATCH OAUTH_REFRESH_UNKNOWN OAUTH_REFRESH_USED OAUTH_SESSION_ENDED OAUTH_REFRESH_OTHER_CLIENT
            AUTHORIZE_PARAMETER_MISSING AUTHORIZE_PARAMETER_REPEATED AUTHORIZE_RESPONSE_TYPE AUTHORIZE_RESOURCE
            REGISTRATION_REDIRECT_URIS_REQUIRED REGISTRATION_REDIRECT_URIS_COUNT REGISTRATION_REDIRECT_URI_TOO_LONG
            REGISTRATION_GRANT_TYPES REGISTRATION_RESPONSE_TYPES REGISTRATION_CLIENT_NAME REGISTRATION_NOT_OBJECT
            REGISTRATION_NOT_TEXT REGISTRATION_NOT_TEXTS REGISTRATION_NOT_WEB_ADDRESS REDIRECT_NOT_URI
            REDIRECT_NOT_ABSOLUTE REDIRECT_FRAGMENT REDIRECT_SCHEME_REFUSED REDIRECT_SCHEME_WRAPPER REDIRECT_NO_HOST
            REDIRECT_USER_INFO REDIRECT_HTTP_NOT_LOOPBACK FILTER_IDS AGENT_SESSION_CODE_REPLAYED
            AGENT_SESSION_REFRESH_REPLAYED AGENT_SESSION_REVOKED_BY_CLIENT AGENT_SESSION_PASSWORD_CHANGED
            AGENT_SESSION_IDENTITY_UNLINKED AGENT_SESSION_ENDED_BY_PERSON AGENT_SESSION_ENDED_BY_ADMIN
            CLEANUP_WITHOUT_TOKENS
            IMPERSONATION_ROLE_MISSING CLUSTER_ANSWERED CLUSTER_ANSWER_NOT_JSON CLUSTER_BOOTSTRAP_HINT
            ANSWER_INTERRUPTED NOTICE_OIDC_DISCOVERY_FAILING NOTICE_UNKNOWN_ERROR
            NOTICE_LINKED_BY_EMAIL_ONE NOTICE_LINKED_BY_EMAIL_MANY NOTICE_FORGE_2FA_UNREADABLE
            CHECK_DATABASE_DOWN CHECK_NO_ADMIN_CAN_SIGN_IN CHECK_DISCOVERY_NOT_FETCHED
            CHECK_FORGE_NEVER_SYNCED CHECK_OAUTH_CLIENTS CHECK_OAUTH_CLIENTS_NEAR_CAP DISCOVERY_REFUSED DISCOVERY_UNKNOWN_HOST DISCOVERY_TIMEOUT
            DISCOVERY_UNTRUSTED DISCOVERY_TOO_LARGE DISCOVERY_OTHER_ISSUER DISCOVERY_HTTP_STATUS
            DISCOVERY_INVALID DISCOVERY_UNREADABLE
            """;

    @Test
    void messageCodesAreTheGoldenList() {
        assertThat(Arrays.stream(Message.values()).map(Message::code).toList())
                .containsExactlyElementsOf(golden(MESSAGE_CODES));
    }

    @Test
    void textCodesAreTheGoldenList() {
        assertThat(Arrays.stream(Text.values()).map(Text::code).toList())
                .containsExactlyElementsOf(golden(TEXT_CODES));
    }

    @Test
    void codesAreUniqueAcrossTheCatalogueAndOfOneForm() {
        List<String> all = new java.util.ArrayList<>(Arrays.stream(Message.values()).map(Message::code).toList());
        Arrays.stream(Text.values()).map(Text::code).forEach(all::add);
        assertThat(all).doesNotHaveDuplicates();
        assertThat(all).allSatisfy(code -> assertThat(code).matches(FORM));
    }

    @Test
    void parseFindsEveryMessageByItsCodeOnly() {
        for (Message message : Message.values()) {
            assertThat(Message.parse(message.code())).isSameAs(message);
        }
        assertThatThrownBy(() -> Message.parse("path_invalid")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Message.parse("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anOauthMessageNamesTheRfcErrorCodeAndNoOtherMessageDoes() {
        assertThat(Message.OAUTH_INVALID_REDIRECT_URI.oauthError()).contains("invalid_redirect_uri");
        assertThat(Message.OAUTH_PUBLIC_CLIENTS_ONLY.oauthError()).contains("invalid_client_metadata");
        assertThat(Message.OAUTH_CLIENTS_FULL.oauthError()).contains("temporarily_unavailable");
        assertThat(Message.NOT_FOUND.oauthError()).isEmpty();
        assertThat(Message.AGENT_APPROVAL_DENIED.oauthError()).isEmpty();
    }

    @Test
    void aRefusalCarriesItsMessagesCode() {
        assertThat(Message.TIER_INVALID.refusal().kind().code()).isEqualTo("TIER_INVALID");
    }

    private static List<String> golden(String block) {
        return Arrays.stream(block.strip().split("\\s+")).toList();
    }
}
