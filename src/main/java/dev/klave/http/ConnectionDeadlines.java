package dev.klave.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a client connection that costs an open file without using it, in Netty's pipeline just
 * before Vert.x's handler, so it sees each request head and body as decoded and each answer's end
 * as written:
 *
 * <ul>
 *   <li><b>head</b>: a request head must be complete within the head time-out from its first
 *       byte — and a new connection's first head within it from the connection's start (after the
 *       TLS handshake, which Vert.x bounds with the same time). One header byte every 15 s no
 *       longer keeps a connection;
 *   <li><b>idle</b>: a connection with no request in flight is closed after the idle time-out;
 *   <li><b>body</b>: while a request's body is read, at most the idle time-out may pass between
 *       two pieces of it (nginx's {@code client_body_timeout}).
 * </ul>
 *
 * A request whose answer is still being written — a watch, a followed log, an exec or
 * port-forward stream (whose bytes pass as raw buffers after the upgrade, never as an answer's
 * end) — has no deadline here: it is not idle, and the proxy's own time-outs and the stream guard
 * apply to it.
 *
 * <p>One timer per connection, never moved on the way of a request (as Netty's
 * {@code IdleStateHandler}): a state change only writes the new deadline. The timer fires at least
 * once per head time-out while a deadline is set, closes the connection if it has passed, and
 * otherwise sleeps again until it or for another head time-out, whichever is sooner — so every
 * deadline is kept to within the timer's own delay, and a connection that is busy or streaming
 * costs no timer at all. Confined to the connection's event loop.
 */
final class ConnectionDeadlines extends ChannelDuplexHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionDeadlines.class);
    static final String NAME = "klaveDeadlines";
    private static final long NONE = Long.MAX_VALUE;

    private final long headNanos;
    private final long idleNanos;
    private ChannelHandlerContext context;
    /** Requests whose answer has not been written to its end. */
    private int answersOwed;
    private boolean readingBody;
    private boolean headStarted;
    private long deadline = NONE;
    private String waitingFor = "a request head";
    private ScheduledFuture<?> timer;

    ConnectionDeadlines(Duration head, Duration idle) {
        this.headNanos = head.toNanos();
        this.idleNanos = idle.toNanos();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.context = context;
        // A new connection: its first head is due within the head time-out.
        headStarted = true;
        arm(System.nanoTime() + headNanos, "a request head");
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext context) {
        cancel();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) throws Exception {
        cancel();
        super.channelInactive(context);
    }

    /** The first byte of a request head has arrived ({@link StrictRequestDecoder} sees the bytes). */
    void headStarted() {
        if (answersOwed == 0 && !readingBody && !headStarted) {
            headStarted = true;
            arm(System.nanoTime() + headNanos, "a request head");
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) throws Exception {
        if (message instanceof HttpRequest) {
            answersOwed++;
            headStarted = false;
            readingBody = true;
        }
        if (message instanceof HttpContent) {
            readingBody = !(message instanceof LastHttpContent);
        }
        update();
        super.channelRead(context, message);
    }

    @Override
    public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
        // An interim answer (100 Continue) is a whole message to Netty, but not the request's answer.
        boolean interim = message instanceof HttpResponse response
                && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        if (message instanceof LastHttpContent && !interim && answersOwed > 0) {
            answersOwed--;
            update();
        }
        super.write(context, message, promise);
    }

    private void update() {
        if (readingBody) {
            arm(System.nanoTime() + idleNanos, "the rest of a request body");
        } else if (answersOwed > 0) {
            deadline = NONE;
        } else if (!headStarted) {
            arm(System.nanoTime() + idleNanos, "a next request (idle)");
        }
    }

    private void arm(long at, String what) {
        deadline = at;
        waitingFor = what;
        if (timer == null) {
            schedule(System.nanoTime());
        }
    }

    /** Sleeps until the deadline or for one head time-out, whichever is sooner. */
    private void schedule(long now) {
        long delay = Math.max(0, Math.min(deadline - now, headNanos));
        timer = context.executor().schedule(this::fired, delay, TimeUnit.NANOSECONDS);
    }

    private void fired() {
        timer = null;
        if (deadline == NONE || !context.channel().isActive()) {
            return;
        }
        long now = System.nanoTime();
        if (now < deadline) {
            schedule(now);
            return;
        }
        LOG.debug("connection from {} closed: no {} in time", context.channel().remoteAddress(), waitingFor);
        context.close();
    }

    private void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
