package dev.klave.messages;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a value from outside looks like once escaped for a log line or an event. */
class UntrustedTest {
    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', value = {
        "ana|ana|plain text is unchanged",
        "añá — ü|añá — ü|letters beyond ASCII are kept",
        "a\\nb|a\\\\nb|a backslash is doubled, so escapes stay unambiguous",
    })
    void textIsKeptReadable(String value, String expected, String why) {
        assertThat(Untrusted.text(value)).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void everyControlCharacterBecomesAnEscape() {
        assertThat(Untrusted.text("evil\n2026-11-27T00:00:00Z INFO forged\r\u001b[31mred\u0000\u007f\u0085\u2028\u202e"))
                .isEqualTo("evil\\n2026-11-27T00:00:00Z INFO forged\\r\\u001b[31mred\\u0000\\u007f\\u0085\\u2028"
                        + "\\u202e");
        assertThat(Untrusted.text("tab\there")).isEqualTo("tab\\there");
    }

    @org.junit.jupiter.api.Test
    void aLongValueIsCutAndSaysHowMuchWasLeftOut() {
        assertThat(Untrusted.text("x".repeat(250))).isEqualTo("x".repeat(200) + "…(+50)");
        assertThat(Untrusted.text("abcdef", 3)).isEqualTo("abc…(+3)");
        // A surrogate pair is never split in two.
        assertThat(Untrusted.text("ab\uD83D\uDE00c", 3)).isEqualTo("ab…(+3)");
    }

    @org.junit.jupiter.api.Test
    void theLogLayoutsPassEscapesControlsButNeitherCutsNorTouchesBackslashes() {
        String escaped = Untrusted.text("a\nb");

        assertThat(Untrusted.controls(escaped)).isEqualTo(escaped);
        assertThat(Untrusted.controls("line\nnext\u001b" + "y".repeat(500))).isEqualTo("line\\nnext\\u001b" + "y".repeat(500));
        assertThat(Untrusted.text(null)).isEqualTo("null");
    }

    @org.junit.jupiter.api.Test
    void aFailureWithoutAMessageIsNamedByItsKindAndAMessageIsEscaped() {
        assertThat(Untrusted.failure(new java.net.ConnectException())).isEqualTo("ConnectException");
        assertThat(Untrusted.failure(new java.io.IOException(null, new java.net.ConnectException())))
                .isEqualTo("IOException (ConnectException)");
        assertThat(Untrusted.failure(new java.io.IOException("reset\nby peer"))).isEqualTo("IOException: reset\\nby peer");
        assertThat(Untrusted.failure(new java.io.IOException(null, new java.net.ConnectException("refused"))))
                .as("the first message found on the way down").isEqualTo("IOException: refused");
    }
}
