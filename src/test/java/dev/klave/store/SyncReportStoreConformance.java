package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.login.forge.SyncReport;
import dev.klave.login.forge.SyncReportStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SyncReportStore} must do, whatever the database behind it. The store holds one
 * report, so each test starts with none.
 */
abstract class SyncReportStoreConformance extends StoreConformance {
    private static final Instant STARTED = Instant.parse("2026-11-25T10:00:00.123Z");

    private SyncReportStore store;

    @Override
    protected void setUp(Database database) {
        store = new JdbiSyncReportStore(database);
    }

    @BeforeEach
    void noPassYet() {
        database().write(handle -> handle.execute("DELETE FROM forge_sync_reports"));
    }

    private static SyncReport report(String replica, int seen, Optional<Boolean> twoFactor, Optional<String> error) {
        return new SyncReport(STARTED, STARTED.plusMillis(1500), replica, seen, 2, 1, twoFactor, error);
    }

    @Test
    void beforeAnyPassThereIsNoReport() {
        assertThat(store.last()).isEmpty();
    }

    @Test
    void aSavedReportReadsBackWhole() {
        SyncReport report = report("replica-a", 40, Optional.of(true), Optional.empty());

        store.save(report);

        assertThat(store.last()).contains(report);
    }

    @Test
    void theTwoFactorSettingReadsBackAsSavedTrueFalseOrUnknown() {
        for (Optional<Boolean> setting : List.of(Optional.of(true), Optional.of(false), Optional.<Boolean>empty())) {
            SyncReport report = report("replica-a", 1, setting, Optional.empty());
            store.save(report);
            assertThat(store.last()).as("two-factor %s", setting).contains(report);
        }
    }

    @Test
    void anAbortedPassKeepsItsErrorAndTheNextPassReplacesTheWholeReport() {
        SyncReport aborted = new SyncReport(STARTED, STARTED.plusSeconds(5), "replica-a", 0, 0, 0, Optional.empty(),
                Optional.of("la App no puede leer la organización: ñ"));
        store.save(aborted);
        assertThat(store.last()).contains(aborted);

        SyncReport next = new SyncReport(STARTED.plusSeconds(3600), STARTED.plusSeconds(3602), "replica-b", 12, 0, 3,
                Optional.of(false), Optional.empty());
        store.save(next);

        assertThat(store.last()).as("one report: the last pass, whichever replica ran it").contains(next);
        int rows = database().withHandle(handle -> handle.select("SELECT COUNT(*) FROM forge_sync_reports")
                .mapTo(Integer.class).one());
        assertThat(rows).isEqualTo(1);
    }
}
