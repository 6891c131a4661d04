package dev.klave.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.klave.testing.TestingClock;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Pod logs as the kubelet serves them: filtered by time and count, of the previous instance, per container. */
class PodLogsTest {
    private static final String PODS = "/api/v1/namespaces/default/pods/";

    private static TestingClock clock;
    private static ClusterSimulator cluster;
    private static SimulatorClient admin;

    @BeforeAll
    static void start() {
        clock = new TestingClock();
        cluster = ClusterSimulator.builder().clock(clock).start();
        admin = new SimulatorClient(cluster, cluster.adminToken());
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void sinceSecondsAndTailLinesFilterByTheTimeEachLineWasWritten() {
        pod("clocked", "app");
        clock.advance(Duration.ofSeconds(60));
        cluster.pods().appendLog("default", "clocked", "app", "a");
        clock.advance(Duration.ofSeconds(60));
        cluster.pods().appendLog("default", "clocked", "app", "b");
        cluster.pods().appendLog("default", "clocked", "app", "c");

        assertThat(log("clocked", "")).isEqualTo("container app started\na\nb\nc\n");
        assertThat(log("clocked", "sinceSeconds=30")).isEqualTo("b\nc\n");
        assertThat(log("clocked", "sinceSeconds=90")).isEqualTo("a\nb\nc\n");
        assertThat(log("clocked", "sinceSeconds=30&tailLines=1")).isEqualTo("c\n");
        assertThat(log("clocked", "tailLines=2&timestamps=true")).isEqualTo(clock.instant() + " b\n" + clock.instant() + " c\n");
        assertThat(log("clocked", "sinceTime=" + clock.instant().minusSeconds(60))).isEqualTo("a\nb\nc\n");
        assertThat(log("clocked", "limitBytes=3&follow=false")).isEqualTo("con");
    }

    @Test
    void previousIsTheLogOfTheContainerInstanceBeforeARestart() {
        pod("crashy", "app");
        cluster.pods().appendLog("default", "crashy", "app", "panic: boom");

        cluster.pods().restartContainer("default", "crashy", "app", 2);

        assertThat(log("crashy", "previous=true")).isEqualTo("container app started\npanic: boom\n");
        assertThat(log("crashy", "")).isEqualTo("container app started\n");
        ObjectNode status = (ObjectNode) cluster.objects().get("pods", "default", "crashy").orElseThrow()
                .at("/status/containerStatuses/0");
        assertThat(status.path("restartCount").asInt()).isEqualTo(1);
        assertThat(status.at("/lastState/terminated/exitCode").asInt()).isEqualTo(2);
        assertThat(status.at("/lastState/terminated/reason").asText()).isEqualTo("Error");
        ObjectNode table = admin.send("GET", PODS + "crashy", "", Map.of("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"))
                .json();
        assertThat(table.at("/rows/0/cells/3").asText()).isEqualTo("1 (0s ago)");
    }

    @Test
    void withoutAPreviousInstanceThePreviousLogIsTheApiserversBadRequest() {
        pod("steady", "app");

        SimulatorClient.Response response = admin.get(PODS + "steady/log?previous=true");

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json()).isEqualTo(Json.parseObject("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"previous terminated container \\"app\\" in pod \\"steady\\" not found","reason":"BadRequest","code":400}"""));
    }

    @Test
    void aPodSeededWithAPreviousLogAnnotationHasThatPreviousLog() {
        cluster.objects().put("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: seeded
                  namespace: default
                  annotations: {simulator.klave.dev/previous-log: "starting\\nOOMKilled"}
                spec: {containers: [{name: app, image: app}]}
                """);

        assertThat(log("seeded", "previous=true")).isEqualTo("starting\nOOMKilled\n");
    }

    @Test
    void aPodWithSeveralContainersNeedsTheContainerNamed() {
        pod("pair", "a", "b");

        SimulatorClient.Response unnamed = admin.get(PODS + "pair/log");

        assertThat(unnamed.status()).isEqualTo(400);
        assertThat(unnamed.json().path("message").asText())
                .isEqualTo("a container name must be specified for pod pair, choose one of: [a b]");
        assertThat(admin.get(PODS + "pair/log?previous=true").status()).isEqualTo(400);
        assertThat(log("pair", "container=b")).isEqualTo("container b started\n");
    }

    @Test
    void aFollowerOfARestartedContainerReachesTheEndOfItsLog() throws Exception {
        pod("followed", "app");
        HttpResponse<Stream<String>> response = admin.httpClient().send(HttpRequest.newBuilder(
                        URI.create(cluster.url() + PODS + "followed/log?follow=true"))
                .header("Authorization", "Bearer " + cluster.adminToken()).build(), HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> lines = response.body()) {
            Iterator<String> follow = lines.iterator();
            assertThat(follow.next()).isEqualTo("container app started");

            cluster.pods().appendLog("default", "followed", "app", "last words");
            cluster.pods().restartContainer("default", "followed", "app", 0);

            assertThat(follow.next()).isEqualTo("last words");
            assertThat(follow.hasNext()).isFalse();
        }
    }

    private static void pod(String name, String... containers) {
        StringBuilder list = new StringBuilder();
        for (String container : List.of(containers)) {
            list.append(list.isEmpty() ? "" : ",").append("{\"name\":\"").append(container).append("\",\"image\":\"x\"}");
        }
        SimulatorClient.Response created = admin.send("POST", "/api/v1/namespaces/default/pods",
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"containers\":["
                        + list + "]}}", Map.of());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    private static String log(String pod, String query) {
        SimulatorClient.Response response = admin.get(PODS + pod + "/log" + (query.isEmpty() ? "" : "?" + query));
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(response.contentType()).isEqualTo("text/plain");
        return response.body();
    }
}
