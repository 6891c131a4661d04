package dev.klave.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.klave.account.IdentityProvider;
import dev.klave.agent.approval.AccessStatus;
import dev.klave.agent.approval.Course;
import dev.klave.agent.approval.WriteStatus;
import dev.klave.audit.EventType;
import dev.klave.audit.Via;
import dev.klave.cluster.CleanupStatus;
import dev.klave.cluster.ClusterStatus;
import dev.klave.credential.CredentialStatus;
import dev.klave.installation.CheckName;
import dev.klave.installation.CheckState;
import dev.klave.installation.NoticeCode;
import dev.klave.installation.NoticeLevel;
import dev.klave.login.PasswordFailure;
import dev.klave.login.SignInError;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The closed sets' wire values, pinned: what the database stores and the API sends. A new value
 * is added here on purpose; a changed or removed one fails, because stored rows and the web
 * interface read them. The specification's own lists are written out literally, so a value it
 * names can never go missing.
 */
class ClosedSetsTest {
    @Test
    void eventTypesHoldEveryTypeTheSpecificationNames() {
        // Spec 1 §6 and spec 2 §6, as written there.
        assertThat(codes(EventType.values(), EventType::code)).contains("login.success", "login.failure",
                "link.complete", "user.disable", "ci.exchange.failure", "oidc.link", "oidc.email_changed");
        assertThat(codes(EventType.values(), EventType::code)).containsExactly(
                "login.success", "login.failure", "link.complete", "user.disable", "ci.exchange.failure",
                "oidc.link", "oidc.email_changed",
                "user.create", "user.update", "user.reset_link", "user.break_glass", "user.break_glass_removed",
                "user.enable", "user.logout", "user.password_change", "user.forge_unlink", "user.oidc_unlink",
                "bot.create", "grant.create", "grant.revoke", "credential.issue", "credential.revoke",
                "cluster.create", "cluster.tokens", "cluster.delete", "ci.trust_rule.create", "ci.trust_rule.delete",
                "agent.write_approved", "agent.write_denied", "agent.access_approved", "agent.access_denied",
                "agent.session_end", "agent.session_start", "agent.session_denied", "oauth.clients_purge",
                "audit.retention",
                "access_request.create", "access_request.first_approval", "access_request.approve",
                "access_request.deny", "access_request.cancel", "access_request.expire", "access_request.end",
                "eligible_grant.create", "eligible_grant.revoke", "access_policy.update",
                "notify.destination_create", "notify.destination_delete", "recording.view",
                "recording.policy_update", "recording.delete");
    }

    @Test
    void viaHoldsEveryWayTheSpecificationNames() {
        // Spec 1 §6 (forge, oidc), spec 1 §5 "Automatic offboarding", spec 2 §6 (oidc.link via email).
        assertThat(codes(Via.values(), Via::code)).contains("forge", "oidc", "forge-sync", "forge-webhook", "email");
        assertThat(codes(Via.values(), Via::code)).containsExactly("password", "forge", "oidc", "email",
                "forge-sync", "forge-webhook", "api", "cli", "forge-actions");
        assertThat(IdentityProvider.FORGE.via()).isEqualTo(Via.FORGE);
        assertThat(IdentityProvider.OIDC.via()).isEqualTo(Via.OIDC);
    }

    @Test
    void signInErrorsAreTheTwoTablesOfTheSpecification() {
        // Spec 1 §7 "Forge login failure codes", in its order.
        assertThat(sentBy(IdentityProvider.FORGE)).containsExactlyInAnyOrder("state", "denied", "forge", "not_member",
                "no_2fa", "unknown_account", "disabled", "link_gone", "forge_taken", "already_linked",
                "rate_limited", "server");
        // Spec 2 §7, in its order.
        assertThat(sentBy(IdentityProvider.OIDC)).containsExactlyInAnyOrder("rate_limited", "state", "denied", "oidc",
                "provider_unavailable", "token", "no_email", "email_unverified", "domain_not_allowed",
                "unknown_account", "ambiguous_account", "disabled", "identity_mismatch", "oidc_taken",
                "already_linked", "link_gone", "server");
        assertThat(SignInError.providerFailed(IdentityProvider.FORGE)).isEqualTo(SignInError.FORGE);
        assertThat(SignInError.providerFailed(IdentityProvider.OIDC)).isEqualTo(SignInError.OIDC);
        assertThat(SignInError.taken(IdentityProvider.FORGE)).isEqualTo(SignInError.FORGE_TAKEN);
        assertThat(SignInError.taken(IdentityProvider.OIDC)).isEqualTo(SignInError.OIDC_TAKEN);
    }

    @Test
    void passwordFailuresHoldTheSpecificationsReason() {
        // Spec 1 §5 "Password login" 3 names password_disabled; the others are Klave's.
        assertThat(codes(PasswordFailure.values(), PasswordFailure::code)).containsExactly("password_disabled",
                "unknown_login", "no_password", "wrong_password", "wrong_password_locked", "locked", "disabled",
                "rate_limited");
    }

