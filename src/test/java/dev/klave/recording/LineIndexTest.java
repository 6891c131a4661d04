package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The lines a session printed, for search: joined across events, escapes dropped, each with its moment. */
class LineIndexTest {
    @Test
    void linesAreJoinedAcrossEventsCleanedAndTimedByTheirFirstPiece() {
        LineIndex index = new LineIndex();
        List<LineIndex.Line> first = index.feed(0.5, "$ ls\r\n");
        List<LineIndex.Line> none = index.feed(1.25, "\u001B[1;34mbin\u001B[0m  et");
        List<LineIndex.Line> second = index.feed(3.0, "c\r\nPermission denied");
        List<LineIndex.Line> third = index.feed(3.5, "\u0007\r\n");
        List<LineIndex.Line> last = index.feed(9.0, "exit");

        assertThat(first).containsExactly(new LineIndex.Line(0.5, "$ ls"));
        assertThat(none).isEmpty();
        assertThat(second).containsExactly(new LineIndex.Line(1.25, "bin  etc"));
        assertThat(third).containsExactly(new LineIndex.Line(3.0, "Permission denied"));
        assertThat(last).isEmpty();
        assertThat(index.end()).containsExactly(new LineIndex.Line(9.0, "exit"));
        assertThat(index.end()).isEmpty();
    }

    @Test
    void aVeryLongLineIsCut() {
        LineIndex index = new LineIndex();
        List<LineIndex.Line> lines = index.feed(0, "x".repeat(5000) + "\n");
        assertThat(lines.get(0).text()).hasSize(LineIndex.MAX_LINE);
    }

    @Test
    void aLoneCarriageReturnEndsALineAndBlankLinesAreNotKept() {
        LineIndex index = new LineIndex();
        assertThat(index.feed(1.0, "uno\rdos\n\n   \n\ttres\n")).extracting(LineIndex.Line::text)
                .containsExactly("uno", "dos", "tres");
    }
}
