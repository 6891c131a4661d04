package dev.klave.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Notices a client leaving a streamed response (watch, log follow). A streaming request has no
 * more body, so a read on its connection returns only when the client closes it.
 */
final class ClientDisconnect {
    private final AtomicBoolean gone = new AtomicBoolean();

    private ClientDisconnect() {
    }

    static ClientDisconnect watch(InputStream in, Runnable onGone) {
        ClientDisconnect disconnect = new ClientDisconnect();
        Thread.ofVirtual().name("simulator-disconnect").start(() -> {
            try {
                while (in.read() >= 0) {
                    // stray bytes are ignored
                }
            } catch (IOException closed) {
                // the connection ended
            }
            disconnect.gone.set(true);
            onGone.run();
        });
        return disconnect;
    }

    boolean gone() {
        return gone.get();
    }
}
