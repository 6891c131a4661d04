package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hand-over from the relay's thread to the recorder's: pieces read in the order relayed, the
 * end after every piece before it, and past its bound the recording stopped as behind, what waits
 * never above the bound.
 */
class MailboxTest {
    private final List<String> chunks = Collections.synchronizedList(new ArrayList<>());
    private final List<String> stopped = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService recorders = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() throws InterruptedException {
        recorders.shutdown();
        recorders.awaitTermination(5, TimeUnit.SECONDS);
    }

    private Recorder recorder() {
        return new Recorder("audit-1", Stdin.NOT_RECORDED, Recordings.CAP, System::nanoTime, new Recorder.Writer() {
            @Override
            public Optional<String> chunk(String id, int seq, String lines, List<LineIndex.Line> printed) {
                chunks.add(lines);
                return Optional.empty();
            }

            @Override
            public void end(String id, Recording.State state, Optional<String> reason, Optional<Integer> exitCode,
                    Terminal.Size size, List<LineIndex.Line> printed) {}

            @Override
            public void stopped(String id, Recording.State state) {
                stopped.add(state.code());
            }
        });
    }

    private static byte[] stdout(String text) {
        byte[] data = text.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[data.length + 1];
        payload[0] = 1;
        System.arraycopy(data, 0, payload, 1, data.length);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        WebSocketFramesProperties.writeFrame(wire, true, 2, payload, false, new Random(7));
        return wire.toByteArray();
    }

    @Test
    void piecesAreReadInTheOrderRelayedAndTheEndComesAfterThem() throws Exception {
        Mailbox mailbox = new Mailbox(recorder(), recorders, new AtomicLong(), Long.MAX_VALUE);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            mailbox.post(false, stdout(i + ","));
            expected.append(i).append(',');
        }

        Optional<String> unrecorded = mailbox.end(Optional.empty()).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(unrecorded).as("whole").isEmpty();
        StringBuilder output = new StringBuilder();
        for (String chunk : chunks) {
            for (String line : chunk.split("\n")) {
                output.append(Cast.JSON.readTree(line).get(2).asText());
            }
        }
        assertThat(output.toString()).isEqualTo(expected.toString());
    }

    @Test
    void pastItsBoundTheRecordingStopsAsBehindAndWhatWaitsStaysBounded() throws Exception {
        AtomicLong shared = new AtomicLong();
        // A recorder thread held busy until the posts are done: everything posted waits.
        ExecutorService stuck = Executors.newSingleThreadExecutor();
        java.util.concurrent.CountDownLatch posted = new java.util.concurrent.CountDownLatch(1);
        stuck.execute(() -> {
            try {
                posted.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Mailbox mailbox = new Mailbox(recorder(), stuck, shared, 1024 * 1024);
        byte[] piece = stdout("x".repeat(64 * 1024));

        for (int i = 0; i < 100; i++) {
            mailbox.post(false, piece);
        }

        assertThat(shared.get()).as("what waits stays within the bound").isLessThanOrEqualTo(1024 * 1024);
        assertThat(mailbox.wanted()).as("the relay stops copying for it").isFalse();
        posted.countDown();
        Optional<String> unrecorded = mailbox.end(Optional.empty()).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(unrecorded).hasValueSatisfying(why -> assertThat(why).contains("atrás"));
        assertThat(stopped).containsExactly("incomplete");
        assertThat(shared.get()).as("released once read").isZero();
        stuck.shutdown();
    }
}
