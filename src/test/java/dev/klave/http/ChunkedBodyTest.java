package dev.klave.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** RFC 9112 §7.1 chunk lines, read the way {@link ChunkedBody} reads them. */
class ChunkedBodyTest {
    private static int scanAll(ChunkedBody body, String bytes) {
        ByteBuf buffer = Unpooled.copiedBuffer(bytes, StandardCharsets.ISO_8859_1);
        return body.scan(buffer, 0, buffer.writerIndex());
    }

    @ParameterizedTest
    @ValueSource(strings = {"5\r\nhello\r\n0\r\n\r\n", "05\r\nhello\r\n000\r\n\r\n", "a\r\n0123456789\r\n0\r\n\r\n",
        "5;name\r\nhello\r\n0\r\n\r\n", "5 ; name = value\r\nhello\r\n0\r\n\r\n", "5;n=\"q \\\" d\"\r\nhello\r\n0\r\n\r\n",
        "5\r\nhello\r\n0\r\nX-Sum: abc\r\nOther:\r\n\r\n", "0\r\n\r\n", "7fffffff\r\n"})
    void linesOfTheGrammarAreRead(String body) {
        ChunkedBody chunked = new ChunkedBody();
        assertThat(scanAll(chunked, body)).isEqualTo(body.length());
    }

    @ParameterizedTest
    @ValueSource(strings = {"100000005\r\n", "ffffffffffffffff5\r\n", " 5\r\n", "5 \r\n", "5 junk\r\n", "5\0\r\n", "5\tx\r\n",
        "0x5\r\n", "+5\r\n", "-5\r\n", "\r\n", "5\n", "5\r\r\n", "5;\r\n", "5;=v\r\n", "5;n=\r\n", "5;n=\"open\r\n",
        "5;n=\"\u0001\"\r\n", "5\r\nhelloXY", "5\r\nhello\r\n0\r\n folded: x\r\n", "5\r\nhello\r\n0\r\nno colon\r\n",
        "5\r\nhello\r\n0\r\nX: a\u0000b\r\n", "\uff15\r\n", "80000000\r\n"})
    void linesOutsideTheGrammarAreRefused(String body) {
        assertThatThrownBy(() -> scanAll(new ChunkedBody(), body)).isInstanceOf(ChunkedBody.MalformedChunk.class);
    }

    @Test
    void aBodyReadInPiecesEndsWhereItsTrailerSectionEnds() {
        ChunkedBody chunked = new ChunkedBody();
        String body = "5\r\nhello\r\n0\r\n\r\n";
        for (char c : body.toCharArray()) {
            assertThat(chunked.done()).isFalse();
            assertThat(scanAll(chunked, String.valueOf(c))).isEqualTo(1);
        }
        assertThat(chunked.done()).isTrue();
        assertThat(scanAll(chunked, "GET / HTTP/1.1\r\n")).isZero();
    }

    @Test
    void theNextRequestIsNotRead() {
        ChunkedBody chunked = new ChunkedBody();
        String body = "2\r\n{}\r\n0\r\n\r\n";

        assertThat(scanAll(chunked, body + "GET / HTTP/1.1\r\n\r\n")).isEqualTo(body.length());
        assertThat(chunked.done()).isTrue();
    }

    @Test
    void aLongChunkLineIsRefused() {
        assertThatThrownBy(() -> scanAll(new ChunkedBody(), "5;" + "n".repeat(ChunkedBody.MAX_LINE) + "\r\n"))
                .isInstanceOf(ChunkedBody.MalformedChunk.class);
    }
}
