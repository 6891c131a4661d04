package dev.klave.simulator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;

/**
 * An exec or attach request, from its query: the command, the container and which of stdin,
 * stdout, stderr and tty the client wants; and the Status it ends with on the error stream.
 */
record ExecRequest(ObjectNode pod, String container, List<String> command, boolean attach, boolean stdin,
        boolean stdout, boolean stderr, boolean tty) {
    ExecRequest {
        requireNonNull(pod, "pod is null");
        requireNonNull(container, "container is null");
        command = List.copyOf(command);
    }

    static ExecRequest of(HttpRequest request, ObjectNode pod, boolean attach) {
        String container = PodRuntime.container(pod, request.queryParameter("container").orElse(""));
        boolean stdin = request.flag("stdin");
        boolean stdout = request.flag("stdout");
        boolean stderr = request.flag("stderr");
        boolean tty = request.flag("tty");
        if (!stdin && !stdout && !stderr) {
            throw ApiException.badRequest("you must specify at least 1 of stdin, stdout, stderr");
        }
        List<String> command = request.queryParameters("command");
        if (!attach && command.isEmpty()) {
            throw ApiException.badRequest("you must specify at least one command for the container");
        }
        return new ExecRequest(pod, container, command, attach, stdin, stdout, stderr && !tty, tty);
    }

    /** The kubelet's form: the container named in the path, streams as {@code input}/{@code output}/{@code error}. */
    static ExecRequest ofKubelet(HttpRequest request, ObjectNode pod, String container, boolean attach) {
        String named = PodRuntime.container(pod, container);
        boolean tty = request.flag("tty");
        boolean stdin = request.flag("input");
        boolean stdout = request.flag("output");
        boolean stderr = request.flag("error");
        if (!stdin && !stdout && !stderr) {
            throw ApiException.badRequest("you must specify at least 1 of stdin, stdout, stderr");
        }
        List<String> command = request.queryParameters("command");
        if (!attach && command.isEmpty()) {
            throw ApiException.badRequest("you must specify at least one command for the container");
        }
        return new ExecRequest(pod, named, command, attach, stdin, stdout, stderr && !tty, tty);
    }

    /** Runs the command, or for attach the container's main process: it echoes stdin. */
    int run(ScriptedContainer.Streams streams) throws IOException {
        ScriptedContainer process = new ScriptedContainer(pod, container);
        if (attach) {
            return stdin ? process.run(List.of("cat"), streams)
                    : process.run(List.of("echo", "attached to " + container), streams);
        }
        return process.run(command, streams);
    }

    /** The v4 error-stream Status: success, or the exit code the client turns into its own. */
    ObjectNode status(int exitCode) {
        ObjectNode status = Json.object();
        status.putObject("metadata");
        if (exitCode == 0) {
            status.put("status", "Success");
            return status;
        }
        status.put("status", "Failure");
        status.put("message", "command terminated with non-zero exit code: error executing command ["
                + String.join(" ", command) + "], exit code " + exitCode);
        status.put("reason", "NonZeroExitCode");
        ArrayNode causes = status.putObject("details").putArray("causes");
        ObjectNode cause = causes.addObject();
        cause.put("reason", "ExitCode");
        cause.put("message", Integer.toString(exitCode));
        return status;
    }
}