    @Test
    void statusesLevelsAndStates() {
        assertThat(codes(CredentialStatus.values(), CredentialStatus::code)).containsExactly("active", "revoked",
                "expired");
        assertThat(codes(ClusterStatus.values(), ClusterStatus::code)).containsExactly("pending", "ready", "error");
        // Spec 1 §4 DELETE /api/clusters/{id}: rbac_cleanup.status is ok, error or skipped.
        assertThat(codes(CleanupStatus.values(), CleanupStatus::code)).containsExactly("ok", "error", "skipped");
        assertThat(codes(NoticeLevel.values(), NoticeLevel::code)).containsExactly("warning", "info");
        assertThat(codes(CheckState.values(), CheckState::code)).containsExactly("ok", "failing", "off");
        assertThat(codes(NoticeCode.values(), NoticeCode::code)).containsExactly("oidc_discovery_failing",
                "oidc_linked_by_email", "forge_2fa_unreadable", "notify_destination_failing");
        assertThat(codes(CheckName.values(), CheckName::code)).containsExactly("database", "admin_can_sign_in",
                "oidc_discovery", "forge_sync", "oauth_clients");
        // Spec 3 §3 "Write request": the states of its table; an access request has all but executed.
        assertThat(codes(WriteStatus.values(), WriteStatus::code)).containsExactly("pending", "approved", "denied",
                "expired", "executed");
        // Issue 41: a person withdraws a request that waits.
        assertThat(codes(AccessStatus.values(), AccessStatus::code)).containsExactly("pending", "approved", "denied",
                "expired", "cancelled");
        assertThat(codes(Course.Origin.values(), Course.Origin::code)).containsExactly("agent", "person", "eligible");
        assertThat(codes(dev.klave.recording.RecordingPolicy.values(), dev.klave.recording.RecordingPolicy::code))
                .containsExactly("off", "on", "required");
        assertThat(codes(dev.klave.recording.Recording.State.values(), dev.klave.recording.Recording.State::code))
                .containsExactly("recording", "complete", "incomplete", "truncated");
    }

    @Test
    void parseReadsEveryValueBackAndRefusesAnythingElse() {
        for (EventType type : EventType.values()) {
            assertThat(EventType.parse(type.code())).isEqualTo(type);
        }
        for (Via via : Via.values()) {
            assertThat(Via.parse(via.code())).isEqualTo(via);
        }
        for (SignInError error : SignInError.values()) {
            assertThat(SignInError.parse(error.code())).isEqualTo(error);
        }
        for (PasswordFailure failure : PasswordFailure.values()) {
            assertThat(PasswordFailure.parse(failure.code())).isEqualTo(failure);
        }
        for (CredentialStatus status : CredentialStatus.values()) {
            assertThat(CredentialStatus.parse(status.code())).isEqualTo(status);
        }
        for (ClusterStatus status : ClusterStatus.values()) {
            assertThat(ClusterStatus.parse(status.code())).isEqualTo(status);
        }
        for (CleanupStatus status : CleanupStatus.values()) {
            assertThat(CleanupStatus.parse(status.code())).isEqualTo(status);
        }
        for (NoticeLevel level : NoticeLevel.values()) {
            assertThat(NoticeLevel.parse(level.code())).isEqualTo(level);
        }
        for (CheckState state : CheckState.values()) {
            assertThat(CheckState.parse(state.code())).isEqualTo(state);
        }
        for (NoticeCode code : NoticeCode.values()) {
            assertThat(NoticeCode.parse(code.code())).isEqualTo(code);
        }
        for (CheckName name : CheckName.values()) {
            assertThat(CheckName.parse(name.code())).isEqualTo(name);
        }
        for (WriteStatus status : WriteStatus.values()) {
            assertThat(WriteStatus.parse(status.code())).isEqualTo(status);
        }
        for (AccessStatus status : AccessStatus.values()) {
            assertThat(AccessStatus.parse(status.code())).isEqualTo(status);
        }
        List<Function<String, ?>> parsers = List.of(EventType::parse, Via::parse, SignInError::parse,
                PasswordFailure::parse, CredentialStatus::parse, ClusterStatus::parse, CleanupStatus::parse,
                NoticeLevel::parse, CheckState::parse, NoticeCode::parse, CheckName::parse, WriteStatus::parse,
                AccessStatus::parse);
        for (Function<String, ?> parse : parsers) {
            // Strict: no case folding, no constant names, no blanks.
            for (String other : List.of("", "LOGIN_SUCCESS", "Login.Success", "OK", "ok ", "unknown")) {
                assertThatThrownBy(() -> parse.apply(other)).isInstanceOf(IllegalArgumentException.class);
            }
            assertThatThrownBy(() -> parse.apply(null)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static List<String> sentBy(IdentityProvider provider) {
        return Arrays.stream(SignInError.values()).filter(error -> error.providers().contains(provider))
                .map(SignInError::code).toList();
    }

    private static <T> List<String> codes(T[] values, Function<T, String> code) {
        return Arrays.stream(values).map(code).toList();
    }
}
