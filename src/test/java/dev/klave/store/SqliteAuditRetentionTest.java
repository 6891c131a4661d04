package dev.klave.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.klave.testing.TestingDatabase;
import org.junit.jupiter.api.Test;

class SqliteAuditRetentionTest extends AuditRetentionConformance {
    @Override
    protected TestingDatabase openDatabase() {
        return TestingDatabase.sqlite();
    }

    private long pages() {
        return database().withHandle(handle -> handle.createQuery("PRAGMA page_count").mapTo(Long.class).one());
    }

    /** The pages a pass frees hold the rows written next: the file stops growing at the retention's size. */
    @Test
    void theFileIsReusedRatherThanGrowing() throws Exception {
        olderRowsGoWithTheirCompletionsInBatchesAndNewerOnesStay();
        long before = pages();

        olderRowsGoWithTheirCompletionsInBatchesAndNewerOnesStay();

        assertThat(pages()).isLessThanOrEqualTo(before + before / 20);
    }
}
