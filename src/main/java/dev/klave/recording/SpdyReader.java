package dev.klave.recording;

/**
 * One direction of a SPDY/3.1 connection (kubectl's fallback for exec and attach), read for the
 * recorder: each stream kubectl opens with its {@code streamtype}, then its bytes by stream id. The
 * reading itself is the transport's ({@code proxy.NettySpdyReader}: Netty's SPDY codec), handed to
 * {@link Recordings} as a {@link Factory}; a frame it cannot read makes it {@link #failed()} for good.
 */
public interface SpdyReader {
    /** What a direction carries. */
    interface Events {
        void opened(int stream, String type);

        void data(int stream, byte[] bytes, boolean last);
    }

    /** Makes a reader telling {@code events}. */
    @FunctionalInterface
    interface Factory {
        SpdyReader reader(Events events);
    }

    void feed(byte[] bytes);

    boolean failed();

    void close();

    /** No SPDY reading: every session over SPDY is marked incomplete from its first byte. */
    Factory NONE = events -> new SpdyReader() {
        @Override
        public void feed(byte[] bytes) {}

        @Override
        public boolean failed() {
            return true;
        }

        @Override
        public void close() {}
    };
}
