package dev.klave.proxy;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.gateway.Call;
import dev.klave.gateway.Carried;
import dev.klave.messages.Message;
import dev.klave.messages.Refusal;
import dev.klave.messages.Text;
import dev.klave.recording.ClusterRecording;
import dev.klave.recording.RecordingPolicy;
import dev.klave.recording.Recordings;
import dev.klave.recording.Tap;
import dev.klave.recording.SessionRequest;
import dev.klave.recording.StreamProtocol;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The recording's part of an upgraded connection (issues 42 and 51). Every upgrade is classified
 * from its parsed request ({@link SessionRequest}): an exec, attach or node-proxy run is a session
 * to record, a port-forward is relayed as data, anything else is unknown. Where a cluster requires
 * recording, it fails closed at each step: an unknown upgrade is refused before the cluster sees
 * it; a session's offer is narrowed to the protocols the recorder reads (no WebSocket extension);
 * and after the cluster's 101 the session is relayed only if the recorder reads the protocol the
 * cluster chose. Where recording is on, a session the recorder cannot read goes on, its recording
 * saying so.
 */
final class UpgradeRecording {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Recordings recordings;

    UpgradeRecording(Recordings recordings) {
        this.recordings = requireNonNull(recordings, "recordings is null");
    }

    /** What one upgrade is, and how its cluster records, read before the cluster sees it. */
    record Plan(SessionRequest request, ClusterRecording settings) {
        boolean required() {
            return settings.policy() == RecordingPolicy.REQUIRED;
        }

        /** The session to record, where recording is not off. */
        Optional<SessionRequest.Recorded> session() {
            return request instanceof SessionRequest.Recorded recorded && settings.policy() != RecordingPolicy.OFF
                    ? Optional.of(recorded) : Optional.empty();
        }
    }

    Plan plan(Call call) {
        return new Plan(SessionRequest.of(call.path().segments(), call.query()), recordings.policy(call.cluster()));
    }

    /**
     * A request that is no upgrade but would run a command — the kubelet's run, an exec or attach
     * without its upgrade — on a cluster that requires recording: refused, there is no terminal to
     * record. Empty for any other request (a few comparisons of the path's first segments).
     */
    Optional<Refusal> plain(Call call) {
        SessionRequest request = SessionRequest.of(call.path().segments(), call.query());
        if (request instanceof SessionRequest.Recorded
                && recordings.policy(call.cluster()).policy() == RecordingPolicy.REQUIRED) {
            return Optional.of(Message.RECORDING_REQUIRED_UNRECORDABLE.refusal(Text.RECORDING_NOT_UPGRADED.text()));
        }
        return Optional.empty();
    }

    /**
     * Before the cluster sees the upgrade, where recording is required: the refusal, if any — an
     * upgrade that is no session nor port-forward, a session that cannot be recorded now (the quota,
     * the person's share, the writer behind: with {@code Retry-After}), an offer of no protocol the
     * recorder reads — and otherwise {@code headers} narrowed to what it reads.
     */
    Optional<Refusal> before(Plan plan, Carried open, MultiMap headers) {
        if (!plan.required()) {
            return Optional.empty();
        }
        return switch (plan.request()) {
            case SessionRequest.Data data -> Optional.empty();
            case SessionRequest.Unknown unknown ->
                    Optional.of(Message.RECORDING_REQUIRED_UNRECORDABLE.refusal(Text.RECORDING_NOT_A_SESSION.text()));
            case SessionRequest.Recorded recorded -> recordings.refusing(open.caller().subject().id())
                    .or(() -> narrow(headers));
        };
    }

    /**
     * Keeps only what the recorder reads in the client's offer: the WebSocket subprotocols and SPDY
     * stream versions it knows, and no WebSocket extension (a compressed frame cannot be read). An
     * offer left empty, or another upgrade than WebSocket or SPDY/3.1, is refused here.
     */
    private static Optional<Refusal> narrow(MultiMap headers) {
        String upgrade = Optional.ofNullable(headers.get(HttpHeaders.UPGRADE)).orElse("").strip();
        headers.remove("Sec-WebSocket-Extensions");
        if (upgrade.equalsIgnoreCase("websocket")) {
            return narrowed(headers, "Sec-WebSocket-Protocol", StreamProtocol::readable);
        }
        if (upgrade.toLowerCase(Locale.ROOT).equals("spdy/3.1")) {
            return narrowed(headers, "X-Stream-Protocol-Version", StreamProtocol::readableOverSpdy);
        }
        return Optional.of(unrecordable("Upgrade: " + upgrade));
    }

