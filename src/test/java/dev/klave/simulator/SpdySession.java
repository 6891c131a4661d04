package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The server end of a SPDY/3.1 connection as kubelet runs it for exec and port-forward: the client
 * opens every stream (SYN_STREAM with a {@code streamtype} header), the server replies to each at
 * once and then reads and writes DATA frames. One virtual thread reads frames; stream input is a
 * bounded pipe, so a command that does not read stdin slows its client down.
 */
final class SpdySession implements AutoCloseable {
    private static final int CHUNK = 32 * 1024;

    private final SpdyFrameCodec codec;
    private final AutoCloseable connection;
    private final Map<Integer, Stream> streams = new ConcurrentHashMap<>();
    private final BlockingQueue<Optional<Stream>> accepted = new LinkedBlockingQueue<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile int lastStreamId;

    /** One client-opened stream: its headers, its inbound data, and a way to answer on it. */
    final class Stream {
        private final int id;
        private final Map<String, List<String>> headers;
        private final StreamPipe input = new StreamPipe();
        private volatile boolean finished;

        private Stream(int id, Map<String, List<String>> headers) {
            this.id = id;
            this.headers = headers;
        }

        int id() {
            return id;
        }

        String header(String name) {
            List<String> values = headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
            return values.isEmpty() ? "" : values.getFirst();
        }

        InputStream input() {
            return input;
        }

        OutputStream output() {
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] buffer, int offset, int length) throws IOException {
                    for (int start = offset; start < offset + length; start += CHUNK) {
                        int end = Math.min(offset + length, start + CHUNK);
                        send(Arrays.copyOfRange(buffer, start, end), false);
                    }
                }
            };
        }

        /** Half-closes the stream from the server side (DATA with FLAG_FIN). */
        void finish() throws IOException {
            if (!finished) {
                finished = true;
                send(new byte[0], true);
            }
        }

        private void send(byte[] data, boolean fin) throws IOException {
            if (finished && !fin) {
                throw new IOException("stream " + id + " is closed");
            }
            codec.write(new SpdyFrame.Data(id, fin ? SpdyFrame.FLAG_FIN : 0, data));
        }
    }

    SpdySession(InputStream in, OutputStream out, AutoCloseable connection) {
        this.codec = new SpdyFrameCodec(in, out);
        this.connection = requireNonNull(connection, "connection is null");
        Thread.ofVirtual().name("simulator-spdy-read").start(this::readFrames);
    }

    /** The next stream the client opened, or empty when the connection ended or the wait timed out. */
    Optional<Stream> nextStream(long timeoutMillis) throws InterruptedException {
        Optional<Stream> stream = accepted.poll(timeoutMillis, TimeUnit.MILLISECONDS);
        if (stream != null && stream.isEmpty()) {
            accepted.offer(Optional.empty());
        }
        return stream == null ? Optional.empty() : stream;
    }

    /** Says goodbye (GOAWAY) and closes the connection. */
    @Override
    public void close() {
        try {
            codec.write(new SpdyFrame.GoAway(lastStreamId, 0));
        } catch (IOException alreadyClosed) {
            // nothing more to say to a client that left
        }
        try {
            connection.close();
        } catch (Exception ignored) {
            // best effort
        }
    }

    private void readFrames() {
        try {
            for (Optional<SpdyFrame> frame = codec.read(); frame.isPresent(); frame = codec.read()) {
                if (!handle(frame.get())) {
                    break;
                }
            }
        } catch (IOException | RuntimeException ended) {
            // a closed or broken connection ends every stream below
        }
        streams.values().forEach(stream -> stream.input.finish());
        accepted.offer(Optional.empty());
        ended.countDown();
    }

    /** Waits a little for the client to close first, so none of its last writes hit a closed socket. */
    void awaitClientClose(long timeoutMillis) throws InterruptedException {
        ended.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private boolean handle(SpdyFrame frame) throws IOException {
        switch (frame) {
            case SpdyFrame.SynStream syn -> {
                Stream stream = new Stream(syn.streamId(), syn.headers());
                streams.put(syn.streamId(), stream);
                lastStreamId = syn.streamId();
                codec.write(new SpdyFrame.SynReply(syn.streamId(), 0, Map.of()));
                if ((syn.flags() & SpdyFrame.FLAG_FIN) != 0) {
                    stream.input.finish();
                }
                accepted.offer(Optional.of(stream));
            }
            case SpdyFrame.Data data -> {
                Stream stream = streams.get(data.streamId());
                if (stream != null) {
                    stream.input.write(data.data());
                    if (data.fin()) {
                        stream.input.finish();
                    }
                }
            }
            case SpdyFrame.RstStream reset -> {
                Stream stream = streams.remove(reset.streamId());
                if (stream != null) {
                    stream.finished = true;
                    stream.input.finish();
                }
            }
            case SpdyFrame.Ping ping -> codec.write(ping);
            case SpdyFrame.GoAway goAway -> {
                return false;
            }
            default -> {
                // SETTINGS, WINDOW_UPDATE and HEADERS change nothing here: spdystream does not
                // enforce flow control, and stream headers are only read from SYN_STREAM.
            }
        }
        return true;
    }
}
