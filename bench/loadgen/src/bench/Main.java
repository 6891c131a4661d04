package bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The benchmark's Java side, one command per job; bench/run drives it. Measuring commands take
 * {@code --raw file --label target/phase/round} and append their figures there as one JSON line.
 */
public final class Main {
    private Main() {}

    public static void main(String[] arguments) throws Exception {
        if (arguments.length == 0) {
            throw new IllegalArgumentException(
                    "usage: bench.Main standin|floor|setup|issue|rate|watches|sessions|revoke|upgrade|recordings|audit-count|commit-latency|wake-latency|report --name value…");
        }
        Args args = new Args(arguments, 1);
        switch (arguments[0]) {
            case "standin" -> StandIn.serve(args);
            case "floor" -> FloorProxy.serve(args);
            case "setup" -> Setup.run(args);
            case "issue" -> Setup.issue(args);
            case "rate" -> record(args, FixedRate.run(args));
            case "watches" -> record(args, Watches.hold(args));
            case "revoke" -> record(args, Watches.revoke(args));
            case "sessions" -> record(args, Watches.holdSessions(args));
            case "upgrade" -> record(args, UpgradeThroughput.run(args));
            case "recordings" -> record(args, RecordingCount.count(args));
            case "audit-count" -> System.out.println(AuditCount.count(args));
            case "commit-latency" -> record(args, CommitLatency.run(args));
            case "wake-latency" -> record(args, WakeLatency.run(args));
            case "report" -> Report.write(args);
            default -> throw new IllegalArgumentException("unknown command " + arguments[0]);
        }
        // Virtual threads of watches or the stand-in must not keep a finished command alive.
        System.exit(0);
    }

    private static void record(Args args, ObjectNode figures) throws Exception {
        String[] label = args.text("label").split("/");
        ObjectNode line = Api.JSON.createObjectNode().put("target", label[0]).put("phase", label[1])
                .put("round", Integer.parseInt(label[2]));
        line.setAll(figures);
        System.out.println(line);
        Files.writeString(Path.of(args.text("raw")), line + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
