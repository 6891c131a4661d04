package dev.klave.recording;

import com.fasterxml.jackson.databind.JsonNode;
import dev.klave.messages.Text;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * One session's recording, fed both directions of the relayed bytes: the cluster's (stdout,
 * stderr, the error channel with the exit status) and the client's (resizes; stdin only when
 * asked). kubectl's streaming protocol over WebSocket ({@code v4}/{@code v5.channel.k8s.io}): each
 * binary message starts with its channel — 0 stdin, 1 stdout, 2 stderr, 3 error, 4 resize, 255
 * close (v5). Output is decoded as UTF-8 per channel, a character split between two messages kept
 * for the next. Lines go to the writer in chunks; the relay never waits for them.
 */
final class Recorder {
    /** Lines are handed to the writer once this many characters wait. */
    static final int CHUNK = 16 * 1024;

    private final String id;
    private final Stdin stdin;
    private final long cap;
    private final LongSupplier nanos;
    private final long start;
    private final Writer writer;
    private final WebSocketFrames fromCluster;
    private final WebSocketFrames fromClient;
    private final Utf8Stream stdout = new Utf8Stream();
    private final Utf8Stream stderr = new Utf8Stream();
    private final Utf8Stream input = new Utf8Stream();
    private StringBuilder lines = new StringBuilder();
    private final LineIndex index = new LineIndex();
    private List<LineIndex.Line> printed = new ArrayList<>();
    private long recorded;
    private int seq;
    private Terminal.Size size = Terminal.Size.DEFAULT;
    /** When the last event happened, in seconds from the start. */
    private double seconds;
    private Optional<Integer> exitCode = Optional.empty();
    /** Written under the lock; volatile so that {@link #recording()} reads it without. */
    private volatile Recording.State state = Recording.State.RECORDING;
    private Optional<String> reason = Optional.empty();

    /** Where chunks and the end go, off the relay's thread. */
    interface Writer {
        /**
         * A chunk of asciicast lines, with the output lines it completed (for search).
         * @return why it was not taken (the writer too far behind, the quota or the person's share
         *     reached), or empty when it was
         */
        Optional<String> chunk(String id, int seq, String lines, List<LineIndex.Line> printed);

        /** The end, with the output's last line if it was unfinished. */
        void end(String id, Recording.State state, Optional<String> reason, Optional<Integer> exitCode,
                Terminal.Size size, List<LineIndex.Line> printed);

        /** The recording stopped before the session (unreadable, behind, at its cap). */
        default void stopped(String id, Recording.State state) {}
    }

    Recorder(String id, Stdin stdin, long cap, LongSupplier nanos, Writer writer) {
        this(id, StreamProtocol.WEBSOCKET, SpdyReader.NONE, stdin, cap, nanos, writer);
    }

    /** A SPDY/3.1 session (kubectl's fallback), read by {@code spdy}. */
    Recorder(String id, SpdyReader.Factory spdy, Stdin stdin, long cap, LongSupplier nanos, Writer writer) {
        this(id, StreamProtocol.SPDY, spdy, stdin, cap, nanos, writer);
    }

    /**
     * @param protocol what the server chose in its 101 answer (issue 51: only a protocol the
     *     recorder reads is ever recorded)
     * @param spdy how to read SPDY/3.1, for {@link StreamProtocol#SPDY}
     */
    Recorder(String id, StreamProtocol protocol, SpdyReader.Factory spdy, Stdin stdin, long cap, LongSupplier nanos,
            Writer writer) {
        this.id = id;
        this.base64 = protocol == StreamProtocol.WEBSOCKET_BASE64;
        boolean overSpdy = protocol == StreamProtocol.SPDY;
        this.stdin = java.util.Objects.requireNonNull(stdin, "stdin is null");
        this.cap = cap;
        this.nanos = nanos;
        this.start = nanos.getAsLong();
        this.writer = writer;
        this.fromCluster = overSpdy ? null : new WebSocketFrames(this::clusterMessage);
        this.fromClient = overSpdy ? null : new WebSocketFrames(this::clientMessage);
        this.spdyCluster = overSpdy ? spdy.reader(new SpdyEvents(false)) : null;
        this.spdyClient = overSpdy ? spdy.reader(new SpdyEvents(true)) : null;
    }

    /** WebSocket: the base64 channel protocols' text messages instead of binary ones. */
    private final boolean base64;
    /** A message the protocol does not allow (a text message on a binary protocol, bad base64). */
    private boolean misread;

