package dev.klave.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.access.Grant;
import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.Login;
import dev.klave.account.Subject;
import dev.klave.account.SubjectId;
import dev.klave.account.SubjectKind;
import dev.klave.cluster.ClusterId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Desired RBAC from grants (spec 1 §1.3): user names, uids, {@code service:<tier>:<scope>} groups, bindings. */
class DesiredRbacTest {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private static Subject person(String login) {
        return Subject.newPerson(new Login(login), login, Optional.empty(), false, false, NOW);
    }

    private static Grant grant(Subject subject, Tier tier, String scope) {
        return new Grant(UUID.randomUUID().toString(), subject.id(), new ClusterId("prod-1"), tier, new Scope(scope),
                Optional.empty(), "", NOW, Optional.empty(), Optional.empty(), Optional.empty());
    }

    @Test
    void peopleAndBotsBecomeImpersonatedUsersWithTheirGroupsAndBindings() {
        Subject ana = person("ana");
        Subject bot = new Subject(SubjectId.random(), new Login("deployer"), SubjectKind.BOT, "CI", Optional.empty(),
                false, false, Optional.empty(), Optional.empty(), NOW, false);
        List<Grant> grants = List.of(grant(ana, Tier.EDIT, "team-a"), grant(ana, Tier.VIEW, "*"),
                grant(bot, Tier.EDIT, "team-a"));

        DesiredRbac desired = DesiredRbac.of(grants, Map.of(ana.id().value(), ana, bot.id().value(), bot));

        assertThat(desired.users()).containsExactly("bot:deployer", "user:ana");
        assertThat(desired.uids()).containsExactlyInAnyOrder(ana.id().value(), bot.id().value());
        assertThat(desired.groups()).containsExactly("service:edit:team-a", "service:view:*");
        assertThat(desired.bindings()).extracting(binding -> binding.name() + "@" + binding.scope())
                .containsExactly("klave-view@*", "klave-edit@team-a");
    }

    @Test
    void disabledSubjectsCountForNothing() {
        Subject eva = person("eva").withDisabledAt(Optional.of(NOW));

        DesiredRbac desired = DesiredRbac.of(List.of(grant(eva, Tier.ADMIN, "team-b")), Map.of(eva.id().value(), eva));

        assertThat(desired.users()).isEmpty();
        assertThat(desired.bindings()).isEmpty();
        assertThat(RbacObjects.impersonationRules(desired)).isEmpty();
    }
}
