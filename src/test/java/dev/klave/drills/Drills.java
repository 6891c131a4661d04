package dev.klave.drills;

import dev.klave.simulator.ClusterSimulator;
import dev.klave.testing.TestingAccess;
import dev.klave.testing.TestingKlave;

/** What every drill needs first: a cluster, a person with a view grant on it, her credential. */
final class Drills {
    private Drills() {}

    /** The administrator's session cookie and ana's {@code klt_} token. */
    record People(String admin, String token) {}

    static People prepare(TestingKlave klave, ClusterSimulator cluster) {
        TestingAccess.Viewer viewer = TestingAccess.viewer(klave, cluster);
        return new People(viewer.admin(), viewer.token());
    }
}