    private static Optional<Refusal> narrowed(MultiMap headers, String name, Predicate<String> readable) {
        List<String> offered = StreamProtocol.listed(headers.getAll(name));
        if (offered.isEmpty()) {
            return Optional.empty();
        }
        List<String> kept = offered.stream().filter(readable).toList();
        if (kept.isEmpty()) {
            return Optional.of(unrecordable(name + ": " + String.join(", ", offered)));
        }
        headers.remove(name);
        kept.forEach(protocol -> headers.add(name, protocol));
        return Optional.empty();
    }

    private static Refusal unrecordable(String what) {
        return Message.RECORDING_REQUIRED_UNRECORDABLE.refusal(
                dev.klave.messages.Untrusted.text(Text.RECORDING_PROTOCOL_NAMED.text(what)));
    }

    /** What the cluster chose in its 101 answer. */
    static StreamProtocol.Choice choice(MultiMap answer) {
        return new StreamProtocol.Choice(answer.getAll(HttpHeaders.UPGRADE),
                StreamProtocol.listed(answer.getAll("Sec-WebSocket-Protocol")),
                StreamProtocol.listed(answer.getAll("Sec-WebSocket-Extensions")),
                StreamProtocol.listed(answer.getAll("X-Stream-Protocol-Version")));
    }

    /** A session to relay: its tap (nothing for data or where recording is off) and the protocol it speaks. */
    record Relay(Tap tap, Optional<StreamProtocol> protocol) {}

    /**
     * After the cluster's 101: how the session is relayed, or — where recording is required and the
     * recorder does not read what the cluster chose — the refusal that ends it before a byte is relayed.
     *
     * @param failed what ends the session when its required recording fails (told once)
     */
    Relay after(Plan plan, Carried open, MultiMap answer, Runnable failed) throws Refusal {
        Optional<SessionRequest.Recorded> recorded = plan.session();
        if (recorded.isEmpty()) {
            return new Relay(Tap.NOTHING, Optional.empty());
        }
        StreamProtocol.Choice choice = choice(answer);
        Optional<StreamProtocol> protocol = choice.understood();
        Recordings.Session session = new Recordings.Session(open.auditId(), open.caller().subject().id(),
                open.caller().subject().login().value(), open.call().cluster(), recorded.get());
        if (protocol.isEmpty()) {
            if (plan.required()) {
                throw unrecordable(choice.describe());
            }
            return new Relay(recordings.unrecorded(session, plan.settings(),
                    dev.klave.messages.Untrusted.text(Text.RECORDING_PROTOCOL.text(choice.describe()))),
                    Optional.empty());
        }
        return new Relay(recordings.start(session, protocol.get(), plan.settings(), failed), protocol);
    }

    /**
     * What ends a session for its client, in the protocol it speaks: a message on its error channel
     * (3) with a failure Status saying {@code why} — binary, or the base64 protocols' digit and text —
     * then the WebSocket's normal close (1000, RFC 6455 §7.4.1), so kubectl or a browser terminal
     * prints why instead of an unexpected end. SPDY gets nothing: its connection closes.
     */
    static Optional<Buffer> ending(Optional<StreamProtocol> protocol, String why) {
        if (protocol.isEmpty() || protocol.get() == StreamProtocol.SPDY) {
            return Optional.empty();
        }
        ObjectNode status = JSON.createObjectNode();
        status.put("kind", "Status").put("apiVersion", "v1").put("status", "Failure").put("message", why)
                .put("reason", "InternalError");
        status.putObject("metadata");
        byte[] json = status.toString().getBytes(StandardCharsets.UTF_8);
        boolean base64 = protocol.get() == StreamProtocol.WEBSOCKET_BASE64;
        byte[] payload;
        if (base64) {
            payload = ("3" + Base64.getEncoder().encodeToString(json)).getBytes(StandardCharsets.US_ASCII);
        } else {
            payload = new byte[json.length + 1];
            payload[0] = 3;
            System.arraycopy(json, 0, payload, 1, json.length);
        }
        // One unmasked frame (a server's), text for base64, binary otherwise; then the close.
        Buffer frame = Buffer.buffer().appendByte((byte) (base64 ? 0x81 : 0x82));
        if (payload.length < 126) {
            frame.appendByte((byte) payload.length);
        } else {
            frame.appendByte((byte) 126).appendShort((short) payload.length);
        }
        frame.appendBytes(payload);
        return Optional.of(frame.appendByte((byte) 0x88).appendByte((byte) 2).appendShort((short) 1000));
    }
}