    private final SpdyReader spdyCluster;
    private final SpdyReader spdyClient;
    /** SPDY: each stream's type, from the client's SYN_STREAM headers. */
    private final java.util.Map<Integer, String> streams = new java.util.HashMap<>();
    /** SPDY: what a stream sent so far, for the error (a Status) and resize (JSON lines) streams. */
    private final java.util.Map<Integer, java.io.ByteArrayOutputStream> pieces = new java.util.HashMap<>();

    /** A SPDY direction's streams, as the recorder reads them. */
    private final class SpdyEvents implements SpdyReader.Events {
        private final boolean client;

        SpdyEvents(boolean client) {
            this.client = client;
        }

        @Override
        public void opened(int stream, String type) {
            streams.put(stream, type);
        }

        @Override
        public void data(int stream, byte[] bytes, boolean last) {
            String type = streams.getOrDefault(stream, "");
            if (!client && type.equals("stdout")) {
                output(stdout.decode(bytes, 0));
            } else if (!client && type.equals("stderr")) {
                output(stderr.decode(bytes, 0));
            } else if (!client && type.equals("error")) {
                java.io.ByteArrayOutputStream held = pieces.computeIfAbsent(stream,
                        ignored -> new java.io.ByteArrayOutputStream());
                held.writeBytes(bytes);
                if (last) {
                    exit(held.toByteArray(), 0);
                }
            } else if (client && type.equals("resize")) {
                java.io.ByteArrayOutputStream held = pieces.computeIfAbsent(stream,
                        ignored -> new java.io.ByteArrayOutputStream());
                held.writeBytes(bytes);
                // kubectl writes one JSON object per line on the resize stream.
                String text = held.toString(StandardCharsets.UTF_8);
                int end = text.lastIndexOf('\n');
                if (end >= 0) {
                    for (String line : text.substring(0, end).split("\n")) {
                        resize(line.getBytes(StandardCharsets.UTF_8), 0);
                    }
                    held.reset();
                    held.writeBytes(text.substring(end + 1).getBytes(StandardCharsets.UTF_8));
                }
            } else if (client && type.equals("stdin") && stdin.recorded()) {
                add("i", input.decode(bytes, 0));
            }
        }
    }

    String id() {
        return id;
    }

    /** Whether relayed bytes still go into the recording: once stopped (cap, unreadable, behind), none do. */
    boolean recording() {
        return state == Recording.State.RECORDING;
    }

    synchronized void fromCluster(byte[] bytes) {
        if (state != Recording.State.RECORDING) {
            return;
        }
        if (spdyCluster != null) {
            spdyCluster.feed(bytes);
            check(spdyCluster.failed());
        } else {
            fromCluster.feed(bytes);
            check(fromCluster.failed() || misread);
        }
    }

    synchronized void fromClient(byte[] bytes) {
        if (state != Recording.State.RECORDING) {
            return;
        }
        if (spdyClient != null) {
            spdyClient.feed(bytes);
            check(spdyClient.failed());
        } else {
            fromClient.feed(bytes);
            check(fromClient.failed() || misread);
        }
    }

    private void check(boolean failed) {
        if (failed) {
            stop(Recording.State.INCOMPLETE, Text.RECORDING_UNREADABLE.text());
        }
    }

    /** A data message of a WebSocket session: its channel, and its data from {@code from}. */
    private record Framed(int channel, byte[] data, int from) {}

    /**
     * A message as its protocol frames it, or null when it carries no data (a control frame, an
     * empty message). Binary protocols: a binary message, the channel its first byte. Base64 ones:
     * the channel's digit, then the data in base64 (a text message, or binary as the kubelet also
     * reads). Anything else is {@link #misread}: the recorder cannot say what it held.
     */
    private Framed framed(int opcode, byte[] payload) {
        if (opcode >= 8 || payload.length == 0) {
            return null;
        }
        if (!base64) {
            if (opcode != 2) {
                misread = true;
                return null;
            }
            return new Framed(payload[0] & 0xff, payload, 1);
        }
        int channel = payload[0] - '0';
        if (channel < 0 || channel > 9) {
            misread = true;
            return null;
        }
        try {
            return new Framed(channel, java.util.Base64.getDecoder().decode(
                    java.util.Arrays.copyOfRange(payload, 1, payload.length)), 0);
        } catch (IllegalArgumentException notBase64) {
            misread = true;
            return null;
        }
    }

    private void clusterMessage(int opcode, byte[] payload) {
        Framed message = framed(opcode, payload);
        if (message == null) {
            return;
        }
        switch (message.channel()) {
            case 1 -> output(stdout.decode(message.data(), message.from()));
            case 2 -> output(stderr.decode(message.data(), message.from()));
            case 3 -> exit(message.data(), message.from());
            default -> { }
        }
    }

