package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/** The SPDY/3 frames (draft-mbelshe-httpbis-spdy-00 §2.2, §2.6) kubectl's spdystream exchanges. */
sealed interface SpdyFrame {
    int FLAG_FIN = 0x01;

    /** Header blocks keep names lower-cased with every value, as SPDY/3 §2.6.10 requires. */
    record SynStream(int streamId, int associatedStreamId, int flags, Map<String, List<String>> headers) implements SpdyFrame {
        public SynStream {
            headers = Map.copyOf(headers);
        }
    }

    record SynReply(int streamId, int flags, Map<String, List<String>> headers) implements SpdyFrame {
        public SynReply {
            headers = Map.copyOf(headers);
        }
    }

    record RstStream(int streamId, int status) implements SpdyFrame {
    }

    record Settings(int flags, Map<Integer, Integer> values) implements SpdyFrame {
        public Settings {
            values = Map.copyOf(values);
        }
    }

    record Ping(int id) implements SpdyFrame {
    }

    record GoAway(int lastGoodStreamId, int status) implements SpdyFrame {
    }

    record Headers(int streamId, int flags, Map<String, List<String>> headers) implements SpdyFrame {
        public Headers {
            headers = Map.copyOf(headers);
        }
    }

    record WindowUpdate(int streamId, int delta) implements SpdyFrame {
    }

    record Data(int streamId, int flags, byte[] data) implements SpdyFrame {
        public Data {
            requireNonNull(data, "data is null");
        }

        boolean fin() {
            return (flags & FLAG_FIN) != 0;
        }
    }

    /** A control frame of a type this codec does not model (NOOP, CREDENTIAL); skipped. */
    record Unknown(int type) implements SpdyFrame {
    }
}
