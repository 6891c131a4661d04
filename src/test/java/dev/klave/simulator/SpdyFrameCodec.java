package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads and writes SPDY/3 frames (§2.2): control frames start with the control bit, version 3 and
 * a type; data frames with a 31-bit stream id. One codec serves one connection: its two header
 * block contexts (one per direction) must see every header block in order, so writes are
 * serialised here.
 */
final class SpdyFrameCodec {
    static final int VERSION = 3;
    private static final int MAX_LENGTH = 0xFFFFFF;
    private static final int SYN_STREAM = 1;
    private static final int SYN_REPLY = 2;
    private static final int RST_STREAM = 3;
    private static final int SETTINGS = 4;
    private static final int PING = 6;
    private static final int GOAWAY = 7;
    private static final int HEADERS = 8;
    private static final int WINDOW_UPDATE = 9;

    private final DataInputStream in;
    private final OutputStream out;
    private final SpdyHeaderBlock inbound = new SpdyHeaderBlock();
    private final SpdyHeaderBlock outbound = new SpdyHeaderBlock();

    SpdyFrameCodec(InputStream in, OutputStream out) {
        this.in = new DataInputStream(requireNonNull(in, "in is null"));
        this.out = requireNonNull(out, "out is null");
    }

    /** The next frame, or empty at the end of the connection. */
    Optional<SpdyFrame> read() throws IOException {
        int first;
        try {
            first = in.readInt();
        } catch (EOFException end) {
            return Optional.empty();
        }
        int flagsAndLength = in.readInt();
        int flags = flagsAndLength >>> 24;
        int length = flagsAndLength & MAX_LENGTH;
        byte[] payload = in.readNBytes(length);
        if (payload.length != length) {
            throw new EOFException("connection closed inside a SPDY frame");
        }
        if (first >= 0) {
            return Optional.of(new SpdyFrame.Data(first & 0x7FFFFFFF, flags, payload));
        }
        int version = (first >>> 16) & 0x7FFF;
        if (version != VERSION) {
            throw new IOException("unsupported SPDY version " + version);
        }
        return Optional.of(control(first & 0xFFFF, flags, new DataInputStream(new ByteArrayInputStream(payload)), payload));
    }

    private SpdyFrame control(int type, int flags, DataInputStream body, byte[] payload) throws IOException {
        return switch (type) {
            case SYN_STREAM -> {
                int streamId = body.readInt() & 0x7FFFFFFF;
                int associated = body.readInt() & 0x7FFFFFFF;
                body.readUnsignedShort();
                yield new SpdyFrame.SynStream(streamId, associated, flags, inbound.decompress(body.readAllBytes()));
            }
            case SYN_REPLY -> new SpdyFrame.SynReply(body.readInt() & 0x7FFFFFFF, flags, inbound.decompress(body.readAllBytes()));
            case RST_STREAM -> new SpdyFrame.RstStream(body.readInt() & 0x7FFFFFFF, body.readInt());
            case SETTINGS -> {
                int count = body.readInt();
                Map<Integer, Integer> values = new LinkedHashMap<>();
                for (int i = 0; i < count; i++) {
                    int id = body.readInt() & 0xFFFFFF;
                    values.put(id, body.readInt());
                }
                yield new SpdyFrame.Settings(flags, values);
            }
            case PING -> new SpdyFrame.Ping(body.readInt());
            case GOAWAY -> new SpdyFrame.GoAway(body.readInt() & 0x7FFFFFFF, payload.length >= 8 ? body.readInt() : 0);
            case HEADERS -> new SpdyFrame.Headers(body.readInt() & 0x7FFFFFFF, flags, inbound.decompress(body.readAllBytes()));
            case WINDOW_UPDATE -> new SpdyFrame.WindowUpdate(body.readInt() & 0x7FFFFFFF, body.readInt() & 0x7FFFFFFF);
            default -> new SpdyFrame.Unknown(type);
        };
    }

    synchronized void write(SpdyFrame frame) throws IOException {
        switch (frame) {
            case SpdyFrame.Data data -> {
                if (data.data().length > MAX_LENGTH) {
                    throw new IllegalArgumentException("data frame too large");
                }
                DataOutputStream header = new DataOutputStream(out);
                header.writeInt(data.streamId() & 0x7FFFFFFF);
                header.writeInt((data.flags() << 24) | data.data().length);
                out.write(data.data());
            }
            case SpdyFrame.SynStream syn -> control(SYN_STREAM, syn.flags(), body -> {
                body.writeInt(syn.streamId());
                body.writeInt(syn.associatedStreamId());
                body.writeShort(0);
                body.write(outbound.compress(syn.headers()));
            });
            case SpdyFrame.SynReply reply -> control(SYN_REPLY, reply.flags(), body -> {
                body.writeInt(reply.streamId());
                body.write(outbound.compress(reply.headers()));
            });
            case SpdyFrame.RstStream reset -> control(RST_STREAM, 0, body -> {
                body.writeInt(reset.streamId());
                body.writeInt(reset.status());
            });
            case SpdyFrame.Settings settings -> control(SETTINGS, settings.flags(), body -> {
                body.writeInt(settings.values().size());
                for (Map.Entry<Integer, Integer> entry : settings.values().entrySet()) {
                    body.writeInt(entry.getKey() & 0xFFFFFF);
                    body.writeInt(entry.getValue());
                }
            });
            case SpdyFrame.Ping ping -> control(PING, 0, body -> body.writeInt(ping.id()));
            case SpdyFrame.GoAway goAway -> control(GOAWAY, 0, body -> {
                body.writeInt(goAway.lastGoodStreamId());
                body.writeInt(goAway.status());
            });
            case SpdyFrame.Headers headers -> control(HEADERS, headers.flags(), body -> {
                body.writeInt(headers.streamId());
                body.write(outbound.compress(headers.headers()));
            });
            case SpdyFrame.WindowUpdate update -> control(WINDOW_UPDATE, 0, body -> {
                body.writeInt(update.streamId());
                body.writeInt(update.delta());
            });
            case SpdyFrame.Unknown unknown -> throw new IllegalArgumentException("cannot write frame type " + unknown.type());
        }
        out.flush();
    }

    private interface Body {
        void write(DataOutputStream body) throws IOException;
    }

    private void control(int type, int flags, Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        body.write(new DataOutputStream(bytes));
        DataOutputStream header = new DataOutputStream(out);
        header.writeShort(0x8000 | VERSION);
        header.writeShort(type);
        header.writeInt((flags << 24) | bytes.size());
        bytes.writeTo(out);
    }

    static Map<String, List<String>> headers(String... namesAndValues) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], List.of(namesAndValues[i + 1]));
        }
        return headers;
    }
}
