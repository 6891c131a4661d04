package bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * TLS for the load generator. It trusts any certificate: every endpoint it talks to is one the
 * harness made itself on this machine, and the proxies under test do verify their upstreams.
 */
final class Tls {
    static final SSLContext CONTEXT = trustAll();

    private Tls() {}

    private static SSLContext trustAll() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String type) {}

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String type) {}

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, new SecureRandom());
            return context;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A connected socket to the URI's host and port, TLS for https. */
    static Socket connect(URI uri, int timeoutMillis) throws IOException {
        int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        Socket plain = new Socket();
        plain.setTcpNoDelay(true);
        plain.connect(new InetSocketAddress(uri.getHost(), port), timeoutMillis);
        if (!"https".equals(uri.getScheme())) {
            return plain;
        }
        SSLSocket socket = (SSLSocket) CONTEXT.getSocketFactory().createSocket(plain, uri.getHost(), port, true);
        socket.startHandshake();
        return socket;
    }
}
