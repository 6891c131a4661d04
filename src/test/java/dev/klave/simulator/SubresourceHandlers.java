package dev.klave.simulator;

import java.util.Map;

/** Which handler serves which subresource. */
final class SubresourceHandlers {
    private SubresourceHandlers() {
    }

    static void register(Map<String, ApiServer.SubresourceHandler> handlers, ObjectStore store, PodRuntime pods,
            Faults faults) {
        handlers.put("pods/log", new PodLogHandler(pods));
        ScaleHandler scale = new ScaleHandler(store);
        handlers.put("deployments/scale", scale);
        handlers.put("statefulsets/scale", scale);
        handlers.put("pods/exec", new RemoteCommandHandler(pods, false, faults));
        handlers.put("pods/attach", new RemoteCommandHandler(pods, true, faults));
        handlers.put("pods/portforward", new PortForwardHandler(pods));
        StatusHandler status = new StatusHandler(store);
        for (String resource : new String[] {"pods", "deployments", "statefulsets", "daemonsets", "namespaces"}) {
            handlers.put(resource + "/status", status);
        }
    }
}
