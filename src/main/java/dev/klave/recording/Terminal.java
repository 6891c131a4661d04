package dev.klave.recording;

import static java.util.Objects.requireNonNull;

/**
 * A session's terminal as its recording knows it: whether the client asked for a TTY, and its size
 * — the last one the client sent, which the asciicast header gives the player.
 */
public record Terminal(Tty tty, Size size) {
    public Terminal {
        requireNonNull(tty, "tty is null");
        requireNonNull(size, "size is null");
    }

    /** A terminal whose client has not said its size yet: {@link Size#DEFAULT} until it does. */
    public static Terminal opening(Tty tty) {
        return new Terminal(tty, Size.DEFAULT);
    }

    /**
     * Whether the session has a TTY ({@code tty=true} to the API server, {@code tty=1} to the
     * kubelet): then stdout and stderr are one stream and the client sends resizes. Stored and shown
     * as a boolean ({@code tty}); only those edges convert.
     */
    public enum Tty {
        ALLOCATED, NONE;

        public static Tty of(boolean allocated) {
            return allocated ? ALLOCATED : NONE;
        }

        public boolean allocated() {
            return this == ALLOCATED;
        }
    }

    /** Columns and rows, at least one of each: asciicast v2's header requires both (docs.asciinema.org). */
    public record Size(int width, int height) {
        /**
         * What a terminal is taken to be until its client sends a size, and for good when it never
         * does (no TTY): 80×24, the VT100's, which players assume too.
         */
        public static final Size DEFAULT = new Size(80, 24);

        public Size {
            if (width < 1 || height < 1) {
                throw new IllegalArgumentException("a terminal of " + width + "x" + height);
            }
        }
    }
}