    private void clientMessage(int opcode, byte[] payload) {
        Framed message = framed(opcode, payload);
        if (message == null) {
            return;
        }
        if (message.channel() == 4) {
            resize(message.data(), message.from());
        } else if (message.channel() == 0 && stdin.recorded()) {
            add("i", input.decode(message.data(), message.from()));
        }
    }

    private void output(String text) {
        if (!text.isEmpty() && add("o", text)) {
            printed.addAll(index.feed(seconds, text));
        }
    }

    private void resize(byte[] payload, int from) {
        try {
            JsonNode sent = Cast.JSON.readTree(
                    new String(payload, from, payload.length - from, StandardCharsets.UTF_8));
            int columns = sent.path("Width").asInt(0);
            int rows = sent.path("Height").asInt(0);
            if (columns > 0 && rows > 0 && columns <= 10_000 && rows <= 10_000) {
                size = new Terminal.Size(columns, rows);
                add("r", columns + "x" + rows);
            }
        } catch (java.io.IOException unreadable) {
            // A size the recorder cannot read is no size: the terminal keeps the last one.
        }
    }

    /** The error channel: a Status; "Success", or a failure whose ExitCode cause holds the status. */
    private void exit(byte[] payload, int from) {
        try {
            JsonNode status = Cast.JSON.readTree(
                    new String(payload, from, payload.length - from, StandardCharsets.UTF_8));
            int code = 0;
            if (!"Success".equals(status.path("status").asText())) {
                code = 1;
                for (JsonNode cause : status.path("details").path("causes")) {
                    if ("ExitCode".equals(cause.path("reason").asText())) {
                        code = Integer.parseInt(cause.path("message").asText("1"));
                    }
                }
            }
            exitCode = Optional.of(code);
            add("m", "exit " + code);
        } catch (java.io.IOException | NumberFormatException unreadable) {
            add("m", "exit ?");
        }
    }

    /** @return whether it was recorded (not past the cap) */
    private boolean add(String code, String data) {
        seconds = (nanos.getAsLong() - start) / 1e9;
        String line = Cast.event(seconds, code, data);
        if (recorded + line.length() > cap) {
            stop(Recording.State.TRUNCATED, Text.RECORDING_CAP.text());
            return false;
        }
        recorded += line.length();
        lines.append(line);
        if (lines.length() >= CHUNK) {
            flush();
        }
        return true;
    }

    /** Hands what waits to the writer (also called each second, so a running session can be read). */
    synchronized void flush() {
        if (lines.isEmpty()) {
            return;
        }
        String chunk = lines.toString();
        lines = new StringBuilder();
        List<LineIndex.Line> completed = printed;
        printed = new ArrayList<>();
        writer.chunk(id, seq++, chunk, completed).ifPresent(this::notTaken);
    }

    /**
     * What was relayed could not all reach the recording (a writer or a mailbox too far behind): it
     * stops here, marked.
     */
    synchronized void behind() {
        notTaken(Text.RECORDING_BEHIND.text());
    }

    /** The relay stopped at the cap (under required, issue 51 §14): the recording ends there, truncated. */
    synchronized void capped() {
        stop(Recording.State.TRUNCATED, Text.RECORDING_CAP.text());
    }

    private void notTaken(String why) {
        if (state == Recording.State.RECORDING) {
            state = Recording.State.INCOMPLETE;
            reason = Optional.of(why);
            writer.stopped(id, state);
        }
    }

    /** Relayed bytes that broke the recorder itself: read as unreadable. */
    synchronized void unreadable() {
        check(true);
    }

    private void stop(Recording.State ended, String why) {
        flush();
        if (state == Recording.State.RECORDING) {
            state = ended;
            reason = Optional.of(why);
            writer.stopped(id, state);
        }
    }

    /** The writer could not store it: the recording stops here, marked. */
    synchronized void failed(String why) {
        if (state == Recording.State.RECORDING) {
            state = Recording.State.INCOMPLETE;
            reason = Optional.of(why);
        }
    }

    /**
     * The session ended: the rest goes to the writer, then the end. Returns why the recording is
     * not whole (incomplete, truncated), for the session's audit row; empty when it is.
     */
    synchronized Optional<String> end(Optional<String> cut) {
        if (spdyCluster != null) {
            spdyCluster.close();
            spdyClient.close();
        }
        flush();
        Recording.State ended = state == Recording.State.RECORDING ? Recording.State.COMPLETE : state;
        writer.end(id, ended, reason.or(() -> cut), exitCode, size, index.end());
        state = ended == Recording.State.COMPLETE ? Recording.State.COMPLETE : state;
        return ended == Recording.State.COMPLETE ? Optional.empty() : reason;
    }
}
