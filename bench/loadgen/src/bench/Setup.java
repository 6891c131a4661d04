package bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Brings a fresh Klave to the state an operator reaches by hand: the administrator's invitation
 * completed, the stand-in cluster registered with its bootstrap JSON (Klave checks both tokens
 * against it), a view grant on {@code *}, and two {@code klt_} credentials: one for the load, one
 * to revoke in the revocation test. Writes them as JSON for bench/run.
 */
final class Setup {
    static final String PASSWORD = "bench horse battery staple";

    private Setup() {}

    static void run(Args args) throws Exception {
        Api api = new Api(args.text("base"));
        api.send("POST", "/api/auth/link/complete", json("token", args.text("invite"), "password", PASSWORD));
        String cluster = args.text("cluster", "bench");
        api.send("POST", "/api/clusters", json("id", cluster, "name", "Bench stand-in"));
        ObjectNode bootstrap = Api.JSON.createObjectNode()
                .put("server", args.text("server"))
                .put("ca", Files.readString(Path.of(args.text("ca"))))
                .put("proxyToken", "bench-proxy-token")
                .put("reconcilerToken", "bench-reconciler-token");
        api.send("POST", "/api/clusters/" + cluster + "/tokens", bootstrap.toString());
        String me = api.send("GET", "/api/me", null).get("id").asText();
        api.send("POST", "/api/grants", Api.JSON.createObjectNode().put("subject_id", me).put("cluster_id", cluster)
                .put("tier", "view").put("scope", "*").toString());
        ObjectNode out = Api.JSON.createObjectNode().put("cookie", api.cookie()).put("subject", me);
        for (String name : new String[] {"load", "revocable"}) {
            JsonNode issued = api.send("POST", "/api/credentials", json("ttl", "12h", "name", name));
            out.put(name + "Token", issued.get("token").asText()).put(name + "Id", issued.get("id").asText());
        }
        Files.writeString(Path.of(args.text("out")), out.toPrettyString());
    }

    /** Issues one more credential for the signed-in administrator (each revocation run spends one). */
    static void issue(Args args) throws Exception {
        Api api = new Api(args.text("base")).signedIn(args.text("cookie"));
        JsonNode issued = api.send("POST", "/api/credentials", json("ttl", "1h", "name", "revocable"));
        System.out.println(issued.get("id").asText() + " " + issued.get("token").asText());
    }

    static String json(String... pairs) {
        ObjectNode node = Api.JSON.createObjectNode();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            node.put(pairs[i], pairs[i + 1]);
        }
        return node.toString();
    }
}
