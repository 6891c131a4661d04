package dev.klave.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

/** A refused upgrade is relayed with its whole body, however the cluster's bytes were split. */
class UpgradeAnswersTest {
    private static final String STATUS = "{\"kind\":\"Status\",\"code\":403}";

    private static MultiMap headers(String name, String value) {
        return MultiMap.caseInsensitiveMultiMap().add(name, value);
    }

    @Test
    void aBodyWithContentLengthIsWholeOnceAllItsBytesHaveCome() {
        MultiMap headers = headers("Content-Length", String.valueOf(STATUS.length()));

        assertThat(UpgradeAnswers.whole(headers, Buffer.buffer(STATUS.substring(0, 10)), false)).isEmpty();
        assertThat(UpgradeAnswers.whole(headers, Buffer.buffer(STATUS), false)).map(Buffer::toString).contains(STATUS);
    }

    @Test
    void aChunkedBodyIsWholeAtItsLastChunkAndLosesItsFraming() {
        MultiMap headers = headers("Transfer-Encoding", "chunked");
        String chunked = "a\r\n" + STATUS.substring(0, 10) + "\r\n" + Integer.toHexString(STATUS.length() - 10)
                + ";ext=1\r\n" + STATUS.substring(10) + "\r\n0\r\n\r\n";

        assertThat(UpgradeAnswers.whole(headers, Buffer.buffer(chunked.substring(0, 20)), false)).isEmpty();
        assertThat(UpgradeAnswers.whole(headers, Buffer.buffer(chunked), false)).map(Buffer::toString).contains(STATUS);
    }

    @Test
    void aBodyWithNeitherEndsWhenTheClusterCloses() {
        MultiMap none = MultiMap.caseInsensitiveMultiMap();

        assertThat(UpgradeAnswers.whole(none, Buffer.buffer(STATUS), false)).isEmpty();
        assertThat(UpgradeAnswers.whole(none, Buffer.buffer(STATUS), true)).map(Buffer::toString).contains(STATUS);
    }
}
