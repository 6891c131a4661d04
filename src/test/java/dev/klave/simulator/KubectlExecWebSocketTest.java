package dev.klave.simulator;

import java.util.Map;

/** kubectl exec over WebSocket ({@code v5.channel.k8s.io}), kubectl 1.32's first choice. */
class KubectlExecWebSocketTest extends KubectlExecContract {
    @Override
    Map<String, String> transport() {
        return Map.of();
    }

    @Override
    String expectedMethod() {
        return "GET";
    }

    @Override
    String expectedUpgrade() {
        return "websocket";
    }
}
