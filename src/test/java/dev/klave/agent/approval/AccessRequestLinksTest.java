package dev.klave.agent.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.access.Scope;
import dev.klave.access.Tier;
import dev.klave.account.SubjectId;
import dev.klave.cluster.ClusterId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An audit row's link to the access request its access came from: asked with the row's subject,
 * cluster and time, typed; a row whose subject or cluster is no valid id links to none and asks
 * nothing.
 */
class AccessRequestLinksTest {
    private static final Instant AT = Instant.parse("2025-03-01T10:00:00Z");
    private static final SubjectId EVA = new SubjectId("5b0c1a52-3c1e-4a47-9d59-8a51f6a3c2d1");
    private static final ClusterId PROD = new ClusterId("prod-1");

    /** The requests' answer, recording each question. */
    private record Asked(SubjectId subject, ClusterId cluster, Instant at) {}

    private final List<Asked> asked = new ArrayList<>();

    private AccessRequestLinks answering(Optional<AccessRequest> answer) {
        return new AccessRequestLinks((subject, cluster, at) -> {
            asked.add(new Asked(subject, cluster, at));
            return answer;
        });
    }

    private static AccessRequest request(String id) {
        return new AccessRequest(id, new Actor(EVA, Optional.empty(), Optional.empty()), Optional.empty(), PROD,
                Scope.ALL, Tier.EDIT, 60, "incidente 42", AccessStatus.PENDING, AT.minusSeconds(600),
                AT.plus(Duration.ofHours(24)), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Course.person(1));
    }

    @Test
    void aRowIsLinkedToTheRequestThatCoveredItsSubjectOnItsClusterThen() {
        AccessRequestLinks links = answering(Optional.of(request("ar_covering")));

        assertThat(links.at(EVA.value(), PROD.value(), AT)).contains("ar_covering");
        assertThat(asked).containsExactly(new Asked(EVA, PROD, AT));
    }

    @Test
    void aRowNoRequestCoveredLinksToNone() {
        assertThat(answering(Optional.empty()).at(EVA.value(), PROD.value(), AT)).isEmpty();
        assertThat(asked).hasSize(1);
    }

    @Test
    void aRowWhoseSubjectOrClusterIsNoValidIdLinksToNoneWithoutAsking() {
        AccessRequestLinks links = answering(Optional.of(request("ar_never")));

        assertThat(links.at("root", PROD.value(), AT)).as("a login, not an id").isEmpty();
        assertThat(links.at("", PROD.value(), AT)).isEmpty();
        assertThat(links.at(EVA.value(), "Prod_1", AT)).as("no DNS label").isEmpty();
        assertThat(links.at(EVA.value(), "", AT)).isEmpty();
        assertThat(asked).isEmpty();
    }
}
