package dev.klave.simulator;

import java.util.Map;

/** kubectl exec over SPDY/3.1, forced as kubectl does when a proxy refuses WebSocket. */
class KubectlExecSpdyTest extends KubectlExecContract {
    @Override
    Map<String, String> transport() {
        return Map.of("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "false");
    }

    @Override
    String expectedMethod() {
        return "POST";
    }

    @Override
    String expectedUpgrade() {
        return "SPDY/3.1";
    }
}
