package dev.klave.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The answer's framing read strictly (RFC 9112 §6–7), and every limit counted while reading. */
class ResponseReaderTest {
    private static final int LIMIT = 16;

    private static Answer read(String answer) throws IOException {
        return ResponseReader.read(new ByteArrayInputStream(answer.getBytes(StandardCharsets.ISO_8859_1)), LIMIT);
    }

    private static OutboundFailure.Kind failure(String answer) {
        try {
            read(answer);
        } catch (OutboundFailure failure) {
            return failure.kind();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("read: " + answer);
    }

    @Test
    void aBodyIsFramedByItsLengthByChunksOrByTheEndOfTheConnection() throws IOException {
        assertThat(read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello and more").text()).isEqualTo("hello");
        assertThat(read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n").text())
                .isEqualTo("hello");
        assertThat(read("HTTP/1.1 200 OK\r\nContent-Type: a/b\r\n\r\nhello").text()).isEqualTo("hello");
        Answer answer = read("HTTP/1.1 200 OK\r\ncontent-type:  application/json \r\n\r\n{}");
        assertThat(answer.headers().firstValue("Content-Type")).contains("application/json");
    }

    @Test
    void anAnswerOtherThan2xxComesBackWithoutItsBodyBeingRead() throws IOException {
        InputStream endless = new InputStream() {
            private final byte[] head = "HTTP/1.1 302 Found\r\nLocation: https://elsewhere/\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII);
            private int at;

            @Override
            public int read() {
                return at < head.length ? head[at++] : 'x';
            }
        };

        Answer answer = ResponseReader.read(endless, LIMIT);

        assertThat(answer.status()).isEqualTo(302);
        assertThat(answer.body()).isEmpty();
        assertThat(answer.headers().firstValue("Location")).contains("https://elsewhere/");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/1.1 200 OK\r\nContent-Length: 17\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n11\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n9\r\n123456789\r\n0\r\n\r\n",
        "HTTP/1.1 200 OK\r\n\r\n12345678901234567"
    })
    void aBodyOverTheLimitIsRefusedAsSoonAsItIsKnown(String answer) {
        assertThat(failure(answer)).isEqualTo(OutboundFailure.Kind.TOO_LARGE);
    }

    @Test
    void anEndlessHeadIsRefusedAtItsLimit() {
        InputStream endless = new InputStream() {
            private final byte[] start = "HTTP/1.1 200 OK\r\nX: ".getBytes(StandardCharsets.US_ASCII);
            private int at;

            @Override
            public int read() {
                return at < start.length ? start[at++] : 'a';
            }
        };

        assertThatThrownBy(() -> ResponseReader.read(endless, LIMIT)).isInstanceOfSatisfying(OutboundFailure.class,
                failure -> assertThat(failure.kind()).isEqualTo(OutboundFailure.Kind.TOO_LARGE));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", // both framings
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", // another coding
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", // two lengths
        "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nabc",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabc", // cut short
        "HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 0\r\n\r\n", // obs-fold
        "HTTP/1.1 200 OK\nContent-Length: 0\n\n", // bare LF
        "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", // chunk longer than declared
        "HTTP/2 200\r\n\r\n",
        "ICY 200 OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX: \u0001\r\n\r\n",
        ""
    })
    void framingThatCouldBeReadTwoWaysIsRefused(String answer) {
        assertThat(failure(answer)).isEqualTo(OutboundFailure.Kind.FAILED);
    }
}
